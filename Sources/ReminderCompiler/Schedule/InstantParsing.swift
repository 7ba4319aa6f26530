/// Parsing of instants written as RFC 3339 timestamps.
@_spi(Tooling) public enum InstantParsing {
    /// Seconds since 1970 UTC of an RFC 3339 timestamp such as `2026-11-22T08:00:00Z` or
    /// `2026-11-22T09:00:00+01:00` (fractional seconds are accepted and truncated);
    /// nil when `text` is not one.
    public static func rfc3339(_ text: String) -> Int64? {
        zonedRFC3339(text)?.seconds
    }

    /// The instant and the UTC offset written in an RFC 3339 timestamp (`Z` is +00:00).
    public static func zonedRFC3339(_ text: String) -> ZonedInstant? {
        zonedRFC3339(utf8: Array(text.utf8))
    }

    /// `zonedRFC3339(_:)` of a text's UTF-8 bytes: the plan reader parses in place.
    static func zonedRFC3339<Bytes: RandomAccessCollection<UInt8>>(utf8 bytes: Bytes) -> ZonedInstant? where Bytes.Index == Int {
        // Positions are offsets from the text's start, whatever its indices are. The length
        // is checked before any byte is read: the plan reader passes a file's bytes in
        // place, whose subscripts a release build does not check.
        let start = bytes.startIndex
        // Digit by digit in place: through a slice and `decimal`, a W2 diff's instants cost
        // 11 M instructions more.
        @inline(__always)
        func digits(_ offsets: Range<Int>) -> Int? {
            var value = 0
            for offset in offsets {
                let digit = bytes[start + offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard bytes.count >= 20, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
              bytes[start + 10] == UInt8(ascii: "T") || bytes[start + 10] == UInt8(ascii: "t") || bytes[start + 10] == UInt8(ascii: " "),
              bytes[start + 13] == UInt8(ascii: ":"), bytes[start + 16] == UInt8(ascii: ":"),
              let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
              let hour = digits(11..<13), let minute = digits(14..<16), let second = digits(17..<19),
              let date = CivilDate(year: year, month: month, day: day)
                // West of Greenwich, the first instants of 1970 fall on 1969-12-31 locally,
                // and plans compiled then say so: that one day more is read.
                ?? (year == 1969 && month == 12 && day == 31 ? CivilDate(dayNumber: -1) : nil),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = start + 19
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digitsStart = index
            while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { return nil }
        }
        let zone = bytes[index...]
        let offset: Int
        // Compared as one byte: `elementsEqual` with a string's bytes cost a diff 14 M.
        if zone.count == 1, zone.first == UInt8(ascii: "Z") || zone.first == UInt8(ascii: "z") {
            offset = 0
        } else {
            guard zone.count == 6, let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                  zone[zone.startIndex + 3] == UInt8(ascii: ":"),
                  let offsetHours = PlistScalarParser.decimal(zone[(zone.startIndex + 1)..<(zone.startIndex + 3)]),
                  let offsetMinutes = PlistScalarParser.decimal(zone[(zone.startIndex + 4)..<(zone.startIndex + 6)]),
                  offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = (sign == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        }
        return ZonedInstant(
            seconds: Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset),
            offsetSeconds: offset
        )
    }

    /// A local date and time `YYYY-MM-DDTHH:MM`, or nil.
    public static func localDateTime(_ text: String) -> LocalDateTime? {
        ConfigValueParsing.dateTime(text)
    }
}
