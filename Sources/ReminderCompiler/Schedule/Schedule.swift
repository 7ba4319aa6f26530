/// When a reminder fires (Config reference, `schedule`), validated.
public struct Schedule: Sendable, Hashable {
    /// How often the schedule repeats.
    public enum Frequency: String, Sendable, Hashable, CaseIterable {
        /// The config's `frequency` values: `daily`, `weekly` (on `weekdays`), `monthly` (on
        /// `days` or `weekdayOrdinals`) and `yearly` (in `months`), each every `interval`
        /// periods; `once` fires only at its `at` date-times.
        case daily, weekly, monthly, yearly, once
    }

    /// What a monthly or yearly `days` entry beyond the month's length does.
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

        /// The distinct times of day, ascending. Planning asks for them once per date it
        /// looks at (each event names one), so they are made without hashing: `every`
        /// gives ascending minutes already, and the others are sorted (a spread over a
        /// window in order is sorted already, which the sort finds in one pass).
        public var resolved: [LocalTime] {
            var times: [LocalTime] = []
            func append(minute: Int) {
                // Ascending input: a repeat can only follow its twin.
                guard let time = LocalTime(minuteOfDay: minute), times.last != time else { return }
                times.append(time)
            }
            switch self {
            case .list(let list):
                times.reserveCapacity(list.count)
                for minute in list.map(\.minuteOfDay).sorted() { append(minute: minute) }
            // Counts and steps outside what validation accepts give no times, never a trap
            // (a zero step) or a hang (a count of Int.max).
            case .spread(let count, let window):
                guard (1...1440).contains(count) else { return [] }
                let from = window.lowerBound.minuteOfDay
                let span = window.upperBound.minuteOfDay - from
                let minutes = count == 1 ? [from] : (0..<count).map { from + $0 * span / (count - 1) }
                times.reserveCapacity(count)
                for minute in minutes.sorted() { append(minute: minute) }
            case .every(let step, let window):
                guard (1...1440).contains(step) else { return [] }
                var minute = window.lowerBound.minuteOfDay
                let last = window.upperBound.minuteOfDay
                times.reserveCapacity(max(0, (last - minute) / step + 1))
                while minute <= last {
                    append(minute: minute)
                    minute += step
                }
            }
            return times
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
    /// Monthly and yearly: days of the month, 1…31 or -31…-1.
    public var monthDays: [Int] = []
    /// Monthly and yearly: n-th weekdays of the month.
    public var weekdayOrdinals: [WeekdayOrdinal] = []
    /// Monthly and yearly `days` beyond a month's length (29 February in other years).
    public var missingDays: MissingDays = .skip
    /// Yearly: the months (1–12), ascending.
    public var months: [Int] = []
    /// Every N days, weeks, months or years, counted from `start`.
    public var interval: Int = 1
    /// Repeating schedules: only the first `count` slots from `start` (dates in `except`
    /// use up their slots, as EXDATEs use up an RFC 5545 COUNT).
    public var count: Int?
    /// First date, included.
    public var start: CivilDate?
    /// Last date, included.
    public var end: CivilDate?
    /// Dates on which nothing fires.
    public var exceptions: Set<CivilDate> = []
    /// `once`: the slots.
    public var at: [LocalDateTime] = []

    /// The `count` values a config may give.
    static let countRange: ClosedRange<Int64> = 1...100_000
    static let countRangeText = "1–100000"

    /// Creates a schedule of a frequency; the decoder fills in the rest.
    public init(frequency: Frequency) {
        self.frequency = frequency
    }
}
