import CXMLShim

/// A document parsed by the C shim (libxml2): its elements and texts as one flat tape, an
/// element followed by its descendants, freed with the last node that refers to it.
///
/// A tape takes about 20 bytes an element and the bytes of its name and text, where
/// libxml2's own tree took a few hundred (a 21 MB list of `<true/>` took 627 MB to read).
///
/// Invariant: `events` and `text` point into the shim's document, which lives as long as
/// this object; every ``XMLNode`` holds its tree, and every range the shim wrote lies inside
/// its store.
@safe final class XMLTree {
    /// Why the shim refused a document.
    struct Failure: Error {
        var kind: rx_error_kind
        /// 1-based line and column from libxml2, or 0.
        var line: Int
        var column: Int
        /// The byte offset the shim names, or -1.
        var offset: Int
        /// The shim's English message.
        var message: String
    }

    private let document: OpaquePointer
    private let events: UnsafeBufferPointer<rx_event>
    private let text: UnsafeBufferPointer<UInt8>

    private init(document: OpaquePointer) {
        unsafe self.document = document
        var eventCount = 0
        let eventStart = unsafe rx_document_events(document, &eventCount)
        unsafe self.events = UnsafeBufferPointer(start: eventStart, count: eventCount)
        var textLength = 0
        let textStart = unsafe rx_document_text(document, &textLength)
        unsafe self.text = UnsafeBufferPointer(start: textStart, count: textLength)
    }

    deinit {
        unsafe rx_document_free(document)
    }

    /// Parses UTF-8 XML with at most `maximumDepth` levels of elements and at most
    /// `maximumValues` elements.
    ///
    /// It throws its one error type rather than return a `Result`: a `Result` of it is a
    /// generic type made at run time, whose `Failure: Error` the runtime then checks against
    /// every conformance record of the binary, about 150 000 instructions for each process
    /// that reads a plist.
    static func parse(_ bytes: [UInt8], maximumDepth: Int, maximumValues: Int) throws(Failure) -> XMLTree {
        var failure = rx_error()
        let parsed = unsafe bytes.withUnsafeBufferPointer { buffer in
            unsafe buffer.withMemoryRebound(to: CChar.self) { characters in
                unsafe rx_parse(
                    characters.baseAddress, characters.count, Int32(clamping: maximumDepth), Int64(maximumValues), &failure
                )
            }
        }
        guard let document = unsafe parsed else {
            // The message is a NUL-terminated array of CChar inside the struct.
            let message = unsafe withUnsafeBytes(of: failure.message) { raw in
                unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw Failure(
                kind: failure.kind, line: Int(failure.line), column: Int(failure.column), offset: Int(failure.offset),
                message: message
            )
        }
        return unsafe XMLTree(document: document)
    }

    /// The root element, if any.
    var root: XMLNode? {
        guard unsafe !events.isEmpty, unsafe events[0].kind == UInt8(RX_EVENT_ELEMENT.rawValue) else { return nil }
        return XMLNode(index: 0, tree: self)
    }

    fileprivate func event(_ index: Int) -> rx_event {
        unsafe events[index]
    }

    fileprivate var eventCount: Int { unsafe events.count }

    /// The bytes of an event's range, as a string.
    fileprivate func string(of event: rx_event) -> String {
        let start = Int(event.text_start)
        let end = start + Int(event.text_length)
        guard start <= end, unsafe end <= text.count else { return "" }
        return unsafe String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
    }
}

/// One element or text of an ``XMLTree``.
struct XMLNode {
    /// Where the node stands on the tape.
    private let index: Int
    /// Keeps the memory the tape lives in.
    private let tree: XMLTree

    fileprivate init(index: Int, tree: XMLTree) {
        self.index = index
        self.tree = tree
    }

    private var event: rx_event { tree.event(index) }

    /// The byte offset of the element's `<` in the input, or -1 for text.
    var offset: Int { kind == .element ? Int(event.offset) : -1 }

    /// Whether this is an element, a text or a CDATA section.
    var kind: XMLNodeKind {
        switch UInt32(event.kind) {
        case RX_EVENT_ELEMENT.rawValue: .element
        case RX_EVENT_CDATA.rawValue: .cdata
        default: .text
        }
    }

    /// The element's name (with its prefix when that is undeclared), or "" for text.
    var name: String { kind == .element ? tree.string(of: event) : "" }

    /// Whether the element declares a namespace or is in one; an undeclared prefix stays in its name.
    var hasNamespace: Bool { kind == .element && event.flag != 0 }

    /// The text of a text or CDATA node, or nil for an element.
    var text: String? { kind == .element ? nil : tree.string(of: event) }

    /// Whether a text or CDATA node holds nothing but XML whitespace.
    var isWhitespace: Bool { kind != .element && event.flag != 0 }

    /// The node's children, in document order.
    var children: XMLChildren { XMLChildren(parent: self, tree: tree) }

    /// The index just past this node's descendants.
    fileprivate var end: Int {
        let event = event
        guard event.kind == UInt8(RX_EVENT_ELEMENT.rawValue) else { return index + 1 }
        // The shim closes every element of a document it returns; the clamps keep a walk
        // finite and inside the tape whatever it holds.
        return min(max(Int(event.end), index + 1), tree.eventCount)
    }

    fileprivate var position: Int { index }
}

/// What an ``XMLNode`` is.
enum XMLNodeKind {
    case element
    case text
    case cdata
}

/// The children of an ``XMLNode``, walked on the tape without building a list.
struct XMLChildren: Sequence {
    fileprivate let parent: XMLNode
    fileprivate let tree: XMLTree

    struct Iterator: IteratorProtocol {
        fileprivate var upcoming: Int
        fileprivate let end: Int
        fileprivate let tree: XMLTree

        mutating func next() -> XMLNode? {
            guard upcoming < end else { return nil }
            let node = XMLNode(index: upcoming, tree: tree)
            upcoming = node.end
            return node
        }
    }

    func makeIterator() -> Iterator {
        Iterator(upcoming: parent.position + 1, end: parent.end, tree: tree)
    }
}
