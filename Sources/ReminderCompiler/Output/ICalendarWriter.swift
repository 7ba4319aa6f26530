/// Writes RFC 5545 content lines: CRLF line ends, TEXT escaping, and folding at 75 octets
/// that never splits a UTF-8 character or an escape sequence.
///
/// Bytes are written straight into one buffer, runs of plain text in bulk: exporting a
/// year of notifications writes tens of megabytes.
struct ICalendarWriter {
    private(set) var bytes: [UInt8] = []
    /// Octets on the current physical line.
    private var lineLength = 0
    /// Reused for numbers and dates, so that formatting them allocates nothing.
    private var scratch: [UInt8] = []

    /// The longest physical line, in octets, without its CRLF (RFC 5545 §3.1).
    static let maximumLineOctets = 75

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
        scratch.reserveCapacity(32)
    }

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

    /// Writes whole lines known in advance, each shorter than 75 octets and ending in CRLF,
    /// in one copy.
    mutating func lines(_ content: StaticString) {
        content.withUTF8Buffer { bytes.append(contentsOf: $0) }
        lineLength = 0
    }

    /// Writes a line prepared once for many uses (CRLF included, at most 75 octets).
    mutating func prepared(_ line: [UInt8]) {
        bytes.append(contentsOf: line)
        lineLength = 0
    }

    /// Writes `name:` and a local date-time `YYYYMMDDTHHMMSS` (with `Z` for UTC).
    mutating func dateTime(_ name: String, localSeconds: Int64, utc: Bool) {
        append(name, escaping: false)
        append(":", escaping: false)
        let day = Int(localSeconds.floorDivided(by: 86_400))
        let second = Int(localSeconds - Int64(day) * 86_400)
        let (year, month, dayOfMonth) = CivilDate(dayNumber: day).components
        scratch.removeAll(keepingCapacity: true)
        scratch.appendDecimal(year, width: 4)
        scratch.appendDecimal(month, width: 2)
        scratch.appendDecimal(dayOfMonth, width: 2)
        scratch.append(UInt8(ascii: "T"))
        scratch.appendDecimal(second / 3600, width: 2)
        scratch.appendDecimal(second / 60 % 60, width: 2)
        scratch.appendDecimal(second % 60, width: 2)
        if utc { scratch.append(UInt8(ascii: "Z")) }
        let digits = scratch
        digits.withUnsafeBufferPointer { appendFolded($0, escaping: false) }
        endLine()
    }

    /// Hands the lines written so far to `sink` and starts an empty buffer, keeping its
    /// capacity; call between lines only.
    mutating func flush(to sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes(sink)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func endLine() {
        bytes.append(0x0D)
        bytes.append(0x0A)
        lineLength = 0
    }

    private mutating func fold() {
        bytes.append(0x0D)
        bytes.append(0x0A)
        bytes.append(0x20)
        lineLength = 1
    }

    private mutating func append(_ text: String, escaping: Bool) {
        var text = text
        text.withUTF8 { appendFolded($0, escaping: escaping) }
    }

    /// Whether a byte needs TEXT escaping or removal.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
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
                while end < limit, !Self.isSpecial(utf8[end]) { end += 1 }
            } else {
                end = limit
            }
            if end < count {
                while end > index, Self.isContinuation(utf8[end]) { end -= 1 }
            }
            if end > index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<end]))
                lineLength += end - index
                index = end
                continue
            }
            let byte = utf8[index]
            if escaping, Self.isSpecial(byte) {
                index += 1
                let escape: UInt8?
                switch byte {
                case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","): escape = byte
                case 0x0D:
                    // CRLF and a lone CR are one line break.
                    if index < count, utf8[index] == 0x0A { index += 1 }
                    escape = UInt8(ascii: "n")
                case 0x0A: escape = UInt8(ascii: "n")
                default: escape = nil  // other control characters are removed
                }
                if let escape {
                    if lineLength + 2 > Self.maximumLineOctets { fold() }
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(escape)
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
        var result = ""
        result.reserveCapacity(value.utf8.count)
        var previousWasCarriageReturn = false
        for scalar in value.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousWasCarriageReturn { result += "\\n" }
            case "\u{0}"..."\u{1F}", "\u{7F}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
