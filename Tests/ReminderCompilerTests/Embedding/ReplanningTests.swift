import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// An app re-plans the config `check` returned many times: planning starts from what the
/// check made (the validated config, its digests and planning order), unless the config
/// was changed since, or is planned for another zone, which checks it again.
@Suite("re-planning a checked config")
struct ReplanningTests {
    static let now = InstantParsing.rfc3339("2026-11-22T08:00:00Z")!

    static func checkedMedication() throws -> ReminderConfig {
        let url = TestEnvironment.examples.appendingPathComponent("medication.plist")
        return try #require(ReminderCompiler.check(Array(try Data(contentsOf: url)), path: "medication.plist").config)
    }

    /// The same config with what `check` kept dropped, by setting a property to its value.
    static func unchecked(_ config: ReminderConfig) -> ReminderConfig {
        var copy = config
        copy.horizonDays = config.horizonDays
        return copy
    }

    @Test("a checked config plans as the same config checked again would, in its zone and another")
    func sameAsCheckedAgain() throws {
        let config = try Self.checkedMedication()
        #expect(config.checked != nil)
        #expect(Self.unchecked(config).checked == nil)
        for zone in [nil, "Asia/Tokyo"] {
            let options = CompileOptions(now: .instant(Self.now), timeZone: zone)
            let fromCheck = try #require(ReminderCompiler.plan(config, options: options).plan)
            let checkedAgain = try #require(ReminderCompiler.plan(Self.unchecked(config), options: options).plan)
            #expect(PlanJSON.encode(fromCheck) == PlanJSON.encode(checkedAgain), "zone \(zone ?? "of the config")")
            #expect(fromCheck.reminderDigests == checkedAgain.reminderDigests, "zone \(zone ?? "of the config")")
        }
        // Planned in Tokyo, the digests are Tokyo's, not those the check made for the
        // config's own zone.
        let own = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(Self.now))).plan)
        let tokyo = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(Self.now), timeZone: "Asia/Tokyo")).plan)
        #expect(own.reminderDigests != tokyo.reminderDigests)
    }

    @Test("a checked config changed in code is checked again before it is planned")
    func changedIsCheckedAgain() throws {
        let config = try Self.checkedMedication()
        let options = CompileOptions(now: .instant(Self.now))
        var outOfRange = config
        outOfRange.horizonDays = 0
        #expect(ReminderCompiler.plan(outOfRange, options: options).plan == nil)
        // A change deep inside a reminder, made in place, counts as a change too.
        var badInterval = config
        badInterval.reminders[0].schedule.interval = 0
        let result = ReminderCompiler.plan(badInterval, options: options)
        #expect(result.plan == nil)
        #expect(result.diagnostics.contains { $0.severity == .error && $0.formatted.contains("'interval' is 0") })
        // A valid change shows in the plan: a reminder of its own, whose title its
        // notifications show.
        let single = try #require(config.reminders.firstIndex { $0.group == nil && $0.enabled })
        var retitled = config
        retitled.reminders[single].title = "Retitled"
        let plan = try #require(ReminderCompiler.plan(retitled, options: options).plan)
        #expect(plan.notifications.contains { $0.title == "Retitled" })
        #expect(try #require(ReminderCompiler.plan(config, options: options).plan).notifications.allSatisfy { $0.title != "Retitled" })
    }

    @Test("a checked config planned with another zone database is checked against it")
    func otherZoneDatabase() throws {
        let config = try Self.checkedMedication()
        let empty = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = ReminderCompiler.plan(
            config, options: CompileOptions(now: .instant(Self.now)), zones: TimeZoneDatabase(zoneInfoDirectory: empty.path)
        )
        #expect(result.plan == nil)
        #expect(result.diagnostics.contains { $0.severity == .error })
    }

    @Test("a re-plan shows the contents the plans before it made for each reminder, and the bytes a fresh check gives")
    func contentsKeptForThePlansAfter() throws {
        for name in ["medication.plist", "daily-facts.plist"] {
            let url = TestEnvironment.examples.appendingPathComponent(name)
            let config = try #require(ReminderCompiler.check(Array(try Data(contentsOf: url)), path: name).config)
            // By texts and whether a follow-up shows them: a follow-up without texts of its
            // own shows its notification's, as a content of its own.
            var madeEarlier: [[AnyHashable]: ObjectIdentifier] = [:]
            var sharedCount = 0
            // A day apart, so that rotating bodies move on and some contents are new.
            for day in 0..<3 {
                let options = CompileOptions(now: .instant(Self.now + Int64(day) * 86_400))
                let replanned = try #require(ReminderCompiler.plan(config, options: options).plan)
                let fresh = try #require(ReminderCompiler.plan(Self.unchecked(config), options: options).plan)
                #expect(PlanJSON.encode(replanned) == PlanJSON.encode(fresh), "\(name), day \(day)")
                for notification in replanned.notifications where notification.content.texts.group == nil {
                    let key: [AnyHashable] = [notification.content.texts, notification.kind == .followUp]
                    if let earlier = madeEarlier[key] {
                        #expect(earlier == ObjectIdentifier(notification.content), "\(name), day \(day): \(notification.id)")
                        if day > 0 { sharedCount += 1 }
                    } else {
                        madeEarlier[key] = ObjectIdentifier(notification.content)
                    }
                }
            }
            #expect(sharedCount > 0, "\(name): no re-plan showed a content made before it")
            // A config changed in code is checked again, with contents of its own.
            var retitled = config
            retitled.reminders[0].title = "Retitled"
            let changed = try #require(ReminderCompiler.plan(retitled, options: CompileOptions(now: .instant(Self.now))).plan)
            #expect(!changed.notifications.contains { madeEarlier.values.contains(ObjectIdentifier($0.content)) }, "\(name)")
        }
    }
}
