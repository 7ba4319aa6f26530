/// The agenda as terminal text: one heading per day, an indented line per notification,
/// follow-ups and snoozes further in under their parent. Every status is spelled out, so
/// the text reads the same without colour; with `colour`, ANSI escapes set kinds apart.
@_spi(Tooling) public enum AgendaText {
    /// Renders the agenda.
    public static func render(_ agenda: Agenda, colour: Bool = false) -> String {
        let style = Style(enabled: colour)
        var lines: [String] = []
        lines.append(style.bold("Agenda in \(agenda.timeZone) from \(agenda.now.display) to \(agenda.end.display)"))
        if agenda.entriesNotShown > 0 {
            lines.append("The agenda ends at \(agenda.end.display): it shows at most \(Agenda.maximumEntries) entries, and \(agenda.entriesNotShown) later ones are left out.")
        }
        if agenda.dropped > 0, let covered = agenda.coveredUntil {
            lines.append("The budget schedules notifications until \(covered.display); \(agenda.dropped) later ones wait for the next plan.")
        }
        var cutShown = false
        for day in agenda.days {
            lines.append("")
            let weekday = String(day.date.weekday.name.prefix(3)).capitalized
            lines.append(style.bold("\(weekday) \(day.date)"))
            for change in day.clockChanges {
                lines.append("  " + style.colour(.blue, describe(change)))
            }
            for entry in day.entries {
                if !cutShown, let covered = agenda.coveredUntil, entry.fireAt.seconds >= covered.seconds {
                    lines.append("  " + style.colour(.red, "── coverage ends here (\(covered.display)): later notifications are not scheduled yet"))
                    cutShown = true
                }
                append(entry, depth: 1, to: &lines, style: style)
            }
        }
        if agenda.days.isEmpty { lines += ["", "(nothing in this window)"] }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func append(_ entry: Agenda.Entry, depth: Int, to lines: inout [String], style: Style) {
        let indent = String(repeating: "  ", count: depth)
        let local = entry.fireAt.display
        // `HH:MM`: a child on another day is preceded by its date.
        let time = String(local.dropFirst(11).prefix(5))
        var text = "\(time)  \(paddedLabel(entry.kind))  \(entry.title)"
        if entry.kind == .group || entry.reminders.count > 1 { text += " [\(entry.reminders.joined(separator: ", "))]" }
        if let home = entry.homeZone { text += " (\(home.time.display.dropFirst(11).prefix(5)) in \(home.name))" }
        if let deferred = entry.deferredFrom { text += " (deferred by quiet hours from \(deferred.display.dropFirst(11).prefix(5)))" }
        if !entry.removedMembers.isEmpty {
            text += " (without " + entry.removedMembers.map { "\($0.reminder): \($0.reason.rawValue)" }.joined(separator: ", ") + ")"
        }
        text += "  " + entry.id
        switch entry.status {
        case .planned:
            lines.append(indent + style.colour(colour(of: entry.kind), text))
        case .suppressed(let reason):
            lines.append(indent + style.dim("\(text)  — suppressed (\(reason.rawValue))"))
        case .dropped:
            lines.append(indent + style.dim("\(text)  — dropped by the budget"))
        }
        for child in entry.children {
            let childDate = Agenda.localDate(of: child.fireAt)
            if childDate != Agenda.localDate(of: entry.fireAt) {
                lines.append(indent + "  " + style.dim("(\(childDate))"))
            }
            append(child, depth: depth + 1, to: &lines, style: style)
        }
    }

    static func describe(_ change: Agenda.ClockChange) -> String {
        let before = ZonedInstant(seconds: change.instant, offsetSeconds: change.offsetBefore).display
        let after = ZonedInstant(seconds: change.instant, offsetSeconds: change.offsetAfter).display
        let from = before.dropFirst(11).prefix(5)
        let to = after.dropFirst(11).prefix(5)
        return change.isGap
            ? "clocks go forward at \(from) to \(to) (\(offset(change.offsetBefore)) → \(offset(change.offsetAfter))): times from \(from) to \(to) do not exist and fire after the change"
            : "clocks go back at \(from) to \(to) (\(offset(change.offsetBefore)) → \(offset(change.offsetAfter))): times from \(to) to \(from) occur twice and fire the first time"
    }

    private static func offset(_ seconds: Int) -> String { ZonedInstant.offsetText(seconds) }

    static func label(_ kind: PlannedNotification.Kind) -> String {
        switch kind {
        case .single: return "reminder"
        case .group: return "group"
        case .followUp: return "follow-up"
        case .snooze: return "snooze"
        }
    }

    /// The label in a column nine characters wide (the longest, `follow-up`, fills it).
    static func paddedLabel(_ kind: PlannedNotification.Kind) -> String {
        let text = label(kind)
        return text + String(repeating: " ", count: max(0, 9 - text.count))
    }

    private static func colour(of kind: PlannedNotification.Kind) -> Style.Colour {
        switch kind {
        case .single: return .plain
        case .group: return .cyan
        case .followUp: return .yellow
        case .snooze: return .magenta
        }
    }

    /// ANSI styling, or none.
    struct Style {
        enum Colour: String {
            case plain = "", red = "31", yellow = "33", blue = "34", magenta = "35", cyan = "36"
        }

        let enabled: Bool

        func colour(_ colour: Colour, _ text: String) -> String {
            enabled && colour != .plain ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
        }

        func bold(_ text: String) -> String { enabled ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
        func dim(_ text: String) -> String { enabled ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    }
}
