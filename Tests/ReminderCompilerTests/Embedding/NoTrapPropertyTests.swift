import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension LongComputationTests {
    /// A library must never crash its host: random and extreme values on every public field
    /// of a config, its events and the options give a plan or errors, never a trap.
    @Suite("No trap on any value")
    struct NoTrapPropertyTests {
        struct Extremes {
            var random: ScheduleGenerator

            mutating func int() -> Int {
                [0, -1, 1, 2, 4, 5, 59, 60, 720, 1000, 1001, 1440, 1441, 3660, 3661, 1_000_001, Int.max, Int.min, Int(Int32.max)][random.int(0...18)]
            }

            mutating func string() -> String {
                ["", "a", "a b", "-x", "é", String(repeating: "z", count: 300), String(repeating: "long ", count: 20_000), "med-a", "g", "c"][random.int(0...9)]
            }

            mutating func date() -> CivilDate {
                [CivilDate(dayNumber: Int.max), CivilDate(dayNumber: Int.min), CivilDate(dayNumber: 0), CivilDate(dayNumber: -1),
                 "2026-11-23", "9999-12-31", CivilDate(dayNumber: 3_000_000), "not a date"][random.int(0...7)]
            }

            mutating func time() -> LocalTime {
                ["00:00", "23:59", "09:20", "24:00", "", "9:5"][random.int(0...5)]
            }

            mutating func times() -> Schedule.TimesOfDay {
                switch random.int(0...5) {
                case 0: return .list([])
                case 1: return .list((0..<random.int(0...2000)).map { _ in time() })
                case 2:
                    let (first, second) = (time(), time())
                    return .spread(count: int(), window: min(first, second)...max(first, second))
                case 3: return .every(minutes: int(), window: "00:00"..."23:59")
                case 4: return .spread(count: 1440, window: "00:00"..."23:59")
                default: return [time()]
                }
            }

            /// Sets one public field of the config to an extreme value.
            mutating func mutate(_ config: inout ReminderConfig) {
                let index = random.int(0...max(0, config.reminders.count - 1))
                guard !config.reminders.isEmpty else { return }
                switch random.int(0...33) {
                case 0: config.timeZone = [nil, "", "Mars/Base", "UTC", "Pacific/Kiritimati"][random.int(0...4)]
                case 1: config.horizonDays = int()
                case 2: config.pendingLimit = int()
                case 3: config.reservedSlots = int()
                case 4: config.minimumCoverageDays = [Double.nan, .infinity, -1, 0, 3660.5, 1e300][random.int(0...5)]
                case 5: config.calendarName = string()
                case 6: config.uidDomain = string()
                case 7: config.groups[string()] = GroupDefinition(title: string(), body: string(), category: string())
                case 8: config.categories[string()] = (0..<random.int(0...3)).map { _ in NotificationAction(id: string(), title: string(), snoozeMinutes: int()) }
                case 9: config.reminders[index].id = string()
                case 10: config.reminders[index].title = string()
                case 11: config.reminders[index].body = string()
                case 12: config.reminders[index].bodies = (0..<random.int(0...3)).map { _ in string() }
                case 13: config.reminders[index].enabled.toggle()
                case 14: config.reminders[index].group = string()
                case 15: config.reminders[index].activity = string()
                case 16: config.reminders[index].lookback = [.seconds(int()), .sameDay, .hours(.nan), .hours(-1), .hours(1e300)][random.int(0...4)]
                case 17: config.reminders[index].followUp = FollowUp(afterMinutes: int(), title: string(), body: string(), interruptionLevel: .critical)
                case 18: config.reminders[index].category = string()
                case 19: config.reminders[index].userInfo = [string(): string()]
                case 20: config.reminders[index].durationMinutes = int()
                case 21: config.reminders[index].replacesEarlier.toggle()
                case 22: config.reminders[index].schedule.frequency = Schedule.Frequency.allCases[random.int(0...3)]
                case 23: config.reminders[index].schedule.timesOfDay = times()
                case 24: config.reminders[index].schedule.weekdays = Set((0..<random.int(0...7)).map { _ in Weekday.allCases[random.int(0...6)] })
                case 25: config.reminders[index].schedule.monthDays = (0..<random.int(0...4)).map { _ in int() }
                case 26: config.reminders[index].schedule.weekdayOrdinals = [Schedule.WeekdayOrdinal(int(), .friday)]
                case 27: config.reminders[index].schedule.missingDays = random.chance(50) ? .lastDay : .skip
                case 28: config.reminders[index].schedule.interval = int()
                case 29: config.reminders[index].schedule.start = date()
                case 30: config.reminders[index].schedule.end = date()
                case 31: config.reminders[index].schedule.exceptions = [date(), date()]
                case 32: config.reminders[index].schedule.at = (0..<random.int(0...3)).map { _ in LocalDateTime(date: date(), time: time()) }
                default: config.reminders[index].sound = string()
                }
            }

            mutating func options(now: Int64) -> CompileOptions {
                let moments: [CompileOptions.Moment] = [
                    .instant(now), .instant(Int64.max), .instant(Int64.min), .instant(0), .instant(253_402_300_799),
                    .local(LocalDateTime(date: date(), time: time())), .local("2026-03-29T02:30"),
                ]
                var options = CompileOptions(now: random.chance(70) ? .instant(now) : moments[random.int(0...6)])
                if random.chance(20) { options.horizonDays = int() }
                if random.chance(20) { options.pendingLimit = int() }
                if random.chance(10) { options.timeZone = ["", "Nowhere/City", "Europe/Berlin"][random.int(0...2)] }
                return options
            }
        }

        @Test("random extreme values give a plan or errors", .timeLimit(.minutes(3)))
        func neverTraps() async throws {
            var scenarios = PlanScenarioGenerator(seed: 0xBAD_F00D)
            var extremes = Extremes(random: ScheduleGenerator(generator: SeededGenerator(seed: 77)))
            var planned = 0
            var refused = 0
            let sample = ReminderConfig(timeZone: "Europe/Berlin", reminders: [Reminder(id: "x", title: "X", schedule: .daily(times: ["09:00"]))])
            let samplePlan = try #require(ReminderCompiler.plan(sample, options: CompileOptions(now: .instant(1_795_334_400))).plan)
            // 80 rounds take about 30 s alone in a debug build (120 did, until the CI's
            // 20 minutes needed the core this test holds while the external suites run).
            for round in 0..<80 {
                await Task.yield()  // let tests that await a child process have a thread
                let center = CivilDate(dayNumber: scenarios.random.int(19_000...21_000))
                var config = scenarios.config(around: center)
                config.location = .inCode
                for index in config.reminders.indices { config.reminders[index].location = .inCode }
                for _ in 0..<extremes.random.int(1...3) { extremes.mutate(&config) }
                let now = Int64(center.dayNumber) * 86_400 + 3600
                // Extreme instants and lengths in a quarter of the rounds (refused as events), in
                // range in the others, so that configs with extreme values are planned too.
                // The same values are drawn either way, so that the rounds' configs do not change.
                var events = ReminderEvents()
                let extremeEvents = round.isMultiple(of: 4)
                let (activity, activityAt, snoozeAt, minutes) = (extremes.string(), Int64(extremes.int()), Int64(extremes.int()), extremes.int())
                events.logActivity(activity, at: extremeEvents ? activityAt : now - 3_600)
                events.record(
                    .snooze(at: extremeEvents ? snoozeAt : now - 600, minutes: extremeEvents ? minutes : 10), occurrence: "r0-20261123-0900"
                )
                events.record(.done, occurrence: extremes.string())
                let result = ReminderCompiler.plan(config, options: extremes.options(now: now), events: events)
                // The public primitives take unvalidated values too: no slots, never a trap.
                let berlin = try #require(TimeZoneDatabase.system.zone("Europe/Berlin"))
                let timeline = ZoneTimeline(rules: berlin, span: (now - 86_400 * 3)...(now + 86_400 * 10))
                for reminder in config.reminders {
                    _ = reminder.schedule.timesOfDay.resolved
                    _ = reminder.schedule.firesOn(center)
                    _ = reminder.schedule.firstFiringDate(onOrAfter: center, notAfter: center.adding(days: 400))
                    reminder.schedule.forEachSlot(onDates: center...center.adding(days: 3), timeline: timeline) { _ in }
                    _ = ReminderCompiler.upcomingSlots(of: reminder, count: 3, after: now, zone: berlin)
                    _ = ReminderCompiler.upcomingSlots(of: reminder, count: 3, after: Int64.max, zone: berlin)
                }
                _ = ICalendarExport.recurring(config, plan: result.plan ?? samplePlan)
                _ = CivilDate(dayNumber: Int.max).description
                _ = CivilDate(dayNumber: Int.min).adding(days: -1).components
                if result.plan != nil {
                    planned += 1
                    #expect(!result.hasErrors)
                } else {
                    refused += 1
                    #expect(result.hasErrors, "\(result.diagnostics.map(\.formatted))")
                }
                // What validate() accepts, planning accepts too (with the same zone and instant,
                // and the events when they are valid: events out of range are errors of their own).
                if config.validate().allSatisfy({ $0.severity != .error }), case .instant(let instant) = CompileOptions(now: .instant(now)).now {
                    let validEvents = PlanSetup.eventErrors(events).isEmpty ? events : ReminderEvents()
                    let plain = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(instant)), events: validEvents)
                    #expect(plain.plan != nil || plain.diagnostics.contains { ["plan.too-large", "plan.window-year"].contains($0.message.id) },
                            "\(plain.diagnostics.map(\.formatted))")
                }
            }
            // Both outcomes are exercised.
            #expect(planned > 10)
            #expect(refused > 15)
        }
    }
}

