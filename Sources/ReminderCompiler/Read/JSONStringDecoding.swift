/// Decodes the text of a JSON string (RFC 8259 §7): escapes, `\u` escapes with surrogate
/// pairs, and no raw control characters. One decoder serves the located reader and the
/// fast plan reader, so both accept exactly the same strings.
enum JSONStringDecoding {
    /// Why a string could not be decoded, and the byte offset to report it at.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    /// Decodes the string whose opening quote stands at `quote`. Returns its UTF-8 bytes
    /// (not checked: raw bytes are copied as they are) and the offset after the closing quote.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, openingQuoteAt quote: Int) -> Result<(bytes: [UInt8], end: Int), Failure> {
        var position = quote + 1
        var decoded: [UInt8] = []
        func hexQuad() -> UInt32? {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard position < bytes.count, let digit = hexValue(bytes[position]) else { return nil }
                code = code * 16 + digit
                position += 1
            }
            return code
        }
        while true {
            guard position < bytes.count else { return .failure(Failure(reason: "unterminated string", offset: position)) }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return .success((decoded, position))
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return .failure(Failure(reason: "unterminated escape", offset: position)) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hexQuad() else {
                        return .failure(Failure(reason: "expected four hex digits in \\u escape", offset: position))
                    }
                    if (0xD800..<0xDC00).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        else { return .failure(Failure(reason: "unpaired surrogate in \\u escape", offset: position)) }
                        position += 2
                        guard let low = hexQuad() else {
                            return .failure(Failure(reason: "expected four hex digits in \\u escape", offset: position))
                        }
                        guard (0xDC00..<0xE000).contains(low) else {
                            return .failure(Failure(reason: "unpaired surrogate in \\u escape", offset: position))
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        return .failure(Failure(reason: "unpaired surrogate in \\u escape", offset: position))
                    }
                    // Every code here is a scalar: surrogates were paired or refused above.
                    decoded.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(code)!)!)
                default:
                    let shown = escape < 0x80 ? String(UnicodeScalar(escape)) : "\\u{\(String(escape, radix: 16))}"
                    return .failure(Failure(reason: "invalid escape '\\\(shown)'", offset: position - 2))
                }
            case 0..<0x20:
                return .failure(Failure(reason: "control character inside a string", offset: position - 1))
            default:
                decoded.append(byte)
            }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
