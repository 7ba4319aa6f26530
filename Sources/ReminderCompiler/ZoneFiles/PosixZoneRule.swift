/// The rule a compiled zone file states in its footer for every instant after its last
/// transition: a POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3`, with RFC 8536
/// §3.3.1's extensions (rule times from −167 to 167 hours).
///
/// zic writes such a rule for every zone whose offsets follow one, so that a file need
/// not list transitions up to the year 9999; with slim files (the default since 2020)
/// the rule decides even today's offsets.
struct PosixZoneRule: Sendable, Equatable {
    /// Standard time's offset, in seconds east of UTC (POSIX counts west).
    let standardOffset: Int
    /// Daylight-saving time, when the zone has it.
    let daylightSaving: DaylightSaving?

    struct DaylightSaving: Sendable, Equatable {
        /// Offset in seconds east of UTC while it is in force.
        let offset: Int
        /// When it begins, in standard local time.
        let start: Change
        /// When it ends, in daylight-saving local time.
        let end: Change
    }

    /// A yearly change: a day of the year and a local time of that day (which may lie
    /// before or after it: `J365/25` is 01:00 on the next day).
    struct Change: Sendable, Equatable {
        let day: YearDay
        let seconds: Int

        /// The change's instant in `year`, for local time `offset` seconds east of UTC.
        func instant(in year: Int, offset: Int) -> Int64 {
            Int64(day.dayNumber(in: year)) &* 86_400 &+ Int64(seconds &- offset)
        }
    }

    /// How a rule names a day of the year.
    enum YearDay: Sendable, Equatable {
        /// `Jn`: day 1–365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0–365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (1–5, 5 the last) of month `m`.
        case monthWeekday(month: Int, week: Int, weekday: Int)

        /// Days since 1970-01-01 of this day in `year`.
        func dayNumber(in year: Int) -> Int {
            let newYear = CivilDate.dayNumber(year: year, month: 1, day: 1)
            switch self {
            case .julian(let day):
                return newYear + day - 1 + (day >= 60 && CivilDate.isLeapYear(year) ? 1 : 0)
            case .zeroBased(let day):
                return newYear + day
            case let .monthWeekday(month, week, weekday):
                let first = CivilDate.dayNumber(year: year, month: month, day: 1)
                // Week 5 is the last, which every month has; weekday 0 is Sunday.
                let day = (Weekday(rawValue: weekday == 0 ? 7 : weekday) ?? .sunday).dayOfMonth(
                    ordinal: week == 5 ? -1 : week, length: CivilDate.daysInMonth(year: year, month: month),
                    firstWeekday: CivilDate(dayNumber: first).weekday
                )
                return first + day - 1
            }
        }
    }

    /// The offset and daylight-saving flag at an instant (seconds since 1970 UTC).
    func localTime(at instant: Int64) -> (offset: Int, isDaylightSaving: Bool) {
        guard let daylightSaving else { return (standardOffset, false) }
        // Instants further out than any calendar needs are read as at the bound, so that
        // the year arithmetic stays small.
        let bound: Int64 = 400_000_000_000
        let clamped = max(-bound, min(bound, instant))
        let localDay = (clamped + Int64(standardOffset)) >= 0
            ? (clamped + Int64(standardOffset)) / 86_400
            : (clamped + Int64(standardOffset) - 86_399) / 86_400
        let year = CivilDate(dayNumber: Int(localDay)).components.year
        // The latest change at or before the instant decides. The years either side are
        // asked too, since a change may fall in the next year's first day or the last
        // one's; on a tie (one period of daylight saving ending where the next begins,
        // as in `J1/0,J365/25`) the start wins.
        var latestInstant = Int64.min
        var latestIsStart = false
        func consider(_ change: Int64, isStart: Bool) {
            guard change <= clamped else { return }
            if change > latestInstant || (change == latestInstant && isStart) {
                latestInstant = change
                latestIsStart = isStart
            }
        }
        for candidateYear in (year - 1)...(year + 1) {
            consider(daylightSaving.end.instant(in: candidateYear, offset: daylightSaving.offset), isStart: false)
            consider(daylightSaving.start.instant(in: candidateYear, offset: standardOffset), isStart: true)
        }
        return latestIsStart ? (daylightSaving.offset, true) : (standardOffset, false)
    }
}

extension PosixZoneRule {
    /// Reads a TZ string; nil when it is not one, or names daylight-saving time without
    /// saying when it begins and ends (zic always says).
    init?(_ text: [UInt8]) {
        var reader = TZStringReader(bytes: text)
        guard reader.skipName(), let standard = reader.duration(maximumHours: 24) else { return nil }
        self.standardOffset = -standard
        if reader.atEnd {
            self.daylightSaving = nil
            return
        }
        guard reader.skipName() else { return nil }
        var daylightOffset = -standard + 3600
        if !reader.atEnd, reader.peek != UInt8(ascii: ",") {
            guard let offset = reader.duration(maximumHours: 24) else { return nil }
            daylightOffset = -offset
        }
        guard reader.take(","), let start = reader.change(), reader.take(","), let end = reader.change(), reader.atEnd
        else { return nil }
        self.daylightSaving = DaylightSaving(offset: daylightOffset, start: start, end: end)
    }
}

/// A cursor over a TZ string's bytes.
private struct TZStringReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[position] }

    mutating func take(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, peek == ascii else { return false }
        position += 1
        return true
    }

    /// A zone abbreviation: three or more letters, or `<…>` around letters, digits and signs.
    mutating func skipName() -> Bool {
        if take("<") {
            let start = position
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                else { return false }
                position += 1
            }
            return position - start >= 3 && take(">")
        }
        let start = position
        while let byte = peek, Self.isLetter(byte) { position += 1 }
        return position - start >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, hours at most `maximumHours`.
    mutating func duration(maximumHours: Int) -> Int? {
        var sign = 1
        if take("-") { sign = -1 } else { _ = take("+") }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let secondsPart = number(maximumDigits: 2), secondsPart < 60 else { return nil }
                seconds += secondsPart
            }
        }
        return sign * seconds
    }

    /// `date[/time]`, the time 02:00 when left out.
    mutating func change() -> PosixZoneRule.Change? {
        let day: PosixZoneRule.YearDay
        if take("J") {
            guard let number = number(maximumDigits: 3), (1...365).contains(number) else { return nil }
            day = .julian(number)
        } else if take("M") {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), take("."),
                  let week = number(maximumDigits: 1), (1...5).contains(week), take("."),
                  let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekday(month: month, week: week, weekday: weekday)
        } else {
            guard let number = number(maximumDigits: 3), (0...365).contains(number) else { return nil }
            day = .zeroBased(number)
        }
        var seconds = 7200
        if take("/") {
            guard let time = duration(maximumHours: 167) else { return nil }
            seconds = time
        }
        return PosixZoneRule.Change(day: day, seconds: seconds)
    }

    mutating func number(maximumDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while let byte = peek, Self.isDigit(byte), digits < maximumDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        return digits == 0 ? nil : value
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