/// `NoTrapPropertyTests` under its short name, for the tests of other suites.
typealias NoTrapPropertyTests = LongComputationTests.NoTrapPropertyTests

@Suite("No trap on any plan built in code")
struct NoTrapPlanWritingTests {
    @Test("plans with extreme instants, offsets and numbers are written as JSON, and fingerprinted, without a trap")
    func extremePlans() {
        let seconds: [Int64] = [Int64.max, Int64.min, 0, -1, 253_402_300_799, 253_402_300_800, -62_135_596_801]
        let offsets = [Int.max, Int.min, 0, 59, -50_400, 3600]
        let slot = LocalDateTime(date: CivilDate(dayNumber: Int.max), time: LocalTime(minuteOfDay: 0)!)
        var notifications: [PlannedNotification] = []
        for (index, instant) in seconds.enumerated() {
            for offset in offsets {
                notifications.append(PlannedNotification(
                    id: "n\(index)-\(offset)", kind: .single, fireAt: ZonedInstant(seconds: instant, offsetSeconds: offset), slot: slot,
                    reminders: ["n"], title: "T", body: "B", interruptionLevel: .active, durationMinutes: [Int.min, Int.max, 0][index % 3],
                    sequence: [Int.max, Int.min, 0][index % 3], deferredFrom: ZonedInstant(seconds: instant, offsetSeconds: offset)
                ))
            }
        }
        for zone in ["Europe/Berlin", "UTC", "Nowhere/City"] {
            for edge in seconds {
                let at = ZonedInstant(seconds: edge, offsetSeconds: offsets[Int(edge & 3)])
                let plan = Plan(
                    timeZone: zone, now: at, windowEnd: at, pendingLimit: Int.min, reservedSlots: Int.max, coveredUntil: at,
                    dropped: Int.min, categories: [:], notifications: notifications, suppressed: [], warnings: []
                )
                // Instants are brought into the years 1–9999, offsets within a day.
                let json = String(decoding: PlanJSON.encode(plan), as: UTF8.self)
                #expect(json.contains("\"fireAt\": \"9999-12-31T23:59:59Z\"") && json.contains("\"fireAt\": \"0001-01-01T00:00:00Z\""))
                #expect(notifications.allSatisfy { $0.fingerprint.utf8.count == 16 && !$0.fireAt.rfc3339.isEmpty })
                #expect(notifications.allSatisfy { ZonedInstant.writableRange.contains($0.fireAt.localSeconds - Int64($0.fireAt.writableOffset)) })
            }
        }
    }

