/// A date of the proleptic Gregorian calendar, without a time or a zone.
///
/// Stored as a day number (days since 1970-01-01) so that comparisons and differences are
/// integer arithmetic; the conversions are Howard Hinnant's `days_from_civil` algorithms.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let dayNumber: Int

    /// The earliest and latest years a config may name.
    public static let supportedYears = 1970...9999

    /// Creates a date from a day number.
    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// The date and the second of the day of a local time given as seconds since
    /// 1970-01-01T00:00 on the local clock (an instant plus its zone's offset). Every
    /// reader of local times splits them here, before as after 1970.
    static func split(localSeconds: Int64) -> (date: CivilDate, secondOfDay: Int) {
        let day = localSeconds.floorDivided(by: 86_400)
        return (CivilDate(dayNumber: Int(day)), Int(localSeconds - day * 86_400))
    }

    /// Creates a date when year, month and day name a real calendar date in
    /// `supportedYears`; nil otherwise (for example 2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard Self.supportedYears.contains(year), (1...12).contains(month),
              (1...Self.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.dayNumber = Self.dayNumber(year: year, month: month, day: day)
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month (1–12) of a year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The day number of a year, month and day, which must be valid.
    /// Wrapping arithmetic: absurd values give absurd dates, never a trap.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year &- 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear &- 399) / 400
        let yearOfEra = shiftedYear &- era &* 400
        let dayOfYear = (153 &* (month &+ (month > 2 ? -3 : 9)) &+ 2) / 5 &+ day &- 1
        let dayOfEra = yearOfEra &* 365 &+ yearOfEra / 4 &- yearOfEra / 100 &+ dayOfYear
        return era &* 146_097 &+ dayOfEra &- 719_468
    }

    /// The year, month and day.
    /// Wrapping arithmetic: a day number no date of a config reaches (`Int.max`) gives an
    /// absurd date, never a trap.
    public var components: (year: Int, month: Int, day: Int) {
        let shifted = dayNumber &+ 719_468
        let era = (shifted >= 0 ? shifted : shifted &- 146_096) / 146_097
        let dayOfEra = shifted &- era &* 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra &+ era &* 400 &+ (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The ISO weekday: Monday is 1, Sunday is 7.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (4).
        let index = ((dayNumber % 7) + 7 + 3) % 7
        // From the raw value rather than `allCases`, which would build an array each time.
        return Weekday(rawValue: index + 1) ?? .monday
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(dayNumber: dayNumber &+ days)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        return "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))"
    }

    /// Orders by day number.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }
}

/// A time of day, `HH:MM` on a 24-hour clock.
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Minutes since midnight, 0–1439.
    public let minuteOfDay: Int

    /// Creates a time from minutes since midnight (0–1439).
    public init?(minuteOfDay: Int) {
        guard (0..<1440).contains(minuteOfDay) else { return nil }
        self.minuteOfDay = minuteOfDay
    }

    /// The hour, 0–23.
    public var hour: Int { minuteOfDay / 60 }
    /// The minute, 0–59.
    public var minute: Int { minuteOfDay % 60 }

    /// `HH:MM`.
    public var description: String { "\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2))" }

    /// Orders by minute of day.
    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }
}

/// A nominal local date and time, without a zone: a schedule's slot.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The date.
    public var date: CivilDate
    /// The time of day.
    public var time: LocalTime

    /// Creates a local date and time.
    public init(date: CivilDate, time: LocalTime) {
        self.date = date
        self.time = time
    }

    /// `YYYY-MM-DDTHH:MM`.
    public var description: String { "\(date)T\(time)" }

    /// Orders by date, then time.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date.dayNumber, lhs.time.minuteOfDay) < (rhs.date.dayNumber, rhs.time.minuteOfDay)
    }
}

/// A day of the week, Monday first as ISO 8601 and the config's week counting have it.
public enum Weekday: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// Monday to Sunday; the raw value is the ISO 8601 day number, 1 (Monday) to 7 (Sunday).
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The config's full name (`monday`).
    public var name: String {
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][rawValue - 1]
    }

    /// The RFC 5545 two-letter code (`MO`).
    public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue - 1] }

    /// Orders Monday first.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The day of the month of the `ordinal`-th such weekday (−1 the last, −2 the one
    /// before) in a month of `length` days whose 1st is a `firstWeekday`; outside
    /// 1...`length` when the month has no such day.
    func dayOfMonth(ordinal: Int, length: Int, firstWeekday: Weekday) -> Int {
        let first = 1 + (rawValue - firstWeekday.rawValue + 7) % 7
        let count = (length - first) / 7 + 1
        return first + 7 * (ordinal > 0 ? ordinal - 1 : count + ordinal)
    }
}

/// `value` in decimal, left-padded with zeros to `width` digits.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
