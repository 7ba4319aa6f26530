import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("Reconciling with what the OS holds")
struct ReconcileTests {
    /// The medication example at the fixed instant, and the same config with Aspirin's
    /// title changed: the morning group keeps its IDs while its text changes.
    static func plans() throws -> (before: Plan, after: Plan) {
        let bytes = try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("medication.plist"))
        var config = try #require(ReminderCompiler.check(bytes, path: "medication.plist").config)
        let options = CompileOptions(now: .instant(fixedNow), horizonDays: 3, pendingLimit: 0)
        let before = try #require(ReminderCompiler.plan(config, options: options).plan)
        let index = try #require(config.reminders.firstIndex { $0.id == "med-a" })
        config.reminders[index].title = "Aspirin 100"
        let after = try #require(ReminderCompiler.plan(config, options: options).plan)
        return (before, after)
    }

    static func pending(_ plan: Plan) -> [PendingNotification] {
        plan.notifications.map { PendingNotification(id: $0.id, fingerprint: $0.fingerprint) }
    }

    @Test("fingerprints change with what the OS shows and only with that")
    func fingerprints() throws {
        let (before, after) = try Self.plans()
        let changedIDs = Set(zip(before.notifications, after.notifications).filter { $0.fingerprint != $1.fingerprint }.map(\.0.id))
        // Exactly the notifications whose shown text changed (a group's body lists its
        // members' titles; follow-ups have their own) get a new fingerprint.
        let showing = Set(zip(before.notifications, after.notifications).filter { $0.title != $1.title || $0.body != $1.body }.map(\.0.id))
        #expect(changedIDs == showing)
        #expect(!changedIDs.isEmpty)
        var resequenced = before.notifications[0]
        resequenced.sequence += 3
        resequenced.replaces = ["x"]
        #expect(resequenced.fingerprint == before.notifications[0].fingerprint)
        #expect(before.notifications.allSatisfy { $0.fingerprint.utf8.count == 16 })
    }

    @Test("a fingerprint's sixteen hex digits are the value's, and read back to it")
    func fingerprintDigits() {
        var generator = SeededGenerator(seed: 16)
        let values: [UInt64] = [0, 1, 0xF, 0x10, 0xFF, 0xA5A5_5A5A_0F0F_F0F0, .max]
            + (0..<500).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
        for value in values {
            let expected = String(repeating: "0", count: 16 - String(value, radix: 16).count) + String(value, radix: 16)
            let digits = FingerprintHash.hexDigits(of: value)
            #expect(digits == expected)
            #expect(FingerprintHash.value(ofHexDigits: digits) == value)
        }
    }

    @Test("what the OS holds already: nothing to do")
    func nothingToDo() throws {
        let (before, _) = try Self.plans()
        let result = before.reconcile(pending: Self.pending(before))
        #expect(!result.hasChanges)
        #expect(result.unchanged == before.notifications.count)
        #expect(result.notes.isEmpty)
    }

    @Test("text changed in place under the same ID: removed and added again")
    func changedInPlace() throws {
        let (before, after) = try Self.plans()
        let result = after.reconcile(pending: Self.pending(before))
        let changed = zip(before.notifications, after.notifications).filter { $0.fingerprint != $1.fingerprint }.map(\.1.id)
        #expect(result.remove == changed)
        #expect(result.add.map(\.id) == changed)
        #expect(result.unchanged == after.notifications.count - changed.count)
        // Comparing IDs alone would have found nothing to do.
        #expect(Set(before.notifications.map(\.id)) == Set(after.notifications.map(\.id)))
    }

    @Test("permission revoked: the OS reports nothing pending, so everything is added and the note says so")
    func nothingPending() throws {
        let (before, _) = try Self.plans()
        let result = before.reconcile(pending: [])
        #expect(result.remove.isEmpty)
        #expect(result.add == before.notifications)
        #expect(result.notes == ["nothing of remindc's is pending: all \(before.notifications.count) notifications are added (a new install, or notifications turned off and on again)"])
    }

    @Test("the app's own notifications are left alone; stale and unfingerprinted ones of remindc's are replaced")
    func foreignAndStale() throws {
        let (before, _) = try Self.plans()
        var pending = Self.pending(before)
        let first = before.notifications[0]
        pending[1].fingerprint = nil
        pending += [
            PendingNotification(id: "welcome-tour"), PendingNotification(id: "promo", fingerprint: nil),
            PendingNotification(id: "med-a-20260101-0920"), PendingNotification(id: "gone-20260101-0920-followup-snooze"),
            PendingNotification(id: "custom", fingerprint: "0123456789abcdef"), PendingNotification(id: first.id, fingerprint: first.fingerprint),
        ]
        let result = before.reconcile(pending: pending)
        #expect(result.foreign == ["welcome-tour", "promo"])
        #expect(result.remove == [before.notifications[1].id, "med-a-20260101-0920", "gone-20260101-0920-followup-snooze", "custom"])
        #expect(result.add.map(\.id) == [before.notifications[1].id])
        #expect(result.unchanged == before.notifications.count - 1)
        // The example reserves no slots, so two foreign notifications may push out the last ones.
        #expect(result.notes == ["2 pending notifications are not remindc's, more than reservedSlots 0: the OS may drop some of the plan's last ones"])
    }

    @Test("fingerprints follow the documented contract, recomputed by Python from the plan JSON")
    func fingerprintContractInPython() async throws {
        let plan = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/plans/medication.with-events.json")
        let script = """
        import calendar, datetime, json, sys
        def fnv(fields):
            h = 0xcbf29ce484222325
            def byte(b):
                nonlocal h
                h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
            for f in fields:
                if f is None:
                    byte(0); continue
                data = f.encode()
                byte(1)
                for b in len(data).to_bytes(8, 'little'): byte(b)
                for b in data: byte(b)
            return '%016x' % h
        plan = json.load(open(sys.argv[1]))
        checked = 0
        for n in plan['notifications']:
            seconds = int(datetime.datetime.fromisoformat(n['fireAt']).timestamp())
            fields = [n['id'], str(seconds), n['title'], n['body'], n.get('category'), n['interruptionLevel'],
                      n.get('sound'), n.get('threadID')]
            for key in sorted(n.get('userInfo', {})):
                fields += [key, n['userInfo'][key]]
            assert fnv(fields) == n['fingerprint'], (n['id'], fnv(fields), n['fingerprint'])
            checked += 1
        print(checked)
        """
        let result = try await run(try #require(Python.executable), ["-c", script, plan.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect((Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 20)
    }

    @Test("remindc reconcile reads a plain list and expo's JSON, and --exit-code says whether to act")
    func commandLine() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (before, _) = try Self.plans()
        let planPath = folder.appendingPathComponent("plan.json").path
        try Data(PlanJSON.encode(before)).write(to: URL(fileURLWithPath: planPath))
        let plain = folder.appendingPathComponent("pending.json")
        let all = before.notifications.map { #"{"id": "\#($0.id)", "fingerprint": "\#($0.fingerprint)"}"# }
        try "[\(all.joined(separator: ", "))]".write(to: plain, atomically: true, encoding: .utf8)
        let same = try await remindc("reconcile", planPath, "--pending", plain.path, "--exit-code")
        #expect(same.status == 0, "\(same.standardError)")
        #expect(same.standardOutput.hasSuffix("Reconcile: 0 to remove, 0 to add, \(before.notifications.count) unchanged, 0 not remindc's.\n"))

        // expo: identifier, content.data.fingerprint; the first notification's text is stale.
        let first = before.notifications[0]
        let expo = folder.appendingPathComponent("expo.json")
        try """
        [{"identifier": "\(first.id)", "content": {"title": "old", "data": {"fingerprint": "ffffffffffffffff"}}, "trigger": {"type": "date", "value": 1}},
         {"identifier": "my-app-nudge", "content": {"title": "Hi", "data": {}}, "trigger": null}]
        """.write(to: expo, atomically: true, encoding: .utf8)
        let changed = try await remindc("reconcile", planPath, "--pending", expo.path, "--exit-code", "--format", "json")
        #expect(changed.status == 2, "\(changed.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(changed.standardOutput.utf8)) as? [String: Any])
        #expect(object["remove"] as? [String] == [first.id])
        #expect((object["add"] as? [[String: Any]])?.count == before.notifications.count)
        #expect(object["foreign"] as? [String] == ["my-app-nudge"])

        let bad = folder.appendingPathComponent("bad.json")
        try "[{\"id\": \"a\"},\n 42]".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await remindc("reconcile", planPath, "--pending", bad.path)
        #expect(refused.status == 1)
        #expect(refused.standardError == "\(bad.path):2:2: error: each pending notification must be an object with 'id' (or expo's 'identifier')\n")
    }
}

