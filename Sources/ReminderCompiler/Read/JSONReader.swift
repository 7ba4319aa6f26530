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
    /// The most values the tree may hold at once (elements of a streamed array count only
    /// while they are read): a document of small tokens takes some 60 bytes of memory per
    /// value as a tree, so a 384 MiB plan of `1,`s would take 12 GB. Far above any file
    /// remindc writes or reads, whose long lists are streamed.
    var maximumValues = JSONReader.defaultMaximumValues
    /// See `maximumValues`.
    static let defaultMaximumValues = 2_000_000
    /// Reads `null` as an invalid value without an error.
    var allowsNull = false

    func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> PlistNode? {
        var streaming: TreeBuilder.Streaming?
        return read(bytes, path: path, diagnostics: &diagnostics, streaming: &streaming)
    }

    /// Which arrays of a document are streamed.
    enum StreamedArrays {
        /// The root itself, when it is an array (a pending list).
        case root
        /// The arrays under these keys of the root object (an events file's `events`, a
        /// plan's `notifications` and `suppressed`).
        case under(Set<String>)
    }

    /// Reads the document, except that the elements of the `streamed` arrays are handed to
    /// `element` one at a time, as they are read, with the key they are under (nil for
    /// the root), and not kept: the tree holds an empty array there. An events file of
    /// millions of entries then costs the memory of one entry at a time, not of a tree of
    /// them all.
    ///
    /// What the reader finds inside the elements (a duplicate key, a `null`) goes to
    /// `elementDiagnostics`, apart from the document's other diagnostics, so that a caller
    /// can report the root's first, whatever the number of elements.
    func read(
        _ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector, streaming streamed: StreamedArrays,
        elementDiagnostics: inout DiagnosticCollector, element: (String?, PlistNode) -> Void
    ) -> PlistNode? {
        // The closure is called only while the document is read, never kept past it.
        withoutActuallyEscaping(element) { element in
            var streaming: TreeBuilder.Streaming? = TreeBuilder.Streaming(arrays: streamed, element: element, diagnostics: elementDiagnostics)
            defer { elementDiagnostics = streaming?.diagnostics ?? elementDiagnostics }
            return read(bytes, path: path, diagnostics: &diagnostics, streaming: &streaming)
        }
    }

    private func read(
        _ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector, streaming: inout TreeBuilder.Streaming?
    ) -> PlistNode? {
        if bytes.count > maximumInputBytes {
            diagnostics.error(.inputTooLarge(limit: maximumInputBytes), at: SourceLocation(path: path, line: 1, column: 1))
            return nil
        }
        return JSONScanner.scanning(bytes) { scanner in
            var builder = TreeBuilder(
                scanner: scanner, path: path, lines: LineTable(bytes), allowsNull: allowsNull, maximumValues: maximumValues, streaming: streaming
            )
            defer { streaming = builder.streaming }
            do throws(JSONScanner.Failure) {
                let value = try builder.value()
                try builder.scanner.finish()
                diagnostics.absorb(builder.diagnostics)
                return value
            } catch {
                diagnostics.absorb(builder.diagnostics)
                let message: DiagnosticMessage = builder.passedValueLimit ? .tooManyValues(limit: maximumValues)
                    : error.nestingLimit.map { .nestingTooDeep(limit: $0) } ?? .malformedJSON(error.reason)
                diagnostics.error(message, at: builder.location(error.offset))
                return nil
            }
        }
    }
}

/// Builds the located tree from the scanner's tokens; what the tree adds to the grammar
/// (duplicate keys, `null`, numbers that fit) it reports as diagnostics and goes on.
private struct TreeBuilder {
    /// Arrays of the root object (or the root array) whose elements go to a closure instead
    /// of the tree.
    struct Streaming {
        let arrays: JSONReader.StreamedArrays
        let element: (String?, PlistNode) -> Void
        /// What the reader found inside the elements.
        var diagnostics: DiagnosticCollector
    }

    var scanner: JSONScanner
    let path: String
    let lines: LineTable
    let allowsNull: Bool
    let maximumValues: Int
    var streaming: Streaming?
    /// Values read and held; a streamed element's are let go once it is handed over.
    private var valuesHeld = 0
    /// Whether reading stopped at `maximumValues`.
    private(set) var passedValueLimit = false
    /// Capped like every collector: a file of millions of `null`s keeps a thousand errors.
    var diagnostics = DiagnosticCollector()
    /// How many objects enclose the value being read.
    private var depth = 0
    /// Whether no value was begun yet: the next is the root.
    private var atRoot = true
    /// Whether the root's elements, when it is an array, are the ones streamed.
    private var streamsRootArray: Bool {
        guard case .root = streaming?.arrays else { return false }
        return true
    }

    /// Whether the array under `key` of the root object is streamed.
    private func streams(_ key: String) -> Bool {
        guard case .under(let keys) = streaming?.arrays else { return false }
        return keys.contains(key)
    }

