#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plan files compared in place: each notification's bytes are indexed and compared, and
/// only those that differ are decoded (the invariants of the `Unsafe` folder, in Internals).

extension PlanDiff {
    /// `init(oldFile:newFile:)`: the files' notifications indexed in place, and only those
    /// whose bytes differ read.
    static func comparingFiles(_ oldFile: [UInt8], _ newFile: [UInt8]) -> PlanDiff? {
        unsafe oldFile.withUnsafeBufferPointer { oldBytes in
            unsafe newFile.withUnsafeBufferPointer { newBytes in unsafe comparingFiles(oldBytes, newBytes) }
        }
    }

    private static func comparingFiles(_ oldBytes: UnsafeBufferPointer<UInt8>, _ newBytes: UnsafeBufferPointer<UInt8>) -> PlanDiff? {
        let computed: PlanDiff? = {
            // The old plan's notifications are checked as they are indexed, so each byte of
            // each file is scanned once; a new notification equal to an old one is then
            // checked already.
            guard let old = unsafe FastPlanReader.index(oldBytes, checking: true), let new = unsafe FastPlanReader.index(newBytes)
            else { return nil }
            var diff = PlanDiff()
            diff.plan = PlanDiff.planChanges(from: old.header, to: new.header)
            diff.oldCoveredUntil = old.header.coveredUntil.seconds
            (diff.oldReminders, diff.newReminders) = PlanDiff.reminders(of: old.header, and: new.header)
            // IDs are compared as bytes of the files: no string is made for an unchanged one.
            var oldByID: [PlanIndex.IDBytes: Int] = [:]
            oldByID.reserveCapacity(old.entries.count)
            for index in old.entries.indices { oldByID[old.entries[index].id] = index }
            var matched = [Bool](repeating: false, count: old.entries.count)
            for entry in new.entries {
                guard let oldIndex = oldByID[entry.id] else {
                    guard let notification = unsafe FastPlanReader.notification(in: newBytes, at: entry.range) else { return nil }
                    diff.add.append(notification)
                    continue
                }
                matched[oldIndex] = true
                let oldEntry = old.entries[oldIndex]
                if unsafe PlanIndex.Entry.sameApartFromSequence(oldEntry, in: oldBytes, entry, in: newBytes) {
                    // Checked once for both: the new one differs only in a `sequence` the
                    // index checked.
                    diff.unchanged += 1
                    continue
                }
                guard let before = unsafe FastPlanReader.notification(in: oldBytes, at: oldEntry.range),
                      let after = unsafe FastPlanReader.notification(in: newBytes, at: entry.range)
                else { return nil }
                let changes = PlanDiff.changes(from: before, to: after)
                if changes.isEmpty {
                    diff.unchanged += 1
                } else {
                    diff.update.append(Update(id: after.id, changes: changes, notification: after))
                }
            }
            for (index, entry) in old.entries.enumerated() where !matched[index] {
                guard let notification = unsafe FastPlanReader.notification(in: oldBytes, at: entry.range) else { return nil }
                if notification.fireAt.seconds > new.header.now.seconds {
                    diff.cancel.append(notification)
                } else {
                    diff.expired.append(notification)
                }
            }
            return diff
        }()
        return computed
    }
}

/// Where each notification of a plan file stands, for diffs that skip unchanged ones.
enum PlanIndex {
    /// An ID as bytes of its file, hashed once (FNV-1a) for the dictionary of IDs.
    @safe struct IDBytes: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>
        let hash: UInt64

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            unsafe self.bytes = unsafe bytes
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for unsafe byte in unsafe bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            self.hash = hash
        }

        static func == (lhs: IDBytes, rhs: IDBytes) -> Bool {
            unsafe lhs.bytes.count == rhs.bytes.count
                && (lhs.bytes.isEmpty || memcmp(lhs.bytes.baseAddress!, rhs.bytes.baseAddress!, lhs.bytes.count) == 0)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    struct Entry {
        let id: IDBytes
        /// The notification object's bytes.
        let range: Range<Int>
        /// Where the value of `sequence` starts.
        let sequenceStart: Int

        /// Where the `sequence` value ends.
        func sequenceEnd(in buffer: UnsafeBufferPointer<UInt8>) -> Int {
            var end = sequenceStart
            while end < range.upperBound, unsafe buffer[end] == 0x20 || (buffer[end] >= 0x30 && buffer[end] <= 0x39) { end += 1 }
            return end
        }

        /// Whether two objects have the same bytes apart from their `sequence` values.
        static func sameApartFromSequence(
            _ lhs: Entry, in lhsBuffer: UnsafeBufferPointer<UInt8>, _ rhs: Entry, in rhsBuffer: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            let lhsEnd = unsafe lhs.sequenceEnd(in: lhsBuffer)
            let rhsEnd = unsafe rhs.sequenceEnd(in: rhsBuffer)
            let lhsPrefix = lhs.sequenceStart - lhs.range.lowerBound
            let lhsSuffix = lhs.range.upperBound - lhsEnd
            guard lhsPrefix == rhs.sequenceStart - rhs.range.lowerBound, lhsSuffix == rhs.range.upperBound - rhsEnd,
                  let lhsBase = lhsBuffer.baseAddress, let rhsBase = rhsBuffer.baseAddress
            else { return false }
            return unsafe memcmp(lhsBase + lhs.range.lowerBound, rhsBase + rhs.range.lowerBound, lhsPrefix) == 0
                && memcmp(lhsBase + lhsEnd, rhsBase + rhsEnd, lhsSuffix) == 0
        }
    }
}
