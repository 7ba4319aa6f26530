/// Reads JSON (RFC 8259) into the same located tree as `PlistReader`, so that files that
/// may be JSON or plist (events) are decoded by one piece of code. Its tokens come from
/// `JSONScanner`, the one JSON grammar of remindc.
///
/// Objects become dictionaries (a duplicate key is an error), numbers without fraction
/// or exponent become 64-bit integers, others finite reals; `null` is an error, since
/// no remindc input uses it, unless `allowsNull` (files other programs write, such as
/// pending lists, carry nulls remindc ignores). Input size and nesting depth are capped
/// like plist input.
struct JSONReader {
    var maximumInputBytes = PlistReader.defaultMaximumInputBytes
    /// Reads `null` as an invalid value without an error.
    var allowsNull = false

    func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> PlistNode? {
        if bytes.count > maximumInputBytes {
            diagnostics.error(.inputTooLarge(limit: maximumInputBytes), at: SourceLocation(path: path, line: 1, column: 1))
            return nil
        }
        return JSONScanner.scanning(bytes) { scanner in
            var builder = TreeBuilder(scanner: scanner, path: path, lines: LineTable(bytes), allowsNull: allowsNull)
            do throws(JSONScanner.Failure) {
                let value = try builder.value()
                try builder.scanner.finish()
                diagnostics.append(contentsOf: builder.diagnostics)
                return value
            } catch {
                diagnostics.append(contentsOf: builder.diagnostics)
                let message: DiagnosticMessage = error.nestingLimit.map { .nestingTooDeep(limit: $0) } ?? .malformedJSON(error.reason)
                diagnostics.error(message, at: builder.location(error.offset))
                return nil
            }
        }
    }
}

/// Builds the located tree from the scanner's tokens; what the tree adds to the grammar
/// (duplicate keys, `null`, numbers that fit) it reports as diagnostics and goes on.
private struct TreeBuilder {
    var scanner: JSONScanner
    let path: String
    let lines: LineTable
    let allowsNull: Bool
    var diagnostics: [Diagnostic] = []

    func location(_ offset: Int) -> SourceLocation {
        let (line, column) = lines.position(ofByte: offset)
        return SourceLocation(path: path, line: line, column: column)
    }

    mutating func value() throws(JSONScanner.Failure) -> PlistNode {
        guard let byte = scanner.peek() else { throw scanner.failure("unexpected end of input; expected a value") }
        let start = location(scanner.position)
        switch byte {
        case UInt8(ascii: "{"): return PlistNode(try object(), at: start)
        case UInt8(ascii: "["): return PlistNode(try array(), at: start)
        case UInt8(ascii: "\""): return PlistNode(.string(try scanner.string()), at: start)
        case UInt8(ascii: "t"): try scanner.literal("true"); return PlistNode(.boolean(true), at: start)
        case UInt8(ascii: "f"): try scanner.literal("false"); return PlistNode(.boolean(false), at: start)
        case UInt8(ascii: "n"):
            try scanner.literal("null")
            if !allowsNull { diagnostics.append(Diagnostic(.error, at: start, .nullNotAllowed)) }
            return PlistNode(.invalid, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.number()
            let text = scanner.text(of: number.text)
            var collector = DiagnosticCollector()
            let value = number.isInteger
                ? PlistScalarParser.integer(text, at: start, diagnostics: &collector)
                : PlistScalarParser.real(text, at: start, diagnostics: &collector)
            diagnostics.append(contentsOf: collector.diagnostics)
            return PlistNode(value, at: start)
        default:
            throw scanner.failure("unexpected character; expected a value")
        }
    }

    mutating func object() throws(JSONScanner.Failure) -> PlistValue {
        var entries: [PlistDictionary.Entry] = []
        guard try scanner.openObject() else { return .dictionary(PlistDictionary(entries: entries)) }
        var firstLocation: [String: SourceLocation] = [:]
        repeat {
            _ = scanner.peek()
            let keyLocation = location(scanner.position)
            let key = try scanner.memberName()
            let value = try value()
            if let first = firstLocation[key] {
                diagnostics.append(Diagnostic(
                    .error, at: keyLocation, .duplicateKey(key), notes: [Diagnostic(.note, at: first, .firstDefinition(key))]
                ))
            } else {
                firstLocation[key] = keyLocation
                entries.append(PlistDictionary.Entry(key: key, keyLocation: keyLocation, value: value))
            }
        } while try scanner.continues(closing: UInt8(ascii: "}"))
        return .dictionary(PlistDictionary(entries: entries))
    }

    mutating func array() throws(JSONScanner.Failure) -> PlistValue {
        var items: [PlistNode] = []
        guard try scanner.openArray() else { return .array(items) }
        repeat { items.append(try value()) } while try scanner.continues(closing: UInt8(ascii: "]"))
        return .array(items)
    }
}
