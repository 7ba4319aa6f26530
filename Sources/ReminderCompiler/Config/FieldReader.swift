/// The entries of one `<dict>` of the config, checked against the keys it may hold.
struct Fields {
    let dictionary: PlistDictionary
    let location: SourceLocation
    /// How messages name this dict: "the config", "reminder 'med-a'".
    let context: String

    subscript(key: String) -> PlistDictionary.Entry? { dictionary[key] }
}

/// Typed access to config values that reports every problem to a collector.
///
/// Each accessor returns nil when the key is absent, when the value was already reported
/// (`.invalid`), or when it has the wrong type (reported here, and recorded as refused),
/// so callers simply skip what they cannot use and carry on to find the next error. The
/// ranges and emptiness some accessors check serve the events reader; a config's values
/// are checked by `ConfigValidator`.
struct FieldReader {
    var diagnostics = DiagnosticCollector()
    /// The key path of the part being read (`reminders[2].schedule`), as the validator
    /// names it; empty at the root.
    var partPath = ""
    /// Key paths of the values this reader refused (reported, or left out where required),
    /// for the validator to say nothing more about (`FileSites`).
    private(set) var refused: Set<String> = []

    /// Records that the value of `key` (a file key) in the current part was refused; an
    /// `elementOf` key records that some element of that array was.
    mutating func refuse(_ key: String, elementOf: Bool = false) {
        let path = keyPath(of: key)
        refused.insert(elementOf ? path + "[]" : path)
    }

    /// Whether the value of `key` (a file key) in the current part was refused.
    func wasRefused(_ key: String) -> Bool {
        !refused.isEmpty && refused.contains(keyPath(of: key))
    }

    /// The validator's key path of `key` (a file key) in the current part.
    private func keyPath(of key: String) -> String {
        let property = FileSites.property(forFileKey: key)
        return partPath.isEmpty ? property : "\(partPath).\(property)"
    }

    /// Records that the current part as a whole was refused.
    mutating func refusePart() {
        refused.insert(partPath)
    }

    /// Opens a `<dict>` node and reports keys outside `known` (except `x-` extensions).
    /// The entries of a dict. Keys not in `known` are errors, unless `ignoringUnknownKeys`
    /// (plans: a later version may add keys, which earlier readers skip).
    mutating func fields(
        of node: PlistNode, named key: String, context: String, known: [String], ignoringUnknownKeys: Bool = false
    ) -> Fields? {
        guard case .dictionary(let dictionary) = node.value else {
            reportWrongType(node, key: key, expected: "a <dict>")
            return nil
        }
        for entry in dictionary.entries where !ignoringUnknownKeys && !known.contains(entry.key) && !entry.key.hasPrefix("x-") {
            diagnostics.error(
                .unknownKey(entry.key, in: context, suggestion: closestMatch(to: entry.key, in: known)),
                at: entry.keyLocation
            )
        }
        return Fields(dictionary: dictionary, location: node.location, context: context)
    }

    mutating func reportWrongType(_ node: PlistNode, key: String, expected: String) {
        if case .invalid = node.value { return }
        diagnostics.error(.wrongType(key, expected: expected, found: node.value.typeName), at: node.location)
    }

    /// Reports a missing required key at the dict.
    mutating func require(_ key: String, in fields: Fields) -> PlistDictionary.Entry? {
        guard let entry = fields[key] else {
            diagnostics.error(.missingKey(key, in: fields.context), at: fields.location)
            refuse(key)
            return nil
        }
        return entry
    }

    mutating func string(_ key: String, in fields: Fields, nonEmpty: Bool = false) -> String? {
        guard let entry = fields[key] else { return nil }
        return refusingNil(string(entry.value, key: key, nonEmpty: nonEmpty), key)
    }

    /// `value`, recording `key` as refused when it is nil.
    private mutating func refusingNil<Value>(_ value: Value?, _ key: String) -> Value? {
        if value == nil { refuse(key) }
        return value
    }