    @Test("plans with extreme and far-apart instants are written as calendars without a trap, each event at its instant")
    func extremeCalendars() {
        let seconds: [Int64] = [Int64.max, Int64.min, 0, -1, 253_402_300_799, 253_402_300_800, -62_135_596_801, 1_795_000_000]
        let notifications = seconds.enumerated().map { index, instant in
            PlannedNotification(
                id: "n\(index)", kind: .single, fireAt: ZonedInstant(seconds: instant, offsetSeconds: [Int.max, Int.min, 0, 3600][index % 4]),
                slot: LocalDateTime(date: CivilDate(dayNumber: [Int.max, Int.min, 0][index % 3]), time: LocalTime(minuteOfDay: 0)!),
                reminders: ["n"], title: "T", body: "B", interruptionLevel: .active, durationMinutes: [Int.min, Int.max, 0][index % 3],
                sequence: [Int.max, Int.min, 0][index % 3]
            )
        }
        for zone in ["Europe/Berlin", "UTC", "Nowhere/City"] {
            let at = ZonedInstant(seconds: Int64.min, offsetSeconds: Int.max)
            let plan = Plan(
                timeZone: zone, now: at, windowEnd: at, pendingLimit: 0, reservedSlots: 0, coveredUntil: at,
                dropped: 0, categories: [:], notifications: notifications, suppressed: [], warnings: []
            )
            let lines = ICalendarTextTests.unfold(ICalendarExport.expanded(plan, settings: CalendarSettings()))
                .map { String(decoding: $0, as: UTF8.self) }
            #expect(lines.first == "BEGIN:VCALENDAR" && lines.last == "END:VCALENDAR")
            // A zone the database does not know gives no events (as before); in a known one
            // every event is written at its instant brought into the years 1-9999.
            guard zone != "Nowhere/City" else { continue }
            // Each event's start, the first DTSTART after its UID.
            let starts = lines.indices.filter { lines[$0].hasPrefix("UID:") }.map { index in
                lines[index...].first { $0.hasPrefix("DTSTART") } ?? ""
            }
            // The zone is worked out from the year 1 (the earliest instant and `now`): local
            // time there (Berlin's mean time, +00:53:28), UTC for the instants ages later.
            let yearOne = zone == "UTC" ? "DTSTART;TZID=UTC:00010101T000000" : "DTSTART;TZID=Europe/Berlin:00010101T005328"
            #expect(starts == [
                "DTSTART:99991231T235959Z", yearOne, "DTSTART:19700101T000000Z", "DTSTART:19691231T235959Z",
                "DTSTART:99991231T235959Z", "DTSTART:99991231T235959Z", yearOne, "DTSTART:20261118T110640Z",
            ])
        }
    }
}
