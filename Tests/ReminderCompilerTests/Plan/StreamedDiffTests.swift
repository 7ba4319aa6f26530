import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `diff` reads its two plans side by side, a window of each at a time. Whatever pieces
/// the files arrive in and however the plans differ, its answer is the one the full tree
/// reader and the diff of plan values give, and a file it cannot take is one the reader
/// given it whole cannot take either.
@Suite("Plans compared as they are read")
struct StreamedDiffTests {
    struct PlanPair {
        let name: String
        let old: [UInt8], new: [UInt8]
    }

    /// A plan as the full tree reader reads it: the reference, which shares no code with
    /// the stream but the JSON scanner's tokens.
    static func fullyRead(_ bytes: [UInt8]) throws -> Plan {
        var diagnostics = DiagnosticCollector()
        return try #require(PlanReader.read(bytes, path: "plan.json", diagnostics: &diagnostics))
    }

    /// `bytes` in pieces of `size` bytes, then the empty piece that ends a file.
    static func pieces(_ bytes: [UInt8], size: Int) -> () -> [UInt8]? {
        var offset = 0
        return {
            defer { offset = min(bytes.count, offset + size) }
            return Array(bytes[offset..<min(bytes.count, offset + size)])
        }
    }

    /// `bytes` without the whitespace between tokens: the same plan in another layout.
    static func compacted(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if [0x20, 0x0A, 0x0D, 0x09].contains(byte) {
                continue
            }
            result.append(byte)
        }
        return result
    }

    /// Every example planned at two instants 50 hours apart (notifications expired at the
    /// start of the old plan, added at the end of the new), and edits of the later plan:
    /// a title changed in the middle, notifications removed from the start or the middle,
    /// two moved, a `sequence` changed, and the old plan in a compact layout.
    static func planPairs() throws -> [PlanPair] {
        var pairs: [PlanPair] = []
        for url in try TestEnvironment.exampleConfigs() {
            let bytes = Array(try Data(contentsOf: url))
            let name = url.lastPathComponent
            let config = try #require(ReminderCompiler.check(bytes, path: name).config, "\(name)")
            func plan(_ now: String) throws -> Plan {
                let options = CompileOptions(now: .instant(try #require(InstantParsing.rfc3339(now))))
                return try #require(ReminderCompiler.plan(config, options: options).plan, "\(name)")
            }
            let earlier = try plan("2026-11-22T08:00:00Z"), later = try plan("2026-11-24T10:00:00Z")
            let old = PlanJSON.encode(earlier), new = PlanJSON.encode(later)
            pairs.append(PlanPair(name: "\(name), 50 hours later", old: old, new: new))
            pairs.append(PlanPair(name: "\(name), back 50 hours", old: new, new: old))
            pairs.append(PlanPair(name: "\(name), compact against pretty", old: compacted(old), new: new))
            let count = later.notifications.count
            guard count >= 6 else { continue }
            var edited = later
            edited.notifications[count / 2].title += " (changed)"
            pairs.append(PlanPair(name: "\(name), a title changed", old: new, new: PlanJSON.encode(edited)))
            edited = later
            edited.notifications.removeFirst(3)
            edited.notifications.remove(at: count / 2)
            pairs.append(PlanPair(name: "\(name), four removed", old: new, new: PlanJSON.encode(edited)))
            edited = later
            edited.notifications.swapAt(1, count - 2)
            edited.notifications[count / 3].sequence += 12_345
            pairs.append(PlanPair(name: "\(name), two moved and a sequence changed", old: new, new: PlanJSON.encode(edited)))
        }
        return pairs
    }

    @Test("whatever the pieces and however the plans differ, the diff is the one of the plans the full reader reads")
    func sameAsFullReader() throws {
        let pairs = try Self.planPairs()
        #expect(pairs.count >= 30)
        var updates = 0, adds = 0, cancels = 0
        for pair in pairs {
            let reference = PlanDiff(old: try Self.fullyRead(pair.old), new: try Self.fullyRead(pair.new))
            updates += reference.update.count
            adds += reference.add.count
            cancels += reference.cancel.count + reference.expired.count
            #expect(PlanDiff(oldFile: pair.old, newFile: pair.new) == reference, "\(pair.name), whole")
            for size in [1, 5, 97, 4096] {
                let streamed = PlanDiff(oldPieces: Self.pieces(pair.old, size: size), newPieces: Self.pieces(pair.new, size: size))
                #expect(streamed == reference, "\(pair.name), pieces of \(size)")
            }
        }
        // The pairs exercise every outcome.
        #expect(updates > 0 && adds > 0 && cancels > 0)
    }

    @Test("a plan damaged anywhere is taken or refused alike whole and in pieces, and never answered wrongly")
    func damagedPlans() throws {
        let url = TestEnvironment.examples.appendingPathComponent("medication.plist")
        let bytes = Array(try Data(contentsOf: url))
        let config = try #require(ReminderCompiler.check(bytes, path: "medication.plist").config)
        let options = CompileOptions(now: .instant(try #require(InstantParsing.rfc3339("2026-11-22T08:00:00Z"))))
        let plan = PlanJSON.encode(try #require(ReminderCompiler.plan(config, options: options).plan))
        var generator = SeededGenerator(seed: 34)
        let replacements = Array("x0\"\\{}[],: 9\u{7}".utf8) + [0xC3, 0xFF]
        var refused = 0
        for trial in 0..<400 {
            var damaged = plan
            if trial % 4 == 0 {
                damaged.removeLast(Int.random(in: 1...plan.count, using: &generator))
            } else {
                damaged[Int.random(in: 0..<plan.count, using: &generator)] = replacements.randomElement(using: &generator)!
            }
            // The damaged plan as either side, against the intact one.
            for (old, new) in [(damaged, plan), (plan, damaged)] {
                let whole = PlanDiff(oldFile: old, newFile: new)
                let streamed = PlanDiff(oldPieces: Self.pieces(old, size: 13), newPieces: Self.pieces(new, size: 13))
                #expect(streamed == whole, "trial \(trial)")
                if let whole {
                    // Taken: then the full reader takes both, and agrees.
                    var diagnostics = DiagnosticCollector()
                    let oldPlan = try #require(PlanReader.read(old, path: "old.json", diagnostics: &diagnostics), "trial \(trial)")
                    let newPlan = try #require(PlanReader.read(new, path: "new.json", diagnostics: &diagnostics), "trial \(trial)")
                    #expect(whole == PlanDiff(old: oldPlan, new: newPlan), "trial \(trial)")
                } else {
                    refused += 1
                }
            }
        }
        #expect(refused > 200)
    }

    @Test("two plans of 40 000 notifications are compared in windows far smaller than either file")
    func windowsStaySmall() throws {
        let times = (0..<24).map { "<string>\(zeroPadded($0, 2)):10</string>" }.joined()
        let reminders = (0..<5).map {
            reminderXML("r\($0)", schedule: "<key>frequency</key><string>daily</string><key>times</key><array>\(times)</array>")
        }.joined()
        let xml = configXML(reminders: reminders, rootExtra: "<key>horizonDays</key><integer>340</integer><key>pendingLimit</key><integer>0</integer>")
        let config = try #require(ReminderCompiler.check(Array(xml.utf8), path: "c.plist").config)
        func plan(_ now: String) throws -> [UInt8] {
            let options = CompileOptions(now: .instant(try #require(InstantParsing.rfc3339(now))))
            return PlanJSON.encode(try #require(ReminderCompiler.plan(config, options: options).plan))
        }
        let old = try plan("2026-11-22T08:00:00Z"), new = try plan("2026-11-23T08:00:00Z")
        #expect(old.count > 10_000_000)
        let oldWindow = PlanFileWindow(.pieces(Self.pieces(old, size: 1 << 16)))
        let newWindow = PlanFileWindow(.pieces(Self.pieces(new, size: 1 << 16)))
        let diff = try #require(PlanDiff.comparing(oldWindow, newWindow))
        #expect(diff == PlanDiff(old: try Self.fullyRead(old), new: try Self.fullyRead(new)))
        #expect(diff.unchanged > 39_000)
        // A piece, what was left of the last, and room to grow.
        #expect(oldWindow.capacity <= 1 << 18, "\(oldWindow.capacity)")
        #expect(newWindow.capacity <= 1 << 18, "\(newWindow.capacity)")
    }

    @Test("the separators learnt in one kind of object are never applied to another")
    func separatorsStayWithTheirKindOfObject() throws {
        // A category action teaches "after id comes title" with these very bytes; a
        // notification that lists its title right after its ID, and its kind later, must
        // still read its title as its title.
        let plan = """
        {"formatVersion":1,"timeZone":"Europe/Berlin","now":"2026-11-22T09:00:00+01:00",\
        "windowEnd":"2026-11-23T09:00:00+01:00","pendingLimit":0,"reservedSlots":0,\
        "coveredUntil":"2026-11-23T09:00:00+01:00","dropped":0,\
        "categories":{"c":[{"id":"a","title":"single"}]},\
        "notifications":[{"id":"r-20261122-1000","title":"single","kind":"single",\
        "fireAt":"2026-11-22T10:00:00+01:00","slot":"2026-11-22T10:00","reminders":["r"],\
        "body":"","interruptionLevel":"active","numericId":1,"sequence":0}],\
        "suppressed":[],"warnings":[]}
        """
        let bytes = Array(plan.utf8)
        let full = try Self.fullyRead(bytes)
        #expect(full.notifications.first?.title == "single")
        #expect(FastPlanReader.read(bytes) == full)
        #expect(PlanDiff(oldFile: bytes, newFile: bytes)?.unchanged == 1)
        // Room for every kind's members in its 32 entries.
        #expect(FastPlanReader.PlanMember.allCases.count <= 30)
        #expect(FastPlanReader.NotificationMember.allCases.count <= 30)
        #expect(FastPlanReader.SuppressedMember.allCases.count <= 30)
        #expect(FastPlanReader.ActionMember.allCases.count <= 30)
    }
}
