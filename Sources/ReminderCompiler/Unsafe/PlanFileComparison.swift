#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plan files compared as they are read: each notification's bytes are compared, and only
/// those that differ are decoded (the invariants of the `Unsafe` folder, in Internals).

extension PlanDiff {
    /// `init(oldFile:newFile:)`: both files borrowed whole.
    static func comparingFiles(_ oldFile: [UInt8], _ newFile: [UInt8]) -> PlanDiff? {
        unsafe oldFile.withUnsafeBufferPointer { oldBytes in
            unsafe newFile.withUnsafeBufferPointer { newBytes in
                unsafe comparing(PlanFileWindow(borrowing: oldBytes), PlanFileWindow(borrowing: newBytes))
            }
        }
    }

    /// Reads both plans side by side, a notification of each at a time. Plans of the same
    /// config list their notifications in much the same order, so the new plan's next
    /// notification is first compared, byte for byte, with the old plan's, and stepped over
    /// without being scanned when it is the same apart from `sequence`. A notification
    /// that is not waits, kept, for its partner of the same ID in the other plan: read on
    /// from either side, the partner is found among the waiting ones, and the side that
    /// fell behind catches up. What still waits at the end was added or removed.
    ///
    /// The old plan's notifications are checked as they are read, so a new one equal to an
    /// old one is checked too; any other new one is decoded, which checks it. Nil when
    /// either file is not a plan the fast reader takes.
    static func comparing(_ oldWindow: PlanFileWindow, _ newWindow: PlanFileWindow) -> PlanDiff? {
        guard var old = PlanFileStream(oldWindow), var new = PlanFileStream(newWindow) else { return nil }
        var diff = PlanDiff()
        var waitingOld: [String: KeptNotification] = [:], waitingNew: [String: KeptNotification] = [:]
        var oldIDs = HashSet64(), newIDs = HashSet64()
        var updates: [OrderedUpdate] = []
        var oldCount = 0, newCount = 0, oldEnded = false, newEnded = false

        /// Compares a notification with its partner of the same ID.
        func pair(_ before: NotificationText, _ after: NotificationText, newOrdinal: Int) -> Bool {
            if before.isSame(apartFromSequence: after) {
                diff.unchanged += 1
                return true
            }
            guard let beforeValue = before.decoded(), let afterValue = after.decoded() else { return false }
            let changes = PlanDiff.changes(from: beforeValue, to: afterValue)
            if changes.isEmpty {
                diff.unchanged += 1
            } else {
                updates.append(OrderedUpdate(ordinal: newOrdinal, update: Update(id: afterValue.id, changes: changes, notification: afterValue)))
            }
            return true
        }

        while !oldEnded || !newEnded {
            if !oldEnded {
                guard let text = old.nextText(checking: true) else {
                    guard old.plan != nil else { return nil }
                    oldEnded = true
                    continue
                }
                let idHash = text.idHash
                guard oldIDs.insert(idHash) else { return nil }
                defer { oldCount += 1 }
                if !newEnded, new.skipNotification(sameAs: text) {
                    guard newIDs.insert(idHash) else { return nil }
                    diff.unchanged += 1
                    newCount += 1
                    continue
                }
                let id = text.idText
                if let partner = waitingNew.removeValue(forKey: id) {
                    // The new side is ahead: it is not read until the old side catches up.
                    guard partner.withText({ pair(text, $0, newOrdinal: partner.ordinal) }) else { return nil }
                    continue
                }
                waitingOld[id] = KeptNotification(text, ordinal: oldCount)
            }
            // Read on the new side while what it reads was waiting on the old side.
            while !newEnded {
                guard let text = new.nextText(checking: false) else {
                    guard new.plan != nil else { return nil }
                    newEnded = true
                    break
                }
                guard newIDs.insert(text.idHash) else { return nil }
                defer { newCount += 1 }
                let id = text.idText
                guard let partner = waitingOld.removeValue(forKey: id) else {
                    waitingNew[id] = KeptNotification(text, ordinal: newCount)
                    break
                }
                guard partner.withText({ pair($0, text, newOrdinal: newCount) }) else { return nil }
                if waitingOld.isEmpty, !oldEnded { break }
            }
        }
        guard let oldHeader = old.plan, let newHeader = new.plan else { return nil }
        diff.plan = PlanDiff.planChanges(from: oldHeader, to: newHeader)
        diff.oldCoveredUntil = oldHeader.coveredUntil.seconds
        (diff.oldReminders, diff.newReminders) = PlanDiff.reminders(of: oldHeader, and: newHeader)
        diff.update = updates.sorted { $0.ordinal < $1.ordinal }.map(\.update)
        for kept in waitingNew.values.sorted(by: { $0.ordinal < $1.ordinal }) {
            guard let notification = kept.withText({ $0.decoded() }) else { return nil }
            diff.add.append(notification)
        }
        for kept in waitingOld.values.sorted(by: { $0.ordinal < $1.ordinal }) {
            guard let notification = kept.withText({ $0.decoded() }) else { return nil }
            if notification.fireAt.seconds > newHeader.now.seconds {
                diff.cancel.append(notification)
            } else {
                diff.expired.append(notification)
            }
        }
        return diff
    }

    /// An update and the place of its notification in the new plan.
    struct OrderedUpdate {
        let ordinal: Int
        let update: Update
    }
}

/// A set of 64-bit hashes in one array, by open addressing: `Set<UInt64>` hashes each
/// value again with its seeded hasher, which cost a W2 diff 70 M instructions.
struct HashSet64 {
    /// 0 is an empty slot; a hash of 0 is kept as 1, which at worst takes two IDs for one.
    private var slots = [UInt64](repeating: 0, count: 1024)
    private var count = 0

    /// Adds `hash`; false when it was there already.
    mutating func insert(_ hash: UInt64) -> Bool {
        let value = hash == 0 ? 1 : hash
        if 4 * (count + 1) > 3 * slots.count { grow() }
        let mask = slots.count - 1
        // The multiply spreads FNV-1a's low bits, which differ little between IDs that
        // differ only at their end.
        var index = Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while slots[index] != 0 {
            if slots[index] == value { return false }
            index = (index + 1) & mask
        }
        slots[index] = value
        count += 1
        return true
    }

    private mutating func grow() {
        // Four times larger: each growth inserts every hash again.
        let old = slots
        slots = [UInt64](repeating: 0, count: 4 * old.count)
        count = 0
        for value in old where value != 0 { _ = insert(value) }
    }
}