    init(scanner: JSONScanner, path: String, lines: LineTable, allowsNull: Bool, maximumValues: Int, streaming: Streaming?) {
        self.scanner = scanner
        self.path = path
        self.lines = lines
        self.allowsNull = allowsNull
        self.maximumValues = maximumValues
        self.streaming = streaming
    }

    func location(_ offset: Int) -> SourceLocation {
        let (line, column) = lines.position(ofByte: offset)
        return SourceLocation(path: path, line: line, column: column)
    }

    mutating func value() throws(JSONScanner.Failure) -> PlistNode {
        guard let byte = scanner.peek() else { throw scanner.failure("unexpected end of input; expected a value") }
        valuesHeld += 1
        guard valuesHeld <= maximumValues else {
            passedValueLimit = true
            throw scanner.failure("too many values")
        }
        let start = location(scanner.position)
        let isRoot = atRoot
        atRoot = false
        switch byte {
        case UInt8(ascii: "{"): return PlistNode(try object(), at: start)
        case UInt8(ascii: "[") where isRoot && streamsRootArray: return try streamedArray(under: nil, handingOn: true)
        case UInt8(ascii: "["): return PlistNode(try array(), at: start)
        case UInt8(ascii: "\""): return PlistNode(.string(try scanner.string()), at: start)
        case UInt8(ascii: "t"): try scanner.literal("true"); return PlistNode(.boolean(true), at: start)
        case UInt8(ascii: "f"): try scanner.literal("false"); return PlistNode(.boolean(false), at: start)
        case UInt8(ascii: "n"):
            try scanner.literal("null")
            if !allowsNull { diagnostics.error(.nullNotAllowed, at: start) }
            return PlistNode(.invalid, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.number()
            // Most integers have few digits: read from the bytes, which the grammar has
            // checked, without a string; longer ones go to the parser, which reports overflow.
            if let value = scanner.smallInteger(of: number) { return PlistNode(.integer(value), at: start) }
            let text = scanner.text(of: number.text)
            let value = number.isInteger
                ? PlistScalarParser.integer(text, at: start, diagnostics: &diagnostics)
                : PlistScalarParser.real(text, at: start, diagnostics: &diagnostics)
            return PlistNode(value, at: start)
        default:
            throw scanner.failure("unexpected character; expected a value")
        }
    }

    mutating func object() throws(JSONScanner.Failure) -> PlistValue {
        var entries: [PlistDictionary.Entry] = []
        guard try scanner.openObject() else { return .dictionary(PlistDictionary(entries: entries)) }
        depth += 1
        defer { depth -= 1 }
        var firstLocation: [String: SourceLocation] = [:]
        repeat {
            _ = scanner.peek()
            let keyLocation = location(scanner.position)
            let key = try scanner.memberName()
            let value: PlistNode
            if depth == 1, streams(key), scanner.peek() == UInt8(ascii: "[") {
                // A second array under the key is a duplicate: read, reported, not handed on.
                value = try streamedArray(under: key, handingOn: firstLocation[key] == nil)
            } else {
                value = try self.value()
            }
            if let first = firstLocation[key] {
                diagnostics.error(.duplicateKey(key), at: keyLocation, notes: [Diagnostic(.note, at: first, .firstDefinition(key))])
            } else {
                firstLocation[key] = keyLocation
                entries.append(PlistDictionary.Entry(key: key, keyLocation: keyLocation, value: value))
            }
        } while try scanner.continues(closing: UInt8(ascii: "}"))
        return .dictionary(PlistDictionary(entries: entries))
    }

    /// A streamed array, under `key` (nil: the root), its elements handed over one by one;
    /// the tree keeps an empty array in its place. While an element is read, what the
    /// reader finds in it goes to the elements' diagnostics.
    private mutating func streamedArray(under key: String?, handingOn: Bool) throws(JSONScanner.Failure) -> PlistNode {
        let start = location(scanner.position)
        guard var streaming, try scanner.openArray() else { return PlistNode(.array([]), at: start) }
        self.streaming = nil
        swap(&diagnostics, &streaming.diagnostics)
        defer {
            swap(&diagnostics, &streaming.diagnostics)
            self.streaming = streaming
        }
        repeat {
            let held = valuesHeld
            let element = try value()
            if handingOn { streaming.element(key, element) }
            valuesHeld = held
        } while try scanner.continues(closing: UInt8(ascii: "]"))
        return PlistNode(.array([]), at: start)
    }

    mutating func array() throws(JSONScanner.Failure) -> PlistValue {
        var items: [PlistNode] = []
        guard try scanner.openArray() else { return .array(items) }
        repeat { items.append(try value()) } while try scanner.continues(closing: UInt8(ascii: "]"))
        return .array(items)
    }
}
