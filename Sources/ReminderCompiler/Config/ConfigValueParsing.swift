extension String {
    /// Whether the text starts or ends with white space or a line break.
    var hasSurroundingWhiteSpace: Bool {
        (first?.isWhitespace ?? false) || (last?.isWhitespace ?? false)
    }
}

/// Parsers for the string forms a config uses for times, dates and identifiers.
enum ConfigValueParsing {
    /// `HH:MM`, 00:00–23:59, exactly two digits each.
    static func time(_ text: String) -> LocalTime? {
        time(utf8: Array(text.utf8))
    }

    /// `time(_:)` of a text's UTF-8 bytes: the plan reader parses in place. Like the other
    /// byte parsers here, it checks the length before it reads a byte, since a file's
    /// bytes read in place have subscripts a release build does not check.
    static func time<Bytes: RandomAccessCollection<UInt8>>(utf8 bytes: Bytes) -> LocalTime? where Bytes.Index == Int {
        let start = bytes.startIndex
        guard bytes.count == 5, bytes[start + 2] == UInt8(ascii: ":"),
              let hour = PlistScalarParser.decimal(bytes[start..<start + 2]),
              let minute = PlistScalarParser.decimal(bytes[start + 3..<start + 5]),
              hour < 24, minute < 60
        else { return nil }
        return LocalTime(minuteOfDay: hour * 60 + minute)
    }

    /// `YYYY-MM-DD`, a real calendar date.
    static func date(_ text: String) -> CivilDate? {
        date(utf8: Array(text.utf8))
    }

