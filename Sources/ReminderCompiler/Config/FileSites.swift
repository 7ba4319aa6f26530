/// Where the values of a config read from a file stand, and which of them the decoder
/// refused, so that the validator — the one owner of every rule about values — can point
/// at the value a rule is about and say nothing about a value already reported.
///
/// The decoder owns the file's shape: which keys a dict may and must hold, each value's
/// type, the spelling of times, dates and choices. It reads what it can, refuses the rest
/// (reporting it), and hands the validator the config together with these sites. Places
/// are Swift key paths, as the validator names the parts of a config built in code
/// (`reminders[1].followUp.repeatCount`); `sites` translates them to the file's keys.
struct FileSites {
    /// Where the validator reports a rule about a key.
    enum Site {
        /// At the key's value (`'interval' is 0`).
        case value
        /// At the `<key>` element itself (a key that must not be there).
        case key
        /// At the part the key belongs to, as given by the caller (a reminder that
        /// repeats another's id is pointed at as a whole).
        case part
    }

    /// The root of the tree the config was decoded from.
    let root: PlistNode
    /// Key paths of values the decoder refused, `key[]` for an array of which some
    /// element was refused.
    let refused: Set<String>

    /// Whether `keyPath`, or a part that holds it, was refused.
    func isRefused(_ keyPath: String) -> Bool {
        guard !refused.isEmpty else { return false }
        if refused.contains(keyPath) { return true }
        var index = keyPath.endIndex
        while index > keyPath.startIndex {
            index = keyPath.index(before: index)
            let character = keyPath[index]
            if character == "." || character == "[", refused.contains(String(keyPath[..<index])) { return true }
        }
        return false
    }

    /// Whether `keyPath` or any element of it was refused: an array of which an element was
    /// refused may look emptier than the file wrote it.
    func isRefusedInPart(_ keyPath: String) -> Bool {
        isRefused(keyPath) || refused.contains(keyPath + "[]")
    }

    /// Where the value (or key) at `keyPath` stands; the deepest part of it the file holds
    /// when the file leaves the key out. With `element`, the first element holding that
    /// integer of the array that `keyPath` indexes (`days[1]` names an element of the
    /// sorted days, not of the file's array).
    func location(of keyPath: String, site: Site, element: Int64? = nil) -> SourceLocation? {
        var node = root
        var keyLocation: SourceLocation?
        var components = Self.components(of: keyPath)
        if element != nil, case .index? = components.last { components.removeLast() }
        for component in components {
            switch (component, node.value) {
            case (.index(let index), .array(let items)) where items.indices.contains(index):
                node = items[index]
                keyLocation = nil
            case (.key(let name), .dictionary(let dictionary)):
                guard let entry = Self.fileKeys(for: name).lazy.compactMap({ dictionary[$0] }).first else {
                    return node.location
                }
                node = entry.value
                keyLocation = entry.keyLocation
            default:
                return node.location
            }
        }
        if let element, case .array(let items) = node.value,
           let match = items.first(where: { if case .integer(element) = $0.value { true } else { false } })
        {
            return match.location
        }
        return site == .key ? keyLocation ?? node.location : node.location
    }

    private enum Component {
        case key(String)
        case index(Int)
    }

    /// `reminders[2].schedule.days` → key, index, key, key.
    private static func components(of keyPath: String) -> [Component] {
        var components: [Component] = []
        for part in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                components.append(.key(String(rest[..<bracket])))
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    guard let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else { break }
                    components.append(.index(index))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(String(rest)))
            }
        }
        return components
    }

    /// The Swift properties of config parts that are read from keys of other names (`repeat`
    /// is a keyword; a lookback is read from three keys); every other property is read
    /// from the key of its own name.
    private static let renamedProperties: [(property: String, fileKeys: [String])] = [
        ("repeatCount", ["repeat"]),
        ("lookback", ["lookbackHours", "lookbackSameDay", "countsEntries"]),
    ]

    /// The file keys a Swift property of a config part is read from.
    static func fileKeys(for property: String) -> [String] {
        renamedProperties.first { $0.property == property }?.fileKeys ?? [property]
    }

    /// The Swift property a file key is read into; the inverse of `fileKeys(for:)`.
    static func property(forFileKey key: String) -> String {
        renamedProperties.first { $0.fileKeys.contains(key) }?.property ?? key
    }
}
