import CXMLShim

/// A document parsed by the C shim (libxml2), freed with the last node that refers to it.
///
/// Invariant: the shim's node pointers stay valid while their document is not freed, so
/// every ``XMLNode`` holds its document.
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

    private init(document: OpaquePointer) {
        unsafe self.document = document
    }

    deinit {
        unsafe rx_document_free(document)
    }

    /// Parses UTF-8 XML with at most `maximumDepth` levels of elements.
    static func parse(_ bytes: [UInt8], maximumDepth: Int) -> Result<XMLTree, Failure> {
        var failure = rx_error()
        let parsed = unsafe bytes.withUnsafeBufferPointer { buffer in
            unsafe buffer.withMemoryRebound(to: CChar.self) { characters in
                unsafe rx_parse(characters.baseAddress, characters.count, Int32(maximumDepth), &failure)
            }
        }
        guard let document = unsafe parsed else {
            // The message is a NUL-terminated array of CChar inside the struct.
            let message = unsafe withUnsafeBytes(of: failure.message) { raw in
                unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .failure(
                Failure(
                    kind: failure.kind, line: Int(failure.line), column: Int(failure.column), offset: Int(failure.offset),
                    message: message
                )
            )
        }
        return .success(unsafe XMLTree(document: document))
    }

    /// The root element, if any.
    var root: XMLNode? {
        unsafe rx_document_root(document).map { unsafe XMLNode(pointer: $0, tree: self) }
    }
}

/// One node of an ``XMLTree``, read through the shim.
@safe struct XMLNode {
    private let pointer: UnsafeRawPointer
    /// Keeps the memory `pointer` points into.
    private let tree: XMLTree

    fileprivate init(pointer: UnsafeRawPointer, tree: XMLTree) {
        unsafe self.pointer = pointer
        self.tree = tree
    }

    /// The byte offset of the element's `<` in the input, or -1 when unknown.
    var offset: Int { Int(unsafe rx_node_offset(pointer)) }

    var kind: rx_node_kind { unsafe rx_node_kind_of(pointer) }

    /// The element's local name, or "" for other nodes.
    var name: String { unsafe rx_node_name(pointer).map { unsafe String(cString: $0) } ?? "" }

    /// Whether the element carries a namespace prefix or declaration.
    var hasNamespace: Bool { unsafe rx_node_has_namespace(pointer) != 0 }

    /// The text of a text or CDATA node, or nil.
    var text: String? { unsafe rx_node_text(pointer).map { unsafe String(cString: $0) } }

    /// The node's children, in document order.
    var children: [XMLNode] {
        var result: [XMLNode] = []
        var child = unsafe rx_node_first_child(pointer)
        while let current = unsafe child {
            result.append(unsafe XMLNode(pointer: current, tree: tree))
            unsafe child = unsafe rx_node_next_sibling(current)
        }
        return result
    }
}