extension ReconcileTests {
    @Test("a plan built in code that holds an ID twice: a matched ID adds neither copy, an unmatched one adds both")
    func duplicateIDsInCode() throws {
        var plan = try Self.plans().before
        let first = plan.notifications[0], second = plan.notifications[1]
        plan.notifications = [first, first, second, second]
        let reconciliation = plan.reconcile(pending: [PendingNotification(id: first.id, fingerprint: first.fingerprint)])
        #expect(reconciliation.unchanged == 1)
        #expect(reconciliation.add.map(\.id) == [second.id, second.id])
        #expect(reconciliation.remove.isEmpty)
    }

    /// The reconciliation as the contract states it, by ID strings: each pending ID once,
    /// matched when the plan holds it with the same fingerprint text, removed when the plan
    /// lacks it or its fingerprint differs, unless it is the app's own; every planned
    /// notification whose ID no pending request matched is added.
    static func reference(_ plan: Plan, pending: [PendingNotification]) -> Reconciliation {
        var result = Reconciliation()
        var planned: [String: PlannedNotification] = [:]
        for notification in plan.notifications { planned[notification.id] = notification }
        var seen = Set<String>()
        var matched = Set<String>()
        for entry in pending where seen.insert(entry.id).inserted {
            if let notification = planned[entry.id] {
                if entry.fingerprint == notification.fingerprint {
                    matched.insert(entry.id)
                    result.unchanged += 1
                } else {
                    result.remove.append(entry.id)
                }
            } else if entry.fingerprint != nil || Plan.hasRemindcForm(entry.id) {
                result.remove.append(entry.id)
            } else {
                result.foreign.append(entry.id)
            }
        }
        result.add = plan.notifications.filter { !matched.contains($0.id) }
        return result
    }

