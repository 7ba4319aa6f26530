/// The members of a JSON object at the top level, each as the byte range of its value, so
/// that a nested config, events file or plan can be handed to its own reader as it is.
/// Nested values are skipped, not parsed; their readers check them.
enum JSONMembers {
    /// Why the object could not be scanned, at a byte offset.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    static func scan(_ bytes: [UInt8]) -> Result<[(key: String, value: Range<Int>)], Failure> {
        bytes.withUnsafeBufferPointer { buffer in
            var position = ByteOrderMark.length(of: buffer)
            func skipWhitespace() {
                while position < buffer.count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[position]) { position += 1 }
            }
            func expect(_ byte: UInt8, _ what: String) -> Failure? {
                skipWhitespace()
                guard position < buffer.count, buffer[position] == byte else { return Failure(reason: "expected \(what)", offset: position) }
                position += 1
                return nil
            }
            if let failure = expect(UInt8(ascii: "{"), "a JSON object '{'") { return .failure(failure) }
            var members: [(key: String, value: Range<Int>)] = []
            skipWhitespace()
            if position < buffer.count, buffer[position] == UInt8(ascii: "}") {
                position += 1
            } else {
                while true {
                    skipWhitespace()
                    guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") else {
                        return .failure(Failure(reason: "expected a member name in quotes", offset: position))
                    }
                    let key: String
                    switch JSONStringDecoding.decode(buffer, openingQuoteAt: position) {
                    case .failure(let failure): return .failure(Failure(reason: failure.reason, offset: failure.offset))
                    case .success(let decoded):
                        key = String(decoding: decoded.bytes, as: UTF8.self)
                        position = decoded.end
                    }
                    if let failure = expect(UInt8(ascii: ":"), "':' after a member name") { return .failure(failure) }
                    skipWhitespace()
                    let start = position
                    if let failure = skipValue(buffer, &position) { return .failure(failure) }
                    members.append((key, start..<position))
                    skipWhitespace()
                    guard position < buffer.count else { return .failure(Failure(reason: "unterminated object", offset: position)) }
                    if buffer[position] == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    if buffer[position] == UInt8(ascii: "}") {
                        position += 1
                        break
                    }
                    return .failure(Failure(reason: "expected ',' or '}'", offset: position))
                }
            }
            skipWhitespace()
            guard position == buffer.count else { return .failure(Failure(reason: "text after the object", offset: position)) }
            return .success(members)
        }
    }

    /// Moves past one value: strings with their escapes, nested objects and arrays by their
    /// depth (without recursion, so no nesting exhausts the stack), anything else up to
    /// the next delimiter.
    private static func skipValue(_ buffer: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Failure? {
        var depth = 0
        repeat {
            guard position < buffer.count else { return Failure(reason: "unterminated value", offset: position) }
            switch buffer[position] {
            case UInt8(ascii: "\""):
                position += 1
                while position < buffer.count, buffer[position] != UInt8(ascii: "\"") {
                    position += buffer[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < buffer.count else { return Failure(reason: "unterminated string", offset: position) }
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return Failure(reason: "unexpected '\(Character(UnicodeScalar(buffer[position])))'", offset: position) }
                depth -= 1
                position += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                guard depth > 0 else { return nil }
                position += 1
            default:
                position += 1
            }
        } while depth > 0 || (position < buffer.count && ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(buffer[position]))
        return nil
    }
}
