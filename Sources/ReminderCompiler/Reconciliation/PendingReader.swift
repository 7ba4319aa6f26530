/// Reads the list of pending notifications an app dumps from the OS: a plain JSON array of
/// `{"id", "fingerprint"}` objects, or expo's `getAllScheduledNotificationsAsync()` result
/// as it is (`identifier`, with the fingerprint in `content.data`). Other keys are ignored:
/// these objects carry whatever the platform adds.
enum PendingReader {
    static func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> [PendingNotification]? {
        // Pending lists are written by other programs, with nulls for what they leave out,
        // and can be as long as a plan.
        let reader = JSONReader(maximumInputBytes: ReminderCompiler.maximumPlanBytes, allowsNull: true)
        guard let root = reader.read(bytes, path: path, diagnostics: &diagnostics) else { return nil }
        guard case .array(let items) = root.value else {
            if case .invalid = root.value { return nil }
            diagnostics.error(.pendingRootNotArray, at: root.location)
            return nil
        }
        var pending: [PendingNotification] = []
        pending.reserveCapacity(items.count)
        for item in items {
            guard case .dictionary(let object) = item.value else {
                diagnostics.error(.pendingEntryNotObject, at: item.location)
                continue
            }
            guard case .string(let id)? = (object["id"] ?? object["identifier"])?.value.value, !id.isEmpty else {
                diagnostics.error(.pendingEntryWithoutID, at: item.location)
                continue
            }
            pending.append(PendingNotification(id: id, fingerprint: fingerprint(in: object)))
        }
        return diagnostics.hasErrors ? nil : pending
    }

    /// `fingerprint` at the top, or in expo's `content.data` (or a `userInfo` object).
    private static func fingerprint(in object: PlistDictionary) -> String? {
        if case .string(let value)? = object["fingerprint"]?.value.value { return value }
        for container in ["content", "userInfo", "data"] {
            guard case .dictionary(let inner)? = object[container]?.value.value else { continue }
            if let found = fingerprint(in: inner) { return found }
        }
        return nil
    }
}

extension DiagnosticMessage {
    static var pendingRootNotArray: Self {
        Self(id: "pending.root", "a pending list must be a JSON array of notifications")
    }
    static var pendingEntryNotObject: Self {
        Self(id: "pending.entry", "each pending notification must be an object with 'id' (or expo's 'identifier')")
    }
    static var pendingEntryWithoutID: Self {
        Self(id: "pending.id", "this pending notification has no 'id' (or 'identifier') string")
    }
}

extension ReminderCompiler {
    /// Reads pending notifications dumped from the OS (`[{"id", "fingerprint"}]`, or
    /// expo's `getAllScheduledNotificationsAsync()` JSON); nil with located errors when
    /// the file is not such a list.
    public static func readPending(_ bytes: [UInt8], path: String) -> (pending: [PendingNotification]?, diagnostics: [Diagnostic]) {
        var diagnostics = DiagnosticCollector()
        let pending = PendingReader.read(bytes, path: path, diagnostics: &diagnostics)
        return (pending, diagnostics.sorted)
    }
}
