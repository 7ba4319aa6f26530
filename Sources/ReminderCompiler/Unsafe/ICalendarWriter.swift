/// Writes RFC 5545 content lines: CRLF line ends, TEXT escaping, and folding at 75 octets
/// that never splits a UTF-8 character or an escape sequence.
///
/// Bytes are written straight into one buffer, runs of plain text in bulk: exporting a
/// year of notifications writes tens of megabytes.
struct ICalendarWriter {
    private let buffer: ByteBuffer
    /// Octets on the current physical line.
    private var lineLength = 0
    /// The date-time value written last, with its bytes: events in a row mostly share it.
    private var lastDateTime = RepeatedText()
    /// The start of the event of prepared content written last, kept for the next one.
    var lastEventStart = EventStartText()

    /// The local date-times of the years 1–9999, in seconds: the first second of 0001-01-01
    /// to the last of 9999-12-31 (a day is 86 400 local seconds).
    private static let fourDigitYearSeconds =
        Int64(CivilDate.dayNumber(year: 1, month: 1, day: 1)) * 86_400...Int64(CivilDate.dayNumber(year: 9999, month: 12, day: 31) + 1) * 86_400 - 1

    /// The longest physical line, in octets, without its CRLF (RFC 5545 §3.1).
    static let maximumLineOctets = 75

    init(reservingCapacity capacity: Int = 0) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// The bytes written since the last flush.
    var bytes: [UInt8] { buffer.bytes }

    /// How many bytes were written since the last flush.
    var byteCount: Int { buffer.count }

    /// Writes `name:value` (the value already in its final, escaped form), folded.
    mutating func line(_ name: String, _ value: String) {
        append(name, escaping: false)
        append(":", escaping: false)
        append(value, escaping: false)
        endLine()
    }

    /// Writes a property whose value is TEXT, escaped.
    mutating func text(_ name: String, _ value: String) {
        append(name, escaping: false)
        append(":", escaping: false)
        append(value, escaping: true)
        endLine()
    }

    /// Writes a line such as `BEGIN:VEVENT`.
    mutating func raw(_ content: String) {
        append(content, escaping: false)
        endLine()
    }

    /// Writes a property whose value is TEXT, escaped, after its name and colon
    /// (`SUMMARY:`).
    mutating func textLine(_ nameAndColon: StaticString, _ value: String) {
        begin(nameAndColon)
        append(value, escaping: true)
        endLine()
    }

    /// Writes `nameAndColon`, `value` and `suffix` as one line (the value unescaped), copied
    /// whole when it fits on one line, as almost every UID does, else folded.
    mutating func line(_ nameAndColon: StaticString, _ value: UnsafeBufferPointer<UInt8>, _ suffix: UnsafeBufferPointer<UInt8>) {
        if nameAndColon.utf8CodeUnitCount + value.count + suffix.count <= Self.maximumLineOctets {
            buffer.append(nameAndColon)
            unsafe buffer.append(value)
            unsafe buffer.append(suffix)
        } else {
            begin(nameAndColon)
            unsafe appendFolded(value, escaping: false)
            unsafe appendFolded(suffix, escaping: false)
        }
        endLine()
    }

    /// Writes `nameAndColon` and a number as one line; a number is never long enough to fold.
    mutating func line(_ nameAndColon: StaticString, number: Int) {
        buffer.append(nameAndColon)
        buffer.appendDecimal(number, width: 1)
        endLine()
    }

    /// Starts a property line with its name and colon (`UID:`); the value follows in
    /// `value` calls, then `endLine`.
    @inline(__always)
    mutating func begin(_ nameAndColon: StaticString) {
        // A name starts its line, so it fits whole: copied without the folding loop, which
        // an `ics` of a W2 plan otherwise entered four times an event.
        let length = nameAndColon.utf8CodeUnitCount
        guard lineLength + length <= Self.maximumLineOctets else {
            nameAndColon.withUTF8Buffer { unsafe appendFolded($0, escaping: false) }
            return
        }
        buffer.append(nameAndColon)
        lineLength += length
    }

    /// Continues a property value begun with `begin`, unescaped.
    mutating func value(_ text: String) {
        append(text, escaping: false)
    }

    /// Continues a property value with a number.
    mutating func value(_ number: Int) {
        unsafe withDecimalDigits(of: Int64(number)) { unsafe appendFolded($0, escaping: false) }
    }

    /// Writes whole lines known in advance, each shorter than 75 octets and ending in CRLF,
    /// in one copy.
    mutating func lines(_ content: StaticString) {
        buffer.append(content)
        lineLength = 0
    }

