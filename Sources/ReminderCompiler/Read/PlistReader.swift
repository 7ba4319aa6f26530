import CXMLShim

/// Reads Apple XML property lists safely, keeping the position of every element.
///
/// The XML layer is libxml2 without network access, DTD loading or entity substitution;
/// documents that declare or reference entities, carry an internal DTD subset, name a DTD
/// other than Apple's, or hold processing instructions are refused. Input size and
/// nesting depth are capped.
@_spi(Tooling) public struct PlistReader: Sendable {
    /// Up to this many keys, a dictionary's keys are compared one by one for repeats.
    static let keysComparedInPlace = 16
    /// The largest input accepted, in bytes.
    public var maximumInputBytes: Int
    /// The deepest element nesting accepted (`<plist>` counts as one level).
    public var maximumDepth: Int
    /// The most values a document may hold, counted as elements: `<plist>` and `<key>`
    /// included (a key outside a dict is read as a value). The JSON reader's limit, for the
    /// same reason: a file of tiny values costs far more memory as values than as bytes.
    public var maximumValues: Int

    /// The default limits: 32 MiB and 64 levels, far beyond any real config.
    public static let defaultMaximumInputBytes = 32 * 1024 * 1024
    /// See `defaultMaximumInputBytes`.
    public static let defaultMaximumDepth = 64
    /// 2 000 000 values, as for JSON files.
    public static let defaultMaximumValues = JSONReader.defaultMaximumValues

    /// Creates a reader with the given limits.
    public init(
        maximumInputBytes: Int = defaultMaximumInputBytes, maximumDepth: Int = defaultMaximumDepth,
        maximumValues: Int = defaultMaximumValues
    ) {
        self.maximumInputBytes = maximumInputBytes
        self.maximumDepth = maximumDepth
        self.maximumValues = maximumValues
    }

    /// Parses `bytes` (UTF-8 XML) named `path` in diagnostics. Returns the value inside
    /// `<plist>`, or nil when the document could not be read at all; errors about
    /// individual values are reported to `diagnostics` and leave `.invalid` in the tree.
    public func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> PlistNode? {
        let start = SourceLocation(path: path, line: 1, column: 1)
        if bytes.count > maximumInputBytes {
            diagnostics.error(.inputTooLarge(limit: maximumInputBytes), at: start)
            return nil
        }
        if bytes.isEmpty {
            diagnostics.error(.emptyInput, at: start)
            return nil
        }
        let lines = LineTable(bytes)
        // libxml2 holds a text to its limit in ways that vary with the text: past it, one
        // plain run stops with "Huge input lookup" at its end, CDATA sections and
        // non-ASCII text with "Extra content at the end of the document", and text
        // broken by character references was cut short without an error. So no text that
        // long reaches it.
        // Nor a long tag: libxml2 compares each attribute of a tag with those before it (a
        // million attributes took minutes), and past 10 MB it stops with "Huge input lookup".
        if bytes.count > Self.tagLimit, let overlong = Self.firstOverlong(in: bytes, textLimit: Self.textLimit, tagLimit: Self.tagLimit) {
            let position = lines.position(ofByte: overlong.offset)
            let message: DiagnosticMessage = switch overlong.kind {
            case .text: .textTooLong(limit: Self.textLimit)
            case .tag: .tagTooLong(limit: Self.tagLimit)
            case .tagWithOpenQuote: .tagTooLong(limit: Self.tagLimit, quoteOpen: true)
            }
            diagnostics.error(message, at: SourceLocation(path: path, line: position.line, column: position.column))
            return nil
        }
        let tree: XMLTree
        do {
            tree = try XMLTree.parse(bytes, maximumDepth: maximumDepth, maximumValues: maximumValues)
        } catch {
            report(error, bytes: bytes, lines: lines, path: path, diagnostics: &diagnostics)
            return nil
        }
        guard let root = tree.root else {
            diagnostics.error(.malformedXML("no root element"), at: start)
            return nil
        }
        var builder = TreeBuilder(path: path, lines: lines, diagnostics: diagnostics)
        let node = builder.readPlistElement(root)
        diagnostics = builder.diagnostics
        return node
    }

