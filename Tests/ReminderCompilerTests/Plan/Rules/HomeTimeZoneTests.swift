import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A reminder's own `timeZone` (Planning rules, "Time zones and daylight-saving changes"): its times stay in that zone wherever the plan's
/// zone is.
@Suite("Home time zone")
struct HomeTimeZoneTests {
    @Test("the example: Berlin times in a New York plan, IDs and slots in Berlin time, quiet hours on New York's clock")
    func example() async throws {
        let result = try await remindc("compile", "examples/home-time-zone.plist", "--now", "2026-11-22T08:00:00Z")
        #expect(result.status == 0, "\(result.standardError)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.standardOutput.utf8))
        func find(_ id: String) -> PlannedNotification? { plan.notifications.first { $0.id == id } }
        // 20:00 in Berlin (+01:00) is 14:00 in New York (-05:00).
        let evening = try #require(find("insulin-20261122-2000"))
        #expect(evening.fireAt.rfc3339 == "2026-11-22T14:00:00-05:00")
        #expect(evening.slot.description == "2026-11-22T20:00")
        #expect(evening.timeZone == "Europe/Berlin")
        // 08:00 in Berlin is 02:00 in New York, inside the quiet hours (22:00–07:00), but
        // the insulin is critical, its follow-up too.
        #expect(find("insulin-20261123-0800")?.fireAt.rfc3339 == "2026-11-23T02:00:00-05:00")
        #expect(find("insulin-20261123-0800-followup")?.fireAt.rfc3339 == "2026-11-23T02:30:00-05:00")
        // The morning pills, 09:00 in Berlin, are due at 03:00 in New York: deferred to 07:00.
        let pills = try #require(find("morning-pills-20261123-0900"))
        #expect(pills.fireAt.rfc3339 == "2026-11-23T07:00:00-05:00")
        #expect(pills.deferredFrom?.rfc3339 == "2026-11-23T03:00:00-05:00")
        #expect(pills.reminders == ["thyroid", "vitamin-d"])
        // The walk follows the plan's zone and carries no timeZone.
        let walk = try #require(find("walk-20261122-1800"))
        #expect(walk.fireAt.rfc3339 == "2026-11-22T18:00:00-05:00")
        #expect(walk.timeZone == nil)
        #expect(result.standardOutput.contains("\"timeZone\": \"Europe/Berlin\""))
    }

    @Test("the calendars name each event in its reminder's zone, with one VTIMEZONE per zone", arguments: ["expanded", "recurring"])
    func calendars(_ style: String) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ics = folder.appendingPathComponent("c.ics").path
        let result = try await remindc(
            "compile", "examples/home-time-zone.plist", "--now", "2026-11-22T08:00:00Z", "-o", "/dev/null", "--ics", ics, "--ics-style", style
        )
        #expect(result.status == 0, "\(result.standardError)")
        let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: ics)), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("TZID:") } == ["TZID:America/New_York", "TZID:Europe/Berlin"])
        #expect(lines.contains("DTSTART;TZID=Europe/Berlin:20261123T080000"))
        #expect(lines.contains("DTSTART;TZID=America/New_York:20261122T180000"))
    }

    @Test("a plan read back writes the same expanded calendar, zones included")
    func calendarFromPlan() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("p.json").path
        let direct = folder.appendingPathComponent("direct.ics").path
        let fromPlan = folder.appendingPathComponent("from-plan.ics").path
        #expect(try await remindc("compile", "examples/home-time-zone.plist", "--now", "2026-11-22T08:00:00Z", "-o", plan, "--ics", direct).status == 0)
        #expect(try await remindc("ics", plan, "-o", fromPlan).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: direct)) == Data(contentsOf: URL(fileURLWithPath: fromPlan)))
    }

    @Test("an unknown zone is an error with a suggestion; group members must share a zone")
    func invalid() {
        let unknown = check(configXML(reminders: reminderXML("r", extra: "<key>timeZone</key><string>Europe/Berln</string>")))
        #expect(unknown.diagnostics.map(\.formatted) == [
            // Column 97: the <string> after `<key>timeZone</key>` on the reminder's line.
            "c.plist:8:97: error: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?",
        ])
        let group = check(configXML(reminders: [
            reminderXML("a", extra: "<key>group</key><string>g</string><key>timeZone</key><string>Europe/Berlin</string>"),
            reminderXML("b", extra: "<key>group</key><string>g</string>"),
        ].joined(separator: "\n")))
        #expect(group.diagnostics.map(\.formatted) == [
            "c.plist:9:1: error: reminder 'b' in group 'g' follows the plan's zone (no timeZone); members of a group share one slot, so they must share 'timeZone'\nc.plist:8:1: note: reminder 'a' has timeZone 'Europe/Berlin'",
        ])
        let inCode = ReminderConfig(timeZone: "UTC", reminders: [
            Reminder(id: "a", title: "A", schedule: .daily(times: ["09:00"]), group: "g", timeZone: "Asia/Tokio"),
            Reminder(id: "b", title: "B", schedule: .daily(times: ["09:00"]), group: "g", timeZone: "Asia/Tokyo"),
        ])
        // An unknown zone is reported once, not also compared with the zone it most likely
        // misspells; two known zones that differ are compared.
        #expect(inCode.validate().map(\.formatted) == [
            "reminders[0].timeZone: error: unknown time zone 'Asia/Tokio'; did you mean 'Asia/Tokyo'?",
        ])
        var twoZones = inCode
        twoZones.reminders[0].timeZone = "Asia/Seoul"
        #expect(twoZones.validate().map(\.formatted) == [
            "reminders[1].timeZone: error: reminder 'b' in group 'g' has timeZone 'Asia/Tokyo'; members of a group share one slot, so they must share 'timeZone'\nreminders[0].timeZone: note: reminder 'a' has timeZone 'Asia/Seoul'",
        ])
    }
}

