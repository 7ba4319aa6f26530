import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc next CONFIG --reminder ID [--count N] [--now T]`: a reminder's next slots.
struct Next: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "List a reminder's next slots with local time, UTC offset and weekday.",
        discussion: "A check of a schedule for a person: slots that a daylight-saving gap moves are marked. Groups, events and the pending limit do not apply."
    )

    @Argument(help: "The config file (plist XML or JSON).")
    var config: String

    @Option(help: "The reminder's id.")
    var reminder: String

    @Option(parsing: .unconditional, help: "How many slots to list (1–1000).")
    var count: Int = 10

    @OptionGroup var moment: MomentOptions

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [config] }

    func validate() throws {
        if !(1...1000).contains(count) { throw ValidationError("--count must be 1–1000, not \(count)") }
    }

    func run() throws {
        guard let bytes = CommandLineInput.readFile(config) else { throw ExitCode.failure }
        let checked = ReminderCompiler.check(bytes, path: config, options: ConfigOptions(timeZoneOverride: moment.timeZone))
        DiagnosticPrinter.print(checked.diagnostics.filter { $0.severity == .error })
        guard let parsed = checked.config else { throw ExitCode.failure }
        guard let zoneName = moment.timeZone ?? parsed.timeZone, let rules = TimeZoneDatabase.system.zone(zoneName) else {
            throw CommandLineError("no time zone: the config has no 'timeZone'; give --time-zone")
        }
        guard let selected = parsed.reminders.first(where: { $0.id == reminder }) else {
            let suggestion = closestReminder(to: reminder, in: parsed.reminders.map(\.id)).map { "; did you mean '\($0)'?" } ?? ""
            throw CommandLineError("no reminder has the id '\(reminder)'\(suggestion)")
        }
        let now = ReminderCompiler.instant(of: try moment.resolve(), in: rules)
        // A reminder with a zone of its own is listed in that zone, where its times are set.
        let reminderZone = selected.timeZone ?? zoneName
        let reminderRules = TimeZoneDatabase.system.zone(reminderZone) ?? rules
        let slots = ReminderCompiler.upcomingSlots(of: selected, count: count, after: now, zone: reminderRules)
        var lines = ["\(selected.id) in \(reminderZone): next \(slots.count) slot\(slots.count == 1 ? "" : "s")\(selected.enabled ? "" : " (the reminder is disabled)")"]
        for upcoming in slots {
            lines.append(Self.describe(upcoming))
        }
        if slots.isEmpty { lines.append("(no slot after now)") }
        StandardStream.output.write(lines.joined(separator: "\n") + "\n")
    }

    /// `Mon 2026-11-23 09:20 +01:00  med-a-20261123-0920`, with the actual local time
    /// after an arrow when a daylight-saving gap moved the slot.
    static func describe(_ upcoming: UpcomingSlot) -> String {
        let weekday = String(upcoming.slot.local.date.weekday.name.prefix(3)).capitalized
        // `2026-11-23 09:20 +01:00`: the actual local time and offset.
        let actual = upcoming.fireAt.display
        if upcoming.slot.movedByGap {
            let nominal = "\(upcoming.slot.local.date) \(upcoming.slot.local.time)"
            return "\(weekday) \(nominal) → \(actual.dropFirst(11))  \(upcoming.id)  (moved by a daylight-saving gap)"
        }
        return "\(weekday) \(actual)  \(upcoming.id)"
    }

    private func closestReminder(to id: String, in ids: [String]) -> String? {
        func sharedLength(_ other: String) -> Int { zip(other, id).prefix { $0 == $1 }.count }
        return ids.min { lhs, rhs in sharedLength(lhs) > sharedLength(rhs) }.flatMap { sharedLength($0) >= 2 ? $0 : nil }
    }
}