    /// The most bytes one text may take in the file, CDATA sections, character
    /// references and comments inside it included: libxml2's limit for one text node
    /// (`XML_MAX_TEXT_LENGTH`), which the decoded text of a run no longer than this stays
    /// within.
    static let textLimit = 10_000_000

    /// The most bytes one tag may take, from its `<` to its `>`: a plist's tags hold an
    /// element's name and, on `<plist>`, its version, so 4 KiB is far beyond any real one.
    static let tagLimit = 4096

    /// What `firstOverlong` found.
    enum Overlong: Equatable {
        /// A text past `textLimit`.
        case text
        /// A tag past `tagLimit`.
        case tag
        /// A tag past `tagLimit` inside a quote it opened: most likely a quote left open
        /// (`<plist version="1.0>`), not a long tag.
        case tagWithOpenQuote
    }

    /// Where the first run of content longer than `textLimit` bytes, or the first tag
    /// longer than `tagLimit`, starts. A run is the bytes between one tag and the next,
    /// read through CDATA sections and comments; a tag ends at its `>` outside quotes (its
    /// attribute values may hold `>`), a processing instruction at its `?>`. One pass; a
    /// section left open ends the scan, for libxml2 to report, once the run before it is
    /// checked.
    static func firstOverlong(in bytes: [UInt8], textLimit: Int, tagLimit: Int) -> (offset: Int, kind: Overlong)? {
        let less = UInt8(ascii: "<"), greater = UInt8(ascii: ">"), question = UInt8(ascii: "?")
        var runStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == less else {
                index += 1
                continue
            }
            // libxml2 reads on through CDATA sections and comments: two texts of 6 MB on
            // either side of a comment stop it ("Huge input lookup") as one of 12 MB does.
            if let end = Self.end(ofSection: Self.cdataMarks, at: index, in: bytes) ?? Self.end(ofSection: Self.commentMarks, at: index, in: bytes)
            {
                guard end >= 0 else { return index - runStart > textLimit ? (runStart, .text) : nil }
                index = end
                continue
            }
            if index - runStart > textLimit { return (runStart, .text) }
            let tagStart = index
            let isInstruction = index + 1 < bytes.count && bytes[index + 1] == question
            var quote: UInt8?
            index += 1
            while index < bytes.count {
                if index - tagStart >= tagLimit { return (tagStart, quote == nil ? .tag : .tagWithOpenQuote) }
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if isInstruction {
                    if byte == greater, bytes[index - 1] == question, index - tagStart > 2 { break }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == greater {
                    break
                }
                index += 1
            }
            index += 1
            runStart = index
        }
        return bytes.count - runStart > textLimit ? (runStart, .text) : nil
    }

    private static let cdataMarks = (open: Array("<![CDATA[".utf8), close: Array("]]>".utf8))
    private static let commentMarks = (open: Array("<!--".utf8), close: Array("-->".utf8))

    /// When a section opening with `marks.open` starts at `index`: the offset after its
    /// `marks.close`, or -1 when it is never closed. Nil when no such section starts there.
    private static func end(ofSection marks: (open: [UInt8], close: [UInt8]), at index: Int, in bytes: [UInt8]) -> Int? {
        let (open, close) = marks
        guard bytes.count - index >= open.count, bytes[index..<index + open.count].elementsEqual(open) else { return nil }
        var position = index + open.count
        while position + close.count <= bytes.count {
            if bytes[position] == close[0], bytes[position..<position + close.count].elementsEqual(close) { return position + close.count }
            position += 1
        }
        return -1
    }