extension HomeTimeZoneTests {
    // The limit guards against a hang: alone the test takes about 2 s.
    @Test("random configs: each notification's slot is its reminders' local time in their zone, fireAt has the plan zone's offset", .timeLimit(.minutes(3)))
    func againstReference() throws {
        var generator = PlanScenarioGenerator(seed: 0x7A)
        var references: [String: ReferenceExpander] = [:]
        var pinnedChecked = 0
        for round in 0..<300 {
            let center = CivilDate(dayNumber: generator.random.int(19_500...21_000))
            var config = generator.config(around: center)
            config.pendingLimit = 0
            // Every config here pins zones: the generator's own share is smaller.
            let zones = PlanScenarioGenerator.pinnableZones
            var byKey: [String: String?] = [:]
            for index in config.reminders.indices {
                let key = config.reminders[index].group ?? config.reminders[index].id
                if byKey[key] == nil { byKey[key] = generator.random.chance(60) ? zones[generator.random.int(0...zones.count - 1)] : nil }
                config.reminders[index].timeZone = byKey[key] ?? nil
            }
            let now = Int64(center.dayNumber) * 86_400 + Int64(generator.random.int(0...86_399))
            let options = CompileOptions(now: .instant(now), horizonDays: generator.random.int(1...6), pendingLimit: 0)
            let plan = try #require(ReminderCompiler.plan(config, options: options).plan, "round \(round)")
            let planZone = TimeZone(identifier: config.timeZone!)!
            let reminders = Dictionary(uniqueKeysWithValues: config.reminders.map { ($0.id, $0) })
            for notification in plan.notifications {
                let instant = Date(timeIntervalSince1970: TimeInterval(notification.fireAt.seconds))
                #expect(notification.fireAt.offsetSeconds == planZone.secondsFromGMT(for: instant), "round \(round): \(notification.id)")
                let zone = reminders[notification.reminders[0]]?.timeZone ?? config.timeZone!
                #expect(notification.timeZone == (zone == config.timeZone ? nil : zone), "round \(round): \(notification.id)")
                // A notification at its slot (not a follow-up, snooze or deferred one) fires
                // at the slot's instant in the reminders' zone.
                guard notification.parent == nil, notification.deferredFrom == nil else { continue }
                let reference = references[zone] ?? ReferenceExpander(zone: zone)
                references[zone] = reference
                let (year, month, day) = notification.slot.date.components
                let expected = reference.instant(year: year, month: month, day: day, minuteOfDay: notification.slot.time.minuteOfDay)
                #expect(notification.fireAt.seconds == expected.instant, "round \(round): \(notification.id) in \(zone)")
                if zone != config.timeZone { pinnedChecked += 1 }
            }
        }
        #expect(pinnedChecked > 800)
    }
}

extension HomeTimeZoneTests {
    @Test("a diff names timeZone and deferredFrom among the changed fields, and validates against the diff schema")
    func diffFields() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Paris and Berlin share their offsets: pinning one in a plan of the other changes
        // no ID and no instant, only the notification's timeZone.
        let pinned = configXML(
            reminders: reminderXML("r", extra: "<key>timeZone</key><string>Europe/Berlin</string>"), timeZone: "Europe/Paris"
        )
        let quiet = configXML(
            reminders: reminderXML("r"), rootExtra: "<key>quietHours</key><dict><key>from</key><string>08:30</string><key>until</key><string>09:30</string></dict>",
            timeZone: "Europe/Paris"
        )
        let (old, new) = (folder.appendingPathComponent("old.plist"), folder.appendingPathComponent("new.plist"))
        try Data(pinned.utf8).write(to: old)
        try Data(quiet.utf8).write(to: new)
        let previous = folder.appendingPathComponent("old.json").path
        let diff = folder.appendingPathComponent("diff.json")
        #expect(try await remindc("compile", old.path, "--now", "2026-11-22T08:00:00Z", "--horizon-days", "2", "-o", previous).status == 0)
        let compiled = try await remindc(
            "compile", new.path, "--now", "2026-11-22T08:00:00Z", "--horizon-days", "2", "--previous", previous,
            "--diff", diff.path, "-o", folder.appendingPathComponent("new.json").path
        )
        #expect(compiled.status == 0, "\(compiled.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: diff)) as? [String: Any])
        let updates = try #require(object["update"] as? [[String: Any]])
        // 23 November at 09:00 (the 22nd's is not after now). The 24th's, at the window's
        // end, is deferred beyond it: cancelled.
        #expect(updates.compactMap { $0["id"] as? String } == ["r-20261123-0900"])
        #expect(object["cancel"] as? [String] == ["r-20261124-0900"])
        let changes = try #require(updates.first?["changes"] as? [String: [String: Any]])
        #expect(changes.keys.sorted() == ["deferredFrom", "fireAt", "timeZone"])
        #expect(changes["timeZone"]?["before"] as? String == "Europe/Berlin")
        #expect(changes["timeZone"]?["after"] is NSNull)
        #expect(changes["fireAt"]?["after"] as? String == "2026-11-23T09:30:00+01:00")
        let schema = TestEnvironment.repositoryRoot.appendingPathComponent("schema/diff.schema.json")
        let result = try await validateWithJSONSchema(schema: schema, documents: [diff])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }
}
