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
        let planned = PlannedIDs(notifications)
        // Read in place, through a span: through the array, each was copied twice.
        let inPlace = notifications.span
        // For each planned notification, whether a pending request holds it, fingerprint
        // and all: flags by position, so that no ID is made or hashed again.
        var matched = [Bool](repeating: false, count: notifications.count)
        // The OS holds one request per ID; a repeated ID in the list is the same one. A
        // planned ID is known again by its place, and only the others are kept as text:
        // a set of every pending ID cost a W1 re-plan 33 000 instructions.
        var held = [Bool](repeating: false, count: notifications.count)
        var seenUnplanned = Set<String>()
        for entry in pending {
            guard let index = planned.place(of: entry.id, in: notifications) else {
                guard seenUnplanned.insert(entry.id).inserted else { continue }
                if entry.fingerprint != nil || Self.hasRemindcForm(entry.id) {
                    result.remove.append(entry.id)
                } else {
                    result.foreign.append(entry.id)
                }
                continue
            }
            guard !held[index] else { continue }
            held[index] = true
            if let fingerprint = entry.fingerprint,
               FingerprintHash.value(ofHexDigits: fingerprint) == inPlace[index].fingerprintValue {
                matched[index] = true
                result.unchanged += 1
            } else {
                result.remove.append(entry.id)
            }
        }
        if planned.distinctCount == notifications.count {
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

/// The places of a plan's notifications by ID, looked up by the bytes of a pending
/// request's ID: an open-addressing table keyed by the IDs' `numericId` hash, which the
/// planner's IDs continue from their key's share. A dictionary keyed by ID strings made
/// each planned ID as a string and hashed it twice, 67 000 instructions of a W1 re-plan
/// and its reconciliation. An ID the plan holds twice (a plan built in code) is found at
/// its last place.
///
/// The hash is not seeded, so a plan file can be made whose IDs share slots: once an ID
/// would lie more than `maximumDistance` slots past its own, the table gives way to a
/// dictionary of the IDs as strings (whose hashing the standard library seeds), and a
/// lookup never walks further than the farthest ID lies. Either way the work stays in
/// proportion to the plan and the pending list.
struct PlannedIDs {
    /// How far past the slot its hash names an ID may lie before the table gives way.
    static let maximumDistance = 32
    /// Places plus one, by the ID's hash; 0 where none is.
    private var slots: [Int]
    private let mask: Int
    /// The farthest any ID lies past its own slot: a lookup looks no further.
    private var farthest = 0
    /// The places by ID, when the table gave way.
    private(set) var byText: [String: Int]?
    /// How many distinct IDs the plan holds.
    private(set) var distinctCount = 0

    init(_ notifications: [PlannedNotification]) {
        var capacity = 4
        while capacity < 2 * notifications.count { capacity *= 2 }
        slots = [Int](repeating: 0, count: capacity)
        mask = capacity - 1
        let inPlace = notifications.span
        for place in inPlace.indices {
            var slot = Int(inPlace[place].storedID.numericID(in: inPlace[place].content)) & mask
            var distance = 0
            while slots[slot] != 0, !Self.sameID(inPlace[slots[slot] - 1], inPlace[place]) {
                slot = (slot + 1) & mask
                distance += 1
                if distance > Self.maximumDistance {
                    var byText: [String: Int] = [:]
                    distinctCount = 0
                    for place in notifications.indices where byText.updateValue(place, forKey: notifications[place].id) == nil {
                        distinctCount += 1
                    }
                    self.byText = byText
                    return
                }
            }
            farthest = max(farthest, distance)
            if slots[slot] == 0 { distinctCount += 1 }
            slots[slot] = place + 1
        }
    }

    /// The place of the notification whose ID is `id`, or nil.
    func place(of id: String, in notifications: [PlannedNotification]) -> Int? {
        if let byText { return byText[id] }
        var id = id
        id.makeContiguousUTF8()
        let bytes = id.utf8.span
        let inPlace = notifications.span
        var slot = Int(NotificationID.numericID(ofBytes: bytes)) & mask
        var distance = 0
        while slots[slot] != 0, distance <= farthest {
            let place = slots[slot] - 1
            if inPlace[place].storedID.withSpan(in: inPlace[place].content, { NotificationID.sameBytes($0, bytes) }) { return place }
            slot = (slot + 1) & mask
            distance += 1
        }
        return nil
    }

    private static func sameID(_ first: borrowing PlannedNotification, _ second: borrowing PlannedNotification) -> Bool {
        first.storedID.withSpan(in: first.content) { firstBytes in
            second.storedID.withSpan(in: second.content) { NotificationID.sameBytes(firstBytes, $0) }
        }
    }
}