    @Test("random pending lists (fingerprints right, stale, mistyped or missing; repeated, foreign and unplanned IDs) give the reference's reconciliation")
    func againstReference() throws {
        let (before, after) = try Self.plans()
        var random = SeededGenerator(seed: 0x5EED_0F_0AC1E)
        for round in 0..<300 {
            var plan = round.isMultiple(of: 2) ? before : after
            // A plan built in code may hold an ID twice.
            if round.isMultiple(of: 5), let repeated = plan.notifications.randomElement(using: &random) {
                plan.notifications.insert(repeated, at: Int.random(in: 0...plan.notifications.count, using: &random))
            }
            let source = round.isMultiple(of: 3) ? after : before
            var pending: [PendingNotification] = []
            for notification in source.notifications where Bool.random(using: &random) {
                var fingerprint: String? = notification.fingerprint
                switch Int.random(in: 0..<8, using: &random) {
                case 0: fingerprint = nil
                case 1: fingerprint = fingerprint?.uppercased()
                case 2: fingerprint = fingerprint.map { String($0.dropLast()) }
                case 3: fingerprint = fingerprint.map { String($0.reversed()) }
                case 4: fingerprint = fingerprint.map { $0 + "0" }
                default: break
                }
                pending.append(PendingNotification(id: notification.id, fingerprint: fingerprint))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                pending.append([
                    PendingNotification(id: "app-reminder-\(Int.random(in: 0..<3, using: &random))"),
                    PendingNotification(id: "gone-20261122-0900", fingerprint: nil),
                    PendingNotification(id: "gone-20261122-0900-followup", fingerprint: "0123456789abcdef"),
                    PendingNotification(id: "", fingerprint: nil),
                    PendingNotification(id: "med-a-20261122-09", fingerprint: "ffffffffffffffff"),
                ].randomElement(using: &random)!)
            }
            // Repeats, anywhere in the list.
            for _ in 0..<Int.random(in: 0...2, using: &random) where !pending.isEmpty {
                pending.insert(pending.randomElement(using: &random)!, at: Int.random(in: 0...pending.count, using: &random))
            }
            pending.shuffle(using: &random)
            let found = plan.reconcile(pending: pending)
            let expected = Self.reference(plan, pending: pending)
            #expect(found.remove == expected.remove, "round \(round)")
            #expect(found.add.map(\.id) == expected.add.map(\.id), "round \(round)")
            #expect(found.unchanged == expected.unchanged, "round \(round)")
            #expect(found.foreign == expected.foreign, "round \(round)")
        }
    }

    @Test("a plan whose IDs are made to share one hash slot is reconciled by their text, as the reference does")
    func idsSharingASlot() throws {
        let plan = try Self.plans().before
        #expect(PlannedIDs(plan.notifications).byText == nil, "an ordinary plan is looked up in the table")
        // 100 IDs whose numericId hash names one slot of the 256 the table has for them.
        var crafted = plan
        let template = plan.notifications[0]
        crafted.notifications = []
        var candidate = 0
        while crafted.notifications.count < 100 {
            candidate += 1
            let id = "crafted-\(candidate)"
            guard NotificationID.numericID(of: id) & 255 == 7 else { continue }
            var notification = template
            notification.id = id
            crafted.notifications.append(notification)
        }
        #expect(PlannedIDs(crafted.notifications).byText != nil, "the table gives way once IDs lie too far past their slot")
        var random = SeededGenerator(seed: 0xC0_111DE)
        var pending = crafted.notifications.filter { _ in Bool.random(using: &random) }.map {
            PendingNotification(id: $0.id, fingerprint: Bool.random(using: &random) ? $0.fingerprint : nil)
        }
        pending += [PendingNotification(id: "crafted-0"), PendingNotification(id: "crafted-1", fingerprint: "0123456789abcdef")]
        pending.shuffle(using: &random)
        let found = crafted.reconcile(pending: pending)
        let expected = Self.reference(crafted, pending: pending)
        #expect(found.remove == expected.remove)
        #expect(found.add.map(\.id) == expected.add.map(\.id))
        #expect(found.unchanged == expected.unchanged)
        #expect(found.unchanged > 0)
        #expect(found.foreign == expected.foreign)
    }
}
