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
/// (`.invalid`), or when it has the wrong type or range (reported here), so callers
/// simply skip what they cannot use and carry on to find the next error.
struct FieldReader {
    var diagnostics = DiagnosticCollector()

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
            return nil
        }
        return entry
    }

    mutating func string(_ key: String, in fields: Fields, nonEmpty: Bool = false) -> String? {
        guard let entry = fields[key] else { return nil }
        return string(entry.value, key: key, nonEmpty: nonEmpty)
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
        return integer(entry.value, key: key, range: range, rangeText: rangeText)
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

    /// A `<real>`, or an `<integer>` where a real is expected (Config reference).
    mutating func real(_ key: String, in fields: Fields, accepts: (Double) -> Bool, rangeText: String) -> Double? {
        guard let entry = fields[key] else { return nil }
        let value: Double
        switch entry.value.value {
        case .real(let real): value = real
        case .integer(let integer): value = Double(integer)
        default:
            reportWrongType(entry.value, key: key, expected: "a <real> or <integer>")
            return nil
        }
        guard accepts(value) else {
            diagnostics.error(.outOfRange(key, value: formatNumber(value), range: rangeText), at: entry.value.location)
            return nil
        }
        return value
    }

    mutating func boolean(_ key: String, in fields: Fields) -> Bool? {
        guard let entry = fields[key] else { return nil }
        guard case .boolean(let value) = entry.value.value else {
            reportWrongType(entry.value, key: key, expected: "<true/> or <false/>")
            return nil
        }
        return value
    }

    mutating func array(_ key: String, in fields: Fields, nonEmpty: Bool = false) -> [PlistNode]? {
        guard let entry = fields[key] else { return nil }
        guard case .array(let items) = entry.value.value else {
            reportWrongType(entry.value, key: key, expected: "an <array>")
            return nil
        }
        if nonEmpty, items.isEmpty {
            diagnostics.error(.emptyArray(key), at: entry.value.location)
            return nil
        }
        return items
    }

    /// One of a fixed set of strings, with a suggestion for a near miss.
    mutating func choice<Choice>(
        _ key: String, in fields: Fields, from choices: [(String, Choice)], describing name: String
    ) -> Choice? {
        guard let entry = fields[key] else { return nil }
        return choice(entry.value, key: key, from: choices, describing: name)
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