    /// An `<integer>` of any value the platform's `Int` holds: its range is a rule, which the
    /// validator applies.
    mutating func integer(_ key: String, in fields: Fields) -> Int? {
        integer(key, in: fields, range: Int64(Int.min)...Int64(Int.max), rangeText: "")
    }

    mutating func string(_ node: PlistNode, key: String, nonEmpty: Bool = false) -> String? {
        guard case .string(let text) = node.value else {
            reportWrongType(node, key: key, expected: "a <string>")
            return nil
        }
        if nonEmpty, text.isEmpty {
            diagnostics.error(.emptyString(key), at: node.location)
            return nil
        }
        return text
    }

    mutating func integer(_ key: String, in fields: Fields, range: ClosedRange<Int64>, rangeText: String) -> Int? {
        guard let entry = fields[key] else { return nil }
        return refusingNil(integer(entry.value, key: key, range: range, rangeText: rangeText), key)
    }

    mutating func integer(_ node: PlistNode, key: String, range: ClosedRange<Int64>, rangeText: String) -> Int? {
        guard case .integer(let value) = node.value else {
            reportWrongType(node, key: key, expected: "an <integer>")
            return nil
        }
        guard range.contains(value) else {
            diagnostics.error(.outOfRange(key, value: String(value), range: rangeText), at: node.location)
            return nil
        }
        return Int(value)
    }

    /// A `<real>`, or an `<integer>` where a real is expected (Config reference); its range
    /// is a rule, which the validator applies.
    mutating func real(_ key: String, in fields: Fields) -> Double? {
        guard let entry = fields[key] else { return nil }
        switch entry.value.value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default:
            reportWrongType(entry.value, key: key, expected: "a <real> or <integer>")
            refuse(key)
            return nil
        }
    }

    mutating func boolean(_ key: String, in fields: Fields) -> Bool? {
        guard let entry = fields[key] else { return nil }
        guard case .boolean(let value) = entry.value.value else {
            reportWrongType(entry.value, key: key, expected: "<true/> or <false/>")
            refuse(key)
            return nil
        }
        return value
    }

    mutating func array(_ key: String, in fields: Fields, nonEmpty: Bool = false, atMost limit: Int = .max) -> [PlistNode]? {
        guard let entry = fields[key] else { return nil }
        guard case .array(let items) = entry.value.value else {
            reportWrongType(entry.value, key: key, expected: "an <array>")
            refuse(key)
            return nil
        }
        if items.count > limit {
            diagnostics.error(.tooManyEntries(key, limit: limit), at: items[limit].location)
            refuse(key)
            return nil
        }
        if nonEmpty, items.isEmpty {
            diagnostics.error(.emptyArray(key), at: entry.value.location)
            refuse(key)
            return nil
        }
        return items
    }

    /// Whether `dictionary`, the value of `key` (a file key), holds at most `limit` entries;
    /// when not, reports it at the first entry past the limit and records `key` as refused.
    mutating func withinEntryLimit(_ dictionary: PlistDictionary, key: String, limit: Int) -> Bool {
        guard dictionary.entries.count > limit else { return true }
        diagnostics.error(.tooManyEntries(key, limit: limit), at: dictionary.entries[limit].keyLocation)
        refuse(key)
        return false
    }

    /// One of a fixed set of strings, with a suggestion for a near miss.
    mutating func choice<Choice>(
        _ key: String, in fields: Fields, from choices: [(String, Choice)], describing name: String
    ) -> Choice? {
        guard let entry = fields[key] else { return nil }
        return refusingNil(choice(entry.value, key: key, from: choices, describing: name), key)
    }

    mutating func choice<Choice>(
        _ node: PlistNode, key: String, from choices: [(String, Choice)], describing name: String
    ) -> Choice? {
        guard let text = string(node, key: key) else { return nil }
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let names = choices.map(\.0)
        diagnostics.error(
            .unknownValue(name, value: text, expected: names, suggestion: closestMatch(to: text, in: names)),
            at: node.location
        )
        return nil
    }
}

/// A number as messages show it: no trailing `.0` on whole numbers.
func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
