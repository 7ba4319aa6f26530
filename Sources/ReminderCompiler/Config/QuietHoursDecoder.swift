extension ConfigDecoder {
    static let quietHoursKeys = ["from", "until", "action"]
    static let quietHoursActions = QuietHours.Action.allCases.map { ($0.rawValue, $0) }

    /// The root `quietHours` dict: `from` and `until` (required), `action` (`defer`).
    mutating func decodeQuietHours(_ node: PlistNode) -> QuietHours? {
        guard let fields = reader.fields(of: node, named: "quietHours", context: "quietHours", known: Self.quietHoursKeys) else {
            reader.refuse("quietHours")
            return nil
        }
        let fromEntry = reader.require("from", in: fields)
        let untilEntry = reader.require("until", in: fields)
        let action = reader.choice("action", in: fields, from: Self.quietHoursActions, describing: "quietHours action")
        guard let fromEntry, let untilEntry,
              let from = parse(fromEntry.value, key: "quietHours.from", ConfigValueParsing.time, message: DiagnosticMessage.invalidTime),
              let until = parse(untilEntry.value, key: "quietHours.until", ConfigValueParsing.time, message: DiagnosticMessage.invalidTime)
        else {
            reader.refuse("quietHours")
            return nil
        }
        return QuietHours(from: from, until: until, action: action ?? .defer, location: node.location)
    }
}
