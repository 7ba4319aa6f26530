/// When a reminder fires (SPEC §3.3), validated.
public struct Schedule: Sendable, Hashable {
    /// How often the schedule repeats.
    public enum Frequency: String, Sendable, Hashable, CaseIterable {
        case daily, weekly, monthly, once
    }

    /// What a monthly `days` entry beyond the month's length does.
    public enum MissingDays: String, Sendable, Hashable, CaseIterable {
        /// The month has no slot for that entry (RFC 5545).
        case skip
        /// The entry moves to the month's last day (or, for negatives, its first).
        case lastDay
    }

    /// The times of day of a repeating schedule.
    public enum TimesOfDay: Sendable, Hashable {
        /// Explicit `times`.
        case list([LocalTime])
        /// `timesPerDay` slots spread evenly over a window, both ends included.
        case spread(count: Int, window: ClosedRange<LocalTime>)
        /// Every `minutes` from the window's start while not after its end.
        case every(minutes: Int, window: ClosedRange<LocalTime>)

        /// The distinct times of day, ascending.
        public var resolved: [LocalTime] {
            var minutes: [Int]
            switch self {
            case .list(let times):
                minutes = times.map(\.minuteOfDay)
            // Counts and steps outside what validation accepts give no times, never a trap
            // (a zero step) or a hang (a count of Int.max).
            case .spread(let count, let window):
                guard (1...1440).contains(count) else { return [] }
                let from = window.lowerBound.minuteOfDay
                let span = window.upperBound.minuteOfDay - from
                minutes = count == 1 ? [from] : (0..<count).map { from + $0 * span / (count - 1) }
            case .every(let step, let window):
                guard (1...1440).contains(step) else { return [] }
                minutes = Array(stride(from: window.lowerBound.minuteOfDay, through: window.upperBound.minuteOfDay, by: step))
            }
            return Set(minutes).sorted().compactMap(LocalTime.init(minuteOfDay:))
        }
    }

    /// A monthly "n-th weekday" rule, such as `2TU` or `-1FR`.
    public struct WeekdayOrdinal: Sendable, Hashable, CustomStringConvertible {
        /// 1–5 from the month's start, or -1…-5 from its end.
        public var ordinal: Int
        /// The weekday.
        public var weekday: Weekday
        /// `2TU`, `-1FR`.
        public var description: String { "\(ordinal)\(weekday.code)" }
    }

    /// The repetition.
    public var frequency: Frequency
    /// Times of day (empty list for `once`).
    public var timesOfDay: TimesOfDay = .list([])
    /// Weekly: the days of the week.
    public var weekdays: Set<Weekday> = []
    /// Monthly: days of the month, 1…31 or -31…-1.
    public var monthDays: [Int] = []
    /// Monthly: n-th weekdays.
    public var weekdayOrdinals: [WeekdayOrdinal] = []
    /// Monthly `days` beyond a month's length.
    public var missingDays: MissingDays = .skip
    /// Every N days, weeks or months, counted from `start`.
    public var interval: Int = 1
    /// First date, included.
    public var start: CivilDate?
    /// Last date, included.
    public var end: CivilDate?
    /// Dates on which nothing fires.
    public var exceptions: Set<CivilDate> = []
    /// `once`: the slots.
    public var at: [LocalDateTime] = []

    /// Creates a schedule of a frequency; the decoder fills in the rest.
    public init(frequency: Frequency) {
        self.frequency = frequency
    }
}