    /// `date(_:)` of a text's UTF-8 bytes.
    static func date<Bytes: RandomAccessCollection<UInt8>>(utf8 bytes: Bytes) -> CivilDate? where Bytes.Index == Int {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
              let year = PlistScalarParser.decimal(bytes[start..<start + 4]),
              let month = PlistScalarParser.decimal(bytes[start + 5..<start + 7]),
              let day = PlistScalarParser.decimal(bytes[start + 8..<start + 10])
        else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DDTHH:MM`.
    static func dateTime(_ text: String) -> LocalDateTime? {
        dateTime(utf8: Array(text.utf8))
    }

    /// `dateTime(_:)` of a text's UTF-8 bytes.
    static func dateTime<Bytes: RandomAccessCollection<UInt8>>(utf8 bytes: Bytes) -> LocalDateTime? where Bytes.Index == Int {
        let start = bytes.startIndex
        guard bytes.count == 16, bytes[start + 10] == UInt8(ascii: "T"),
              let date = date(utf8: bytes[start..<start + 10]),
              let time = time(utf8: bytes[start + 11..<start + 16])
        else { return nil }
        return LocalDateTime(date: date, time: time)
    }

    /// A plan's `slot`: a local date and time as `dateTime` reads it, or on 1969-12-31,
    /// the local date of the first instants of 1970 west of Greenwich, which a plan
    /// compiled then holds.
    static func planSlot(_ text: String) -> LocalDateTime? {
        planSlot(utf8: Array(text.utf8))
    }

    /// `planSlot(_:)` of a text's UTF-8 bytes.
    static func planSlot<Bytes: RandomAccessCollection<UInt8>>(utf8 bytes: Bytes) -> LocalDateTime? where Bytes.Index == Int {
        if let local = dateTime(utf8: bytes) { return local }
        let start = bytes.startIndex
        guard bytes.count == 16, bytes[start..<start + 11].elementsEqual("1969-12-31T".utf8),
              let time = time(utf8: bytes[start + 11..<start + 16])
        else { return nil }
        return LocalDateTime(date: CivilDate(dayNumber: -1), time: time)
    }

    /// `[A-Za-z0-9][A-Za-z0-9._-]{0,63}`: safe inside notification IDs, file names and
    /// iCalendar UIDs.
    static func isValidIdentifier(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= 64, isAlphanumeric(first) else { return false }
        return bytes.dropFirst().allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// An ID a plan may hold — of a notification, a member reminder, a group or a
    /// category: what remindc makes from identifiers (a reminder's or group's id, then a
    /// date and time and the follow-up and snooze suffixes), so letters, digits, `.`, `_`
    /// and `-`, starting with a letter or digit, 1–160 bytes. A plan file is untrusted:
    /// whatever a writer (a calendar, a Markdown table, an HTML page) puts in a place that
    /// only ever holds such IDs, the reader has checked against this.
    static func isValidPlanID(_ text: String) -> Bool {
        isValidPlanID(bytes: text.utf8)
    }

    /// `isValidPlanID` of an ID's UTF-8 bytes, for readers that check a plan in place.
    static func isValidPlanID(bytes: some Sequence<UInt8>) -> Bool {
        // One look-up a byte: a diff checks every ID of a plan, and testing the ranges in
        // turn cost 300 instructions an ID.
        let kinds = planIDByteKinds
        var count = 0
        for byte in bytes {
            let kind = kinds[Int(byte)]
            guard kind == 2 || (kind == 1 && count > 0) else { return false }
            count += 1
        }
        return count > 0 && count <= 160
    }

    /// For each byte: 2 for a letter or digit, 1 for `.`, `_` and `-` (not first in an ID),
    /// 0 for any other.
    private static let planIDByteKinds: [UInt8] = (0...255).map { byte in
        isAlphanumeric(UInt8(byte)) ? 2 : [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains(UInt8(byte)) ? 1 : 0
    }

    /// A DNS-like name for iCalendar UIDs: letters, digits, `.` and `-`, 1–253 bytes.
    static func isValidDomain(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `2TU`, `-1FR`, `+3WE`: an ordinal 1–5 or -1…-5 and a two-letter weekday code.
    static func weekdayOrdinal(_ text: String) -> Schedule.WeekdayOrdinal? {
        guard text.count >= 3 else { return nil }
        let code = String(text.suffix(2)).uppercased()
        let number = text.dropLast(2)
        guard let weekday = Weekday.allCases.first(where: { $0.code == code }),
              number.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "+" }),
              let ordinal = Int(number), ordinal != 0, (-5...5).contains(ordinal)
        else { return nil }
        return Schedule.WeekdayOrdinal(ordinal: ordinal, weekday: weekday)
    }

    /// The ordinal someone most likely meant by `text`: `2tu`, `2TUE`, `2 tuesday`, `+2Tu`
    /// or `TU2` give `2TU`; a misspelt weekday (`2TX`) the closest code. Nil when no
    /// ordinal from -5 to 5 (not 0) can be read from it.
    static func weekdayOrdinalSuggestion(for text: String) -> String? {
        let letters = String(text.filter(\.isLetter)).lowercased()
        let number = text.filter { $0.isNumber || $0 == "-" }
        guard !letters.isEmpty, let ordinal = Int(number), ordinal != 0, (-5...5).contains(ordinal) else { return nil }
        let weekday = Weekday.allCases.first { $0.name == letters || $0.name.hasPrefix(letters) && letters.count >= 2 }
            ?? closestMatch(to: letters.uppercased(), in: Weekday.allCases.map(\.code)).flatMap { code in
                Weekday.allCases.first { $0.code == code }
            }
        guard let weekday else { return nil }
        let suggestion = "\(ordinal)\(weekday.code)"
        return suggestion == text ? nil : suggestion
    }

    /// `monday`…`sunday` or `mon`…`sun`.
    static func weekday(_ text: String) -> Weekday? {
        Weekday.allCases.first { $0.name == text || String($0.name.prefix(3)) == text }
    }

    /// The number of a month named in English, in full or by its first three letters, in
    /// any case (`March`, `mar` → 3): a suggestion where a number is expected.
    static func monthNumber(named text: String) -> Int? {
        let names = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        ]
        let lowered = text.lowercased()
        return names.firstIndex { $0 == lowered || (lowered.count == 3 && $0.hasPrefix(lowered)) }.map { $0 + 1 }
    }

    /// All spellings `weekday` accepts, for suggestions.
    static let weekdaySpellings = Weekday.allCases.map(\.name) + Weekday.allCases.map { String($0.name.prefix(3)) }
}
