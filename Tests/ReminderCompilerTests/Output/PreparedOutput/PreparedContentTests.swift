import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("prepared notification content")
struct PreparedContentTests {
    /// Random texts with everything the writers treat specially: escapes in JSON and in
    /// iCalendar TEXT, multi-byte characters across the 75-octet fold, absent and empty
    /// fields, user info, durations of 0 and 15 minutes.
    static func randomTexts(using generator: inout SeededGenerator) -> NotificationTexts {
        let pieces = ["a", "é", "💊", ";", ",", "\\", "\"", "\n", "\r\n", "\t", "\u{1}", "long plain words ", "x", "{count}"]
        func text(upTo length: Int) -> String {
            (0..<Int.random(in: 0...length, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        func optional(upTo length: Int) -> String? { Bool.random(using: &generator) ? text(upTo: length) : nil }
        var userInfo: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &generator) { userInfo[text(upTo: 4)] = text(upTo: 6) }
        let reminders = (0..<Int.random(in: 1...3, using: &generator)).map { "r\($0)-\(text(upTo: 2))" }
        return NotificationTexts(
            reminders: reminders, group: optional(upTo: 3), title: text(upTo: 40), body: text(upTo: 60),
            interruptionLevel: InterruptionLevel.allCases.randomElement(using: &generator)!,
            category: optional(upTo: 5), sound: optional(upTo: 3), threadID: optional(upTo: 3), userInfo: userInfo,
            durationMinutes: [0, 15, 45, 1440].randomElement(using: &generator)!,
            timeZone: Bool.random(using: &generator) ? "Europe/Berlin" : nil
        )
    }

    /// The fingerprint as Plan format defines it, over the fields as strings: 64-bit FNV-1a
    /// over each field as a 0 byte when absent, else a 1 byte, its UTF-8 length in eight
    /// bytes (least significant first) and its bytes.
    static func referenceFingerprint(_ notification: PlannedNotification) -> String {
        var state: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ byte: UInt8) { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
        func add(_ field: String?) {
            guard let field else { return add(UInt8(0)) }
            add(UInt8(1))
            let bytes = Array(field.utf8)
            for shift in stride(from: 0, to: 64, by: 8) { add(UInt8((UInt64(bytes.count) >> UInt64(shift)) & 0xFF)) }
            for byte in bytes { add(byte) }
        }
        for field in [notification.id, String(notification.fireAt.seconds), notification.title, notification.body,
                      notification.category, notification.interruptionLevel.rawValue, notification.sound, notification.threadID] {
            add(field)
        }
        for key in notification.userInfo.keys.sorted() {
            add(key)
            add(notification.userInfo[key])
        }
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func plan(of notifications: [PlannedNotification]) -> Plan {
        let now = ZonedInstant(seconds: 1_795_000_000, offsetSeconds: 3600)
        return Plan(
            timeZone: "Europe/Berlin", now: now, windowEnd: now, pendingLimit: 0, reservedSlots: 0, coveredUntil: now,
            dropped: 0, categories: [:], notifications: notifications, suppressed: [], warnings: []
        )
    }

    @Test("prepared content gives the bytes and fingerprint that writing each field gives")
    func preparedEqualsFieldByField() throws {
        var generator = SeededGenerator(seed: 1845)
        var prepared: [PlannedNotification] = []
        var unprepared: [PlannedNotification] = []
        var seconds: Int64 = 0
        for index in 0..<400 {
            let texts = Self.randomTexts(using: &generator)
            // Runs of one instant, as plans have, and instants of every digit count.
            if index == 0 || Bool.random(using: &generator) {
                seconds = Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator) >> Int64.random(in: 0...31, using: &generator)
            }
            let kind = [PlannedNotification.Kind.single, .group, .followUp, .snooze].randomElement(using: &generator)!
            let deferredFrom = Bool.random(using: &generator) ? ZonedInstant(seconds: seconds - 600, offsetSeconds: -12_600) : nil
            for preparing in [true, false] {
                let notification = PlannedNotification(
                    // Some IDs too long for one calendar line.
                    id: "n\(index)-\"\\é-\(String(repeating: "x", count: index % 7 == 0 ? 70 : 0))20261123-0800", kind: kind, fireAt: ZonedInstant(seconds: seconds, offsetSeconds: 3600),
                    slot: LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23)!, time: LocalTime(minuteOfDay: 480)!),
                    parent: index % 3 == 0 ? "p\(index)\n" : nil, replaces: index % 5 == 0 ? ["a", "b\""] : [],
                    content: NotificationContent(texts, preparingOutput: preparing), sequence: [Int(Int32.max), 1, 2, 3, -1, Int.min, Int.max][index % 7],
                    deferredFrom: deferredFrom
                )
                if preparing { prepared.append(notification) } else { unprepared.append(notification) }
            }
        }
        #expect(prepared == unprepared)
        #expect(prepared.map(\.fingerprint) == unprepared.map(\.fingerprint))
        #expect(prepared.map(\.fingerprint) == prepared.map(Self.referenceFingerprint))
        // Compared as booleans: a failure would otherwise print megabytes.
        let sameJSON = PlanJSON.encode(Self.plan(of: prepared)) == PlanJSON.encode(Self.plan(of: unprepared))
        #expect(sameJSON, "the plan JSON differs")
        // Prepared and unprepared in turns (the first element either), as a plan holding
        // notifications made in code and planned ones writes them: the separators of each
        // path continue the other's.
        for firstPrepared in [true, false] {
            let mixed = prepared.indices.map { ($0 % 2 == 0) == firstPrepared ? prepared[$0] : unprepared[$0] }
            let sameMixedJSON = PlanJSON.encode(Self.plan(of: mixed)) == PlanJSON.encode(Self.plan(of: unprepared))
            #expect(sameMixedJSON, "the plan JSON of prepared and unprepared in turns differs")
        }
        let settings = CalendarSettings()
        let calendar = ICalendarExport.expanded(Self.plan(of: prepared), settings: settings)
        let sameCalendar = calendar == ICalendarExport.expanded(Self.plan(of: unprepared), settings: settings)
        #expect(sameCalendar, "the calendar differs")
        // The prepared path was taken, and its texts were escaped and folded.
        #expect(prepared.allSatisfy { $0.content.prepared != nil } && unprepared.allSatisfy { $0.content.prepared == nil })
        let lines = String(decoding: calendar, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.contains { $0.hasPrefix("SUMMARY:") && $0.contains("\\;") })
    }

