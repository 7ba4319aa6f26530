/// What a notification shows and whom it is for: everything its member reminders decide,
/// as opposed to its ID, time and place in the plan.
struct NotificationTexts: Sendable, Hashable {
    var reminders: [String]
    var group: String?
    var title: String
    var body: String
    var interruptionLevel: InterruptionLevel
    var category: String?
    var sound: String?
    var threadID: String?
    var userInfo: [String: String]
    var durationMinutes: Int
    var timeZone: String?
}

/// A notification's texts, shared: a year of notifications shows a few hundred distinct
/// texts, so the planner renders each once and every notification that shows it holds a
/// reference. Content the planner made also carries its output bytes, written once
/// (`prepared`), which the plan and calendar writers copy instead of escaping the same
/// texts again for every notification.
final class NotificationContent: Sendable {
    let texts: NotificationTexts
    /// The texts' output bytes; nil for content made one notification at a time (read
    /// from a plan, or built in code), which the writers write field by field.
    let prepared: PreparedContent?
    /// The key that the IDs of the planner's notifications showing it start with (the
    /// group key, else the reminder id), for IDs kept as parts (`StoredID`).
    let idKey: String?
    /// The numericId hash's state after `idKey`'s bytes, which IDs kept as parts continue.
    let idKeyHash: UInt32?
    /// What every notification of the planner's showing this content needs, whether or not
    /// its output is prepared: `idKey`'s bytes, which IDs kept as parts are joined to
    /// (`idKeyBytes`), and the fields the fingerprint hashes after the ID and the instant
    /// (`fingerprintFields`). Nil for content made one notification at a time.
    let identity: ContentIdentity?

    init(_ texts: NotificationTexts, preparingOutput: Bool = false, idKey: String? = nil) {
        self.texts = texts
        prepared = preparingOutput ? PreparedContent(texts, idKey: idKey ?? "") : nil
        self.idKey = idKey
        identity = idKey.map { ContentIdentity(idKey: $0, fingerprintFields: FingerprintHash.fields(of: texts)) }
        idKeyHash = idKey.map { key in
            var key = key
            key.makeContiguousUTF8()
            return NotificationID.numericHash(of: key.utf8.span)
        }
    }

    /// A copy with `change` made to its texts (and no prepared output, which would be stale).
    func changing(_ change: (inout NotificationTexts) -> Void) -> NotificationContent {
        var texts = self.texts
        change(&texts)
        return NotificationContent(texts)
    }
}
