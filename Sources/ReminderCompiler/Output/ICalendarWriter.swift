/// Writes RFC 5545 content lines: CRLF line ends, TEXT escaping, and folding at 75 octets
/// that never splits a UTF-8 character or an escape sequence.
struct ICalendarWriter {
    private(set) var bytes: [UInt8] = []

    /// The longest physical line, in octets, without its CRLF (RFC 5545 §3.1).
    static let maximumLineOctets = 75

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes `name:value` (the value already in its final, escaped form), folded.
    mutating func line(_ name: String, _ value: String) {
        fold(Array(name.utf8) + [UInt8(ascii: ":")] + Array(value.utf8))
    }

    /// Writes a property whose value is TEXT, escaped.
    mutating func text(_ name: String, _ value: String) {
        line(name, Self.escapeText(value))
    }

    /// Writes a line such as `BEGIN:VEVENT`.
    mutating func raw(_ content: String) {
        fold(Array(content.utf8))
    }

    /// Folds a logical line: breaks before 75 octets, never inside a UTF-8 sequence or
    /// between a backslash and the character it escapes; continuation lines start with a
    /// space, which counts toward their 75 octets.
    private mutating func fold(_ content: [UInt8]) {
        var lineLength = 0
        var index = 0
        while index < content.count {
            // The unit to place: one UTF-8 character, or an escape and its character.
            var unitEnd = index + Self.sequenceLength(content[index])
            if content[index] == UInt8(ascii: "\\"), unitEnd < content.count {
                unitEnd += Self.sequenceLength(content[unitEnd])
            }
            unitEnd = min(unitEnd, content.count)
            let unitLength = unitEnd - index
            if lineLength + unitLength > Self.maximumLineOctets {
                bytes.append(contentsOf: [0x0D, 0x0A, UInt8(ascii: " ")])
                lineLength = 1
            }
            bytes.append(contentsOf: content[index..<unitEnd])
            lineLength += unitLength
            index = unitEnd
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// The length of the UTF-8 sequence that `lead` starts (1 for stray continuation bytes).
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...0xF7: 4
        case 0xE0...0xEF: 3
        case 0xC0...0xDF: 2
        default: 1
        }
    }

    /// TEXT escaping (RFC 5545 §3.3.11): `\` `;` `,` escaped, line breaks as `\n`, other
    /// control characters removed.
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
