/// A property-list value that knows where it stands in its file.
@_spi(Tooling) public struct PlistNode: Sendable {
    /// The value itself.
    public var value: PlistValue
    /// The line and column of the element's `<`.
    public var location: SourceLocation

    /// Creates a node.
    public init(_ value: PlistValue, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// The value types of an Apple XML property list.
@_spi(Tooling) public enum PlistValue: Sendable {
    /// `<string>`: text, CDATA and character references joined; comments dropped.
    case string(String)
    /// `<integer>`: a 64-bit signed integer.
    case integer(Int64)
    /// `<real>`: a finite double.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// `<date>`: seconds since 1970-01-01T00:00:00Z.
    case date(Int64)
    /// `<data>`: base64-decoded bytes.
    case data([UInt8])
    /// `<array>`.
    case array([PlistNode])
    /// `<dict>`.
    case dictionary(PlistDictionary)
    /// A value that was already reported as an error; readers skip it without a second
    /// diagnostic, so that one mistake gives one message.
    case invalid

    /// The plist element name of this type, as messages name it.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        case .invalid: "invalid value"
        }
    }
}

/// A `<dict>`: its entries in file order, with where each key stands.
@_spi(Tooling) public struct PlistDictionary: Sendable {
    /// One key and its value.
    public struct Entry: Sendable {
        /// The key's text.
        public var key: String
        /// Where the `<key>` element stands.
        public var keyLocation: SourceLocation
        /// The value after it.
        public var value: PlistNode
    }

    /// The entries in file order; keys are unique (the reader reports duplicates).
    public var entries: [Entry]

    /// Creates a dictionary from entries.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The entry for `key`, if present.
    public subscript(key: String) -> Entry? {
        entries.first { $0.key == key }
    }
}
