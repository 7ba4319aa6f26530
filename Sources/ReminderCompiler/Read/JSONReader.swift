/// Reads JSON (RFC 8259) into the same located tree as `PlistReader`, so that files that
/// may be JSON or plist (events) are decoded by one piece of code.
///
/// Objects become dictionaries (a duplicate key is an error), numbers without fraction
/// or exponent become 64-bit integers, others finite reals; `null` is an error, since
/// no remindc input uses it, unless `allowsNull` (files other programs write, such as
/// pending lists, carry nulls remindc ignores). Input size and nesting depth are capped
/// like plist input.
struct JSONReader {
    var maximumInputBytes = PlistReader.defaultMaximumInputBytes
    var maximumDepth = PlistReader.defaultMaximumDepth
    /// Reads `null` as an invalid value without an error.
    var allowsNull = false

    func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> PlistNode? {
        if bytes.count > maximumInputBytes {
            diagnostics.error(.inputTooLarge(limit: maximumInputBytes), at: SourceLocation(path: path, line: 1, column: 1))
            return nil
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            diagnostics.error(.malformedJSON("the file is not valid UTF-8"), at: SourceLocation(path: path, line: 1, column: 1))
            return nil
        }
        var parser = JSONParser(bytes: bytes, path: path, lines: LineTable(bytes), maximumDepth: maximumDepth, allowsNull: allowsNull)
        parser.position = ByteOrderMark.length(of: bytes)
        do {
            parser.skipWhitespace()
            let value = try parser.value(depth: 1)
            parser.skipWhitespace()
            if parser.position < bytes.count { throw parser.failure("unexpected content after the JSON value") }
            diagnostics.append(contentsOf: parser.diagnostics)
            return value
        } catch let failure as JSONParser.Failure {
            diagnostics.append(contentsOf: parser.diagnostics)
            diagnostics.error(failure.message, at: failure.location)
            return nil
        } catch {
            return nil
        }
    }
}

private struct JSONParser {
    struct Failure: Error {
        let message: DiagnosticMessage
        let location: SourceLocation
    }

    let bytes: [UInt8]
    let path: String
    let lines: LineTable
    let maximumDepth: Int
    let allowsNull: Bool
    var position = 0
    var diagnostics: [Diagnostic] = []

    init(bytes: [UInt8], path: String, lines: LineTable, maximumDepth: Int, allowsNull: Bool) {
        self.bytes = bytes
        self.path = path
        self.lines = lines
        self.maximumDepth = maximumDepth
        self.allowsNull = allowsNull
    }

    func location(_ offset: Int) -> SourceLocation {
        let (line, column) = lines.position(ofByte: offset)
        return SourceLocation(path: path, line: line, column: column)
    }

    func failure(_ text: String, at offset: Int? = nil) -> Failure {
        Failure(message: .malformedJSON(text), location: location(offset ?? position))
    }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
        skipWhitespace()
        guard current == byte else { throw failure("expected \(what)") }
        position += 1
    }

    mutating func value(depth: Int) throws -> PlistNode {
        skipWhitespace()
        let start = position
        guard depth <= maximumDepth else {
            throw Failure(message: .nestingTooDeep(limit: maximumDepth), location: location(start))
        }
        guard let byte = current else { throw failure("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return PlistNode(try object(depth: depth), at: location(start))
        case UInt8(ascii: "["): return PlistNode(try array(depth: depth), at: location(start))
        case UInt8(ascii: "\""): return PlistNode(.string(try string()), at: location(start))
        case UInt8(ascii: "t"): try literal("true"); return PlistNode(.boolean(true), at: location(start))
        case UInt8(ascii: "f"): try literal("false"); return PlistNode(.boolean(false), at: location(start))
        case UInt8(ascii: "n"):
            try literal("null")
            if !allowsNull { diagnostics.append(Diagnostic(.error, at: location(start), .nullNotAllowed)) }
            return PlistNode(.invalid, at: location(start))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return PlistNode(try number(), at: location(start))
        default:
            throw failure("unexpected character; expected a value")
        }
    }

    mutating func literal(_ word: String) throws {
        for expected in word.utf8 {
            guard current == expected else { throw failure("expected '\(word)'") }
            position += 1
        }
    }

    mutating func object(depth: Int) throws -> PlistValue {
        position += 1
        var entries: [PlistDictionary.Entry] = []
        var firstLocation: [String: SourceLocation] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .dictionary(PlistDictionary(entries: entries))
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let keyLocation = location(position)
            let key = try string()
            try expect(UInt8(ascii: ":"), "':' after the key")
            let value = try value(depth: depth + 1)
            if let first = firstLocation[key] {
                diagnostics.append(Diagnostic(
                    .error, at: keyLocation, .duplicateKey(key), notes: [Diagnostic(.note, at: first, .firstDefinition(key))]
                ))
            } else {
                firstLocation[key] = keyLocation
                entries.append(PlistDictionary.Entry(key: key, keyLocation: keyLocation, value: value))
            }
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            if current == UInt8(ascii: "}") { position += 1; break }
            throw failure("expected ',' or '}'")
        }
        return .dictionary(PlistDictionary(entries: entries))
    }

    mutating func array(depth: Int) throws -> PlistValue {
        position += 1
        var items: [PlistNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            if current == UInt8(ascii: "]") { position += 1; break }
            throw failure("expected ',' or ']'")
        }
        return .array(items)
    }

    mutating func string() throws -> String {
        let decoded = bytes.withUnsafeBufferPointer { JSONStringDecoding.decode($0, openingQuoteAt: position) }
        switch decoded {
        case .success(let string):
            position = string.end
            // The whole file was checked as UTF-8, and escapes give UTF-8.
            return String(decoding: string.bytes, as: UTF8.self)
        case .failure(let failure):
            throw self.failure(failure.reason, at: failure.offset)
        }
    }

    mutating func number() throws -> PlistValue {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        guard position > digitsStart else { throw failure("expected digits", at: start) }
        if bytes[digitsStart] == UInt8(ascii: "0"), position - digitsStart > 1 {
            throw failure("leading zeros are not allowed", at: start)
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            guard position > fractionStart else { throw failure("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            guard position > exponentStart else { throw failure("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        var collector = DiagnosticCollector()
        let value = isInteger
            ? PlistScalarParser.integer(text, at: location(start), diagnostics: &collector)
            : PlistScalarParser.real(text, at: location(start), diagnostics: &collector)
        diagnostics.append(contentsOf: collector.diagnostics)
        return value
    }
}