    @Test("changing a shared content's field changes only that notification")
    func changingSharedContent() {
        var generator = SeededGenerator(seed: 7)
        let content = NotificationContent(Self.randomTexts(using: &generator), preparingOutput: true)
        let slot = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23)!, time: LocalTime(minuteOfDay: 480)!)
        let first = PlannedNotification(
            id: "a-20261123-0800", kind: .single, fireAt: ZonedInstant(seconds: 0, offsetSeconds: 0), slot: slot,
            parent: nil, replaces: [], content: content
        )
        var second = first
        second.title = "Changed"
        #expect(first.title == content.texts.title && second.title == "Changed")
        #expect(second.content.prepared == nil && first != second)
        let json = String(decoding: PlanJSON.encode(Self.plan(of: [second])), as: UTF8.self)
        #expect(json.contains("\"title\": \"Changed\""))
    }

    @Test("a plan returned to an app prepares no output and writes the bytes compile writes")
    func planForAnApp() throws {
        let options = CompileOptions(now: .instant(InstantParsing.rfc3339("2026-11-22T08:00:00Z")!))
        for url in try TestEnvironment.exampleConfigs() {
            let bytes = Array(try Data(contentsOf: url))
            let written = try #require(ReminderCompiler.compile(bytes, path: url.lastPathComponent, options: options).plan)
            let config = try #require(ReminderCompiler.check(bytes, path: url.lastPathComponent).config)
            let returned = try #require(ReminderCompiler.plan(config, options: options).plan)
            let name = url.lastPathComponent
            #expect(!written.notifications.isEmpty, "\(name)")
            #expect(written.notifications.allSatisfy { $0.content.prepared != nil }, "\(name)")
            #expect(returned.notifications.allSatisfy { $0.content.prepared == nil }, "\(name)")
            #expect(returned.notifications.map(\.id) == written.notifications.map(\.id), "\(name)")
            #expect(returned.notifications.map(\.fingerprint) == written.notifications.map(\.fingerprint), "\(name)")
            #expect(returned.notifications.map(\.fingerprint) == returned.notifications.map(Self.referenceFingerprint), "\(name)")
            let sameJSON = PlanJSON.encode(returned) == PlanJSON.encode(written)
            #expect(sameJSON, "\(name): the plan JSON differs")
            let settings = CalendarSettings(config)
            let sameCalendar = ICalendarExport.expanded(returned, settings: settings) == ICalendarExport.expanded(written, settings: settings)
            #expect(sameCalendar, "\(name): the calendar differs")
        }
    }
}
