/// A notification the OS holds pending, as an app reads it back
/// (`UNUserNotificationCenter.pendingNotificationRequests()`, expo's
/// `getAllScheduledNotificationsAsync()`, notifee): its ID and the fingerprint stored in
/// its user info when it was scheduled.
public struct PendingNotification: Sendable, Hashable, Codable {
    /// The OS request's identifier.
    public var id: String
    /// The `fingerprint` stored in its user info; nil for notifications remindc did not
    /// schedule, or scheduled before fingerprints existed.
    public var fingerprint: String?

    /// Creates a pending notification.
    public init(id: String, fingerprint: String? = nil) {
        self.id = id
        self.fingerprint = fingerprint
    }
}

/// What to do so that the OS holds exactly the plan: remove, then add.
///
/// Works without the previous plan (after a reinstall, or a crash between scheduling and
/// saving): only what the OS reports pending counts.
public struct Reconciliation: Sendable, Hashable {
    /// IDs to remove first: remindc's pending notifications that the plan no longer has,
    /// or whose fingerprint differs from the plan's (changed in place, or scheduled without
    /// a fingerprint). In the order they were reported.
    public var remove: [String] = []
    /// Notifications to schedule after the removals, in the plan's order (earliest first):
    /// those not pending, and the new versions of those removed as changed.
    public var add: [PlannedNotification] = []
    /// Pending notifications that already match the plan.
    public var unchanged = 0
    /// Pending IDs that are not remindc's, left alone: the app's own notifications, for
    /// which the config keeps `reservedSlots` free.
    public var foreign: [String] = []
    /// Things the app should know, as sentences: nothing of remindc's was pending (so
    /// everything is added: a reinstall, or notifications permission revoked and granted
    /// again), or more foreign notifications than `reservedSlots` allows.
    public var notes: [String] = []

    /// Whether anything must be removed or added.
    public var hasChanges: Bool { !remove.isEmpty || !add.isEmpty }
}

extension Plan {
    /// Compares the plan with what the OS holds pending: what to remove, then
    /// what to add, so that the OS shows exactly the plan.
    ///
    /// A pending ID is remindc's when it carries a fingerprint, when the plan has it, or
    /// when it has the form of a remindc ID (`{key}-{yyyyMMdd}-{HHmm}`, with `-followup` (`-followup-N`) or
    /// `-snooze` after it); other IDs are the app's own and are left alone.
    public func reconcile(pending: [PendingNotification]) -> Reconciliation {
        var result = Reconciliation()
        var planned: [String: Int] = [:]
        planned.reserveCapacity(notifications.count)
        for index in notifications.indices { planned[notifications[index].id] = index }
        // For each planned notification, whether a pending request holds it, fingerprint
        // and all: flags by position, so that no ID is made or hashed again.
        var matched = [Bool](repeating: false, count: notifications.count)
        var seen = Set<String>(minimumCapacity: pending.count)
        for entry in pending {
            // The OS holds one request per ID; a repeated ID in the list is the same one.
            guard seen.insert(entry.id).inserted else { continue }
            guard let index = planned[entry.id] else {
                if entry.fingerprint != nil || Self.hasRemindcForm(entry.id) {
                    result.remove.append(entry.id)
                } else {
                    result.foreign.append(entry.id)
                }
                continue
            }
            if entry.fingerprint == notifications[index].fingerprint {
                matched[index] = true
                result.unchanged += 1
            } else {
                result.remove.append(entry.id)
            }
        }
        if planned.count == notifications.count {
            result.add = notifications.indices.filter { !matched[$0] }.map { notifications[$0] }
        } else {
            // A plan built in code may hold an ID twice: every copy of a matched ID stays
            // out, as the OS holds one request per ID.
            let matchedIDs = Set(notifications.indices.filter { matched[$0] }.map { notifications[$0].id })
            result.add = notifications.filter { !matchedIDs.contains($0.id) }
        }
        if result.unchanged == 0, result.remove.isEmpty, !notifications.isEmpty {
            result.notes.append(
                "nothing of remindc's is pending: all \(notifications.count) notifications are added "
                    + "(a new install, or notifications turned off and on again)"
            )
        }
        if result.foreign.count > reservedSlots {
            result.notes.append(
                "\(result.foreign.count) pending notifications are not remindc's, more than reservedSlots \(reservedSlots): "
                    + "the OS may drop some of the plan's last ones"
            )
        }
        return result
    }

    /// `{key}-{yyyyMMdd}-{HHmm}`, then any of `-followup` (or `-followup-N`) and `-snooze`.
    static func hasRemindcForm(_ id: String) -> Bool {
        var text = Substring(id)
        while true {
            if text.hasSuffix("-snooze") {
                text = text.dropLast("-snooze".count)
            } else if case let (base, member) = NotificationID.splitFollowUp(text), member > 0 {
                text = base
            } else {
                break
            }
        }
        return OccurrenceReference(String(text)) != nil
    }
}