    /// Writes a line prepared once for many uses (CRLF included, at most 75 octets).
    mutating func prepared(_ line: [UInt8]) {
        unsafe line.withUnsafeBufferPointer { unsafe prepared($0) }
    }

    /// Writes whole lines written before by another writer, each ending in CRLF.
    mutating func prepared(_ lines: UnsafeBufferPointer<UInt8>) {
        unsafe buffer.append(lines)
        lineLength = 0
    }

    /// Writes `name:` and a local date-time `YYYYMMDDTHHMMSS` (with `Z` for UTC).
    mutating func dateTime(_ name: String, localSeconds: Int64, utc: Bool) {
        var name = name
        name.withUTF8 { unsafe dateTime($0, localSeconds: localSeconds, utc: utc) }
    }

    /// `dateTime` with the name's UTF-8 bytes.
    mutating func dateTime(_ name: UnsafeBufferPointer<UInt8>, localSeconds: Int64, utc: Bool) {
        let length = utc ? 16 : 15
        // The window ends before the year 10000: four digits, and the date-time mostly
        // repeats from one event to the next. The whole line then fits unfolded.
        if name.count + 1 + length <= Self.maximumLineOctets, Self.dateTimeFitsFourDigitYears(localSeconds: localSeconds) {
            unsafe buffer.append(name)
            buffer.append(UInt8(ascii: ":"))
            lastDateTime.append((localSeconds, utc ? 1 : 0), to: buffer) { bytes in
                let digits = Self.dateTimeDigits(localSeconds: localSeconds)
                unsafe bytes.append(atMost: 16) { destination in
                    unsafe UnsafeMutableRawPointer(destination).storeBytes(of: digits.0, as: UInt64.self)
                    unsafe UnsafeMutableRawPointer(destination).storeBytes(of: digits.1, toByteOffset: 8, as: UInt64.self)
                    return length
                }
            }
            endLine()
            return
        }
        unsafe appendFolded(name, escaping: false)
        append(":", escaping: false)
        let (date, second) = CivilDate.split(localSeconds: localSeconds)
        let (year, month, dayOfMonth) = date.components
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            let base = digits.baseAddress!
            unsafe putDigits(year, width: 4, at: base)
            unsafe putDigits(month, width: 2, at: base + 4)
            unsafe putDigits(dayOfMonth, width: 2, at: base + 6)
            unsafe base[8] = UInt8(ascii: "T")
            unsafe putDigits(second / 3600, width: 2, at: base + 9)
            unsafe putDigits(second / 60 % 60, width: 2, at: base + 11)
            unsafe putDigits(second % 60, width: 2, at: base + 13)
            unsafe base[15] = UInt8(ascii: "Z")
            unsafe appendFolded(UnsafeBufferPointer(rebasing: digits[..<length]), escaping: false)
        }
        endLine()
    }

    /// Whether a local date-time falls in the years 1–9999, whose date-times `dateTimeDigits`
    /// writes in full.
    static func dateTimeFitsFourDigitYears(localSeconds: Int64) -> Bool {
        // Compared as seconds, without splitting them into a date: this is asked for every
        // date-time written, before its digits are looked up in the cache.
        fourDigitYearSeconds.contains(localSeconds)
    }

    /// `YYYYMMDDTHHMMSSZ` of a local date-time in the years 1–9999, as two words in memory
    /// order: the first fifteen bytes are the local date-time, the `Z` is for UTC's.
    static func dateTimeDigits(localSeconds: Int64) -> (UInt64, UInt64) {
        let (date, second) = CivilDate.split(localSeconds: localSeconds)
        let (year, month, dayOfMonth) = date.components
        var words: (UInt64, UInt64) = (0, 0)
        unsafe withUnsafeMutableBytes(of: &words) { raw in
            let destination = unsafe raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            unsafe putDigitPair(year / 100, at: destination)
            unsafe putDigitPair(year % 100, at: destination + 2)
            unsafe putDigitPair(month, at: destination + 4)
            unsafe putDigitPair(dayOfMonth, at: destination + 6)
            unsafe destination[8] = UInt8(ascii: "T")
            unsafe putDigitPair(second / 3600, at: destination + 9)
            unsafe putDigitPair(second / 60 % 60, at: destination + 11)
            unsafe putDigitPair(second % 60, at: destination + 13)
            unsafe destination[15] = UInt8(ascii: "Z")
        }
        return words
    }

    /// Lets `write` append whole lines, each ending in CRLF and at most 75 octets without
    /// it, straight to the buffer: an event of prepared content, written in one go.
    @inline(__always)
    mutating func wholeLines(_ write: (ByteBuffer) -> Void) {
        write(buffer)
        lineLength = 0
    }

    /// Hands the lines written so far to `sink` and starts an empty buffer, keeping its
    /// capacity; call between lines only.
    mutating func flush(to sink: (Span<UInt8>) throws -> Void) rethrows {
        try buffer.withSpan(sink)
        buffer.removeAll()
    }

    /// Ends the current line.
    mutating func endLine() {
        buffer.append(0x0D, 0x0A)
        lineLength = 0
    }

    private mutating func fold() {
        buffer.append(0x0D, 0x0A)
        buffer.append(0x20)
        lineLength = 1
    }

    private mutating func append(_ text: String, escaping: Bool) {
        let appended: Void? = unsafe text.utf8.withContiguousStorageIfAvailable { unsafe appendFolded($0, escaping: escaping) }
        if appended == nil {
            var text = text
            text.withUTF8 { unsafe appendFolded($0, escaping: escaping) }
        }
    }

    /// Whether a byte needs TEXT escaping or removal.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
    }

    /// What follows the backslash that escapes a byte `isSpecial` names, or nil for a
    /// control character that is removed. A CR and the LF after it are one line break:
    /// callers pass over that LF.
    private static func escape(ofSpecial byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","): byte
        case 0x0D, 0x0A: UInt8(ascii: "n")
        default: nil
        }
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// Appends content to the current line, folding before 75 octets at a character
    /// boundary, and with `escaping`, applying TEXT escapes that are never split.
    private mutating func appendFolded(_ utf8: UnsafeBufferPointer<UInt8>, escaping: Bool) {
        var index = 0
        let count = utf8.count
        while index < count {
            let room = Self.maximumLineOctets - lineLength
            // A run of bytes that need no escape and fit on this line, ending on a
            // character boundary.
            var end = index
            let limit = min(count, index + room)
            if escaping {
                end = unsafe PlainRun.end(of: utf8, from: index, limit: limit, wordHasSpecial: { word in
                    PlainRun.hasByte(in: word, below: 0x20) || PlainRun.hasByte(in: word, equalTo: 0x7F)
                        || PlainRun.hasByte(in: word, equalTo: UInt8(ascii: "\\"))
                        || PlainRun.hasByte(in: word, equalTo: UInt8(ascii: ";"))
                        || PlainRun.hasByte(in: word, equalTo: UInt8(ascii: ","))
                }, isSpecial: Self.isSpecial)
            } else {
                end = limit
            }
            if end < count {
                while end > index, unsafe Self.isContinuation(utf8[end]) { end -= 1 }
            }
            if end > index {
                unsafe buffer.append(UnsafeBufferPointer(rebasing: utf8[index..<end]))
                lineLength += end - index
                index = end
                continue
            }
            let byte = unsafe utf8[index]
            if escaping, Self.isSpecial(byte) {
                index += 1
                // CRLF and a lone CR are one line break.
                if byte == 0x0D, index < count, unsafe utf8[index] == 0x0A { index += 1 }
                if let escape = Self.escape(ofSpecial: byte) {
                    if lineLength + 2 > Self.maximumLineOctets { fold() }
                    buffer.append(UInt8(ascii: "\\"), escape)
                    lineLength += 2
                }
                continue
            }
            // The next character does not fit: continue on a new line.
            fold()
        }
    }

    /// TEXT escaping (RFC 5545 §3.3.11) as a string, for values assembled before writing:
    /// `\` `;` `,` escaped, line breaks as `\n`, other control characters removed.
    static func escapeText(_ value: String) -> String {
        // Byte by byte, by the rule the writer applies as it writes (`isSpecial`,
        // `escape(ofSpecial:)`): every byte it touches is ASCII, which UTF-8 never uses
        // inside a longer sequence. Appending scalar by scalar to a string cost 12 000
        // instructions for a title of W2.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(value.utf8.count + 8)
        var previousWasCarriageReturn = false
        for byte in value.utf8 {
            defer { previousWasCarriageReturn = byte == 0x0D }
            guard isSpecial(byte) else {
                escaped.append(byte)
                continue
            }
            if byte == 0x0A, previousWasCarriageReturn { continue }
            if let escape = escape(ofSpecial: byte) {
                escaped.append(UInt8(ascii: "\\"))
                escaped.append(escape)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