    private func report(
        _ failure: XMLTree.Failure, bytes: [UInt8], lines: LineTable, path: String, diagnostics: inout DiagnosticCollector
    ) {
        let message = failure.message.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingTrailingWhitespace()
        var location = SourceLocation(path: path, line: 1, column: 1)
        if failure.offset >= 0 {
            let position = lines.position(ofByte: failure.offset)
            location.line = position.line
            location.column = position.column
        } else if failure.line > 0 {
            location.line = failure.line
            location.column = max(1, failure.column)
        }
        switch failure.kind {
        case RX_ERROR_FORBIDDEN: diagnostics.error(.forbiddenXML(message), at: location)
        case RX_ERROR_TOO_DEEP: diagnostics.error(.nestingTooDeep(limit: maximumDepth), at: location)
        case RX_ERROR_TOO_MANY_VALUES: diagnostics.error(.tooManyValues(limit: maximumValues), at: location)
        default: diagnostics.error(.malformedXML(message), at: location)
        }
    }
}

extension ReminderCompiler {
    /// The error for an input larger than `limit` bytes, for a caller that stops reading
    /// it before handing it over.
    public static func inputTooLarge(path: String, limit: Int) -> Diagnostic {
        Diagnostic(.error, at: SourceLocation(path: path, line: 1, column: 1), .inputTooLarge(limit: limit))
    }
}

/// Walks the parsed document into `PlistNode`s with plist semantics.
private struct TreeBuilder {
    let path: String
    let lines: LineTable
    var diagnostics: DiagnosticCollector

    static let valueElements = ["string", "integer", "real", "true", "false", "date", "data", "array", "dict"]

    func location(of node: XMLNode) -> SourceLocation {
        let offset = node.offset
        guard offset >= 0 else { return SourceLocation(path: path, line: 1, column: 1) }
        let position = lines.position(ofByte: offset)
        return SourceLocation(path: path, line: position.line, column: position.column)
    }

    /// Calls `body` with each element among `node`'s children, in order; reports stray text.
    /// No list of them is made: a file may hold millions.
    mutating func forEachElement(of node: XMLNode, inside container: String, _ body: (inout Self, XMLNode) -> Void) {
        for child in node.children {
            if child.kind == .element {
                body(&self, child)
            } else if !child.isWhitespace {
                diagnostics.error(.unexpectedText(inside: container), at: location(of: node))
            }
        }
    }

    mutating func readPlistElement(_ root: XMLNode) -> PlistNode? {
        let rootLocation = location(of: root)
        guard root.name == "plist" else {
            diagnostics.error(.rootNotPlist(found: root.name), at: rootLocation)
            return nil
        }
        guard !root.hasNamespace else {
            diagnostics.error(.plistWithNamespace, at: rootLocation)
            return nil
        }
        var first: XMLNode?
        forEachElement(of: root, inside: "plist") { builder, element in
            if first == nil {
                first = element
            } else {
                builder.diagnostics.error(.plistHoldsMoreThanOneValue, at: builder.location(of: element))
            }
        }
        guard let first else {
            diagnostics.error(.emptyPlist, at: rootLocation)
            return nil
        }
        return readValue(first, depth: 1)
    }

    mutating func readValue(_ element: XMLNode, depth: Int) -> PlistNode {
        let here = location(of: element)
        let elementName = element.name
        if element.hasNamespace {
            diagnostics.error(.unknownPlistElement(elementName, suggestion: nil), at: here)
            return PlistNode(.invalid, at: here)
        }
        switch elementName {
        case "dict":
            return PlistNode(readDictionary(element, depth: depth), at: here)
        case "array":
            // Sized first: grown by doubling, a list of millions held its old and new
            // storage at once, more than twice what it needs.
            var items: [PlistNode] = []
            items.reserveCapacity(element.children.count { $0.kind == .element })
            forEachElement(of: element, inside: "array") { builder, item in
                items.append(builder.readValue(item, depth: depth + 1))
            }
            return PlistNode(.array(items), at: here)
        case "true", "false":
            let hasElements = element.children.contains { $0.kind == .element }
            if hasElements || hasText(element) {
                diagnostics.error(.booleanNotEmpty(elementName), at: here)
                return PlistNode(.invalid, at: here)
            }
            return PlistNode(.boolean(elementName == "true"), at: here)
        case "string", "key":
            guard let text = textContent(of: element) else { return PlistNode(.invalid, at: here) }
            if elementName == "key" {
                diagnostics.error(.valueWithoutKey("key"), at: here)
                return PlistNode(.invalid, at: here)
            }
            return PlistNode(.string(text), at: here)
        case "integer", "real", "date", "data":
            guard let text = textContent(of: element) else { return PlistNode(.invalid, at: here) }
            let parse = switch elementName {
            case "integer": PlistScalarParser.integer
            case "real": PlistScalarParser.real
            case "date": PlistScalarParser.date
            default: PlistScalarParser.data
            }
            return PlistNode(parse(text, here, &diagnostics), at: here)
        default:
            let suggestion = closestMatch(to: elementName, in: Self.valueElements)
            diagnostics.error(.unknownPlistElement(elementName, suggestion: suggestion), at: here)
            return PlistNode(.invalid, at: here)
        }
    }

    func hasText(_ element: XMLNode) -> Bool {
        element.children.contains { $0.kind != .element && !$0.isWhitespace }
    }

    /// Text and CDATA joined, comments skipped, as Apple's parser reads a `<string>`.
    mutating func textContent(of element: XMLNode) -> String? {
        var text = ""
        for child in element.children {
            guard let content = child.text else {
                diagnostics.error(.elementInsideText(element.name), at: location(of: child))
                return nil
            }
            text += content
        }
        return text
    }

    mutating func readDictionary(_ element: XMLNode, depth: Int) -> PlistValue {
        var entries: [PlistDictionary.Entry] = []
        // A repeated key is looked for among the entries while they are few, and in a
        // dictionary once there are more: a config's dictionaries hold a handful of keys,
        // and hashing each into a dictionary grown from empty cost a W1 job 80 000
        // instructions; the dictionary keeps a plist of a million keys linear.
        var firstLocationOfKey: [String: SourceLocation]?
        func firstLocation(of key: String) -> SourceLocation? {
            if let firstLocationOfKey { return firstLocationOfKey[key] }
            return entries.first { $0.key == key }?.keyLocation
        }
        var pendingKey: (text: String, location: SourceLocation)?
        forEachElement(of: element, inside: "dict") { builder, child in
            let childLocation = builder.location(of: child)
            if child.name == "key", !child.hasNamespace {
                if let pending = pendingKey {
                    builder.diagnostics.error(.keyWithoutValue(pending.text), at: pending.location)
                }
                pendingKey = builder.textContent(of: child).map { ($0, childLocation) }
                return
            }
            guard let key = pendingKey else {
                builder.diagnostics.error(.valueWithoutKey(child.name), at: childLocation)
                _ = builder.readValue(child, depth: depth + 1)
                return
            }
            pendingKey = nil
            let value = builder.readValue(child, depth: depth + 1)
            if let first = firstLocation(of: key.text) {
                builder.diagnostics.error(
                    .duplicateKey(key.text), at: key.location,
                    notes: [Diagnostic(.note, at: first, .firstDefinition(key.text))]
                )
                return
            }
            entries.append(PlistDictionary.Entry(key: key.text, keyLocation: key.location, value: value))
            if firstLocationOfKey != nil {
                firstLocationOfKey?[key.text] = key.location
            } else if entries.count > PlistReader.keysComparedInPlace {
                firstLocationOfKey = Dictionary(entries.map { ($0.key, $0.keyLocation) }, uniquingKeysWith: { first, _ in first })
            }
        }
        if let pending = pendingKey {
            diagnostics.error(.keyWithoutValue(pending.text), at: pending.location)
        }
        return .dictionary(PlistDictionary(entries: entries))
    }
}

extension Character {
    /// XML's whitespace: space, tab, carriage return, line feed.
    var isXMLWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" }
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var result = self
        while let last = result.last, last.isXMLWhitespace { result.removeLast() }
        return result
    }

    func trimmingXMLWhitespace() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first.isXMLWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isXMLWhitespace { slice.removeLast() }
        return slice
    }
}
