/// The diff's two forms (Planning rules, "Diff"; the JSON in Plan format): text for
/// people and code review, JSON for programs.
public enum DiffOutput {
    /// The JSON form: `add` and `update` hold whole notifications as the plan writes them.
    public static func json(_ diff: PlanDiff) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 1024 + (diff.add.count + diff.update.count) * 600)
        writer.beginObject()
        writer.field("formatVersion", 1)
        writer.field("add", notifications: diff.add)
        writer.field("cancel", diff.cancel.map(\.id))
        writer.fieldName("update")
        writer.beginArray()
        for update in diff.update {
            writer.element()
            writer.beginObject()
            writer.field("id", update.id)
            writer.fieldName("changes")
            writer.write(update.changes)
            writer.fieldName("notification")
            PlanJSON.write(update.notification, to: &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.field("expired", diff.expired.map(\.id))
        writer.field("unchanged", diff.unchanged)
        writer.fieldName("plan")
        writer.write(diff.plan)
        writer.fieldName("reminders")
        writer.beginArray()
        for summary in diff.byReminder {
            writer.element()
            writer.write(summary)
        }
        writer.endArray()
        writer.endObject()
        writer.append("\n")
        return writer.bytes
    }

    /// The text form: a line per changed reminder (`#`, what changed and how many
    /// notifications it moves), then one aligned line per notification to add (`+`),
    /// cancel (`-`) or update (`~`), then a summary. With `colour`, ANSI colours mark the
    /// three kinds.
    public static func text(_ diff: PlanDiff, colour: Bool = false) -> String {
        let width = (diff.add.map(\.id) + diff.cancel.map(\.id) + diff.update.map(\.id)).map(\.count).max() ?? 0
        func padded(_ id: String) -> String { id + String(repeating: " ", count: max(0, width - id.count)) }
        func paint(_ line: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(line)\u{1B}[0m" : line }
        var lines: [String] = []
        if !diff.plan.isEmpty {
            lines.append(paint("~ plan " + diff.plan.map(\.displayed).joined(separator: "; "), "33"))
        }
        for summary in diff.byReminder {
            lines.append("# \(summary.name): \(summary.description)")
        }
        for notification in diff.add {
            lines.append(paint("+ \(padded(notification.id)) \(notification.fireAt.display)  \(notification.title)", "32"))
        }
        for notification in diff.cancel {
            lines.append(paint("- \(padded(notification.id)) \(notification.fireAt.display)  \(notification.title)", "31"))
        }
        for update in diff.update {
            let changes = update.changes.map(\.displayed)
            lines.append(paint("~ \(padded(update.id)) \(changes.joined(separator: "; "))", "33"))
        }
        let planFields = diff.plan.isEmpty ? "" : "; \(diff.plan.count) plan field\(diff.plan.count == 1 ? "" : "s") changed"
        lines.append(
            "Plan: \(diff.add.count) to add, \(diff.cancel.count) to cancel, \(diff.update.count) to update, "
                + "\(diff.unchanged) unchanged, \(diff.expired.count) expired\(planFields)."
        )
        return lines.joined(separator: "\n") + "\n"
    }
}

extension PlanDiff.ReminderSummary {
    /// The reminder's id, with its title when known: `med-a (Aspirin)`.
    var name: String { title.map { "\(reminder) (\($0))" } ?? reminder }
}

extension PlanDiff.FieldChange {
    /// `title: Old → New`, `(none)` for an absent value.
    var displayed: String {
        "\(field): \(before?.display ?? "(none)") → \(after?.display ?? "(none)")"
    }
}

extension JSONWriter {
    /// Field changes as one object: each field's key holding its `before` and `after`.
    mutating func write(_ changes: [PlanDiff.FieldChange]) {
        beginObject()
        for change in changes {
            fieldName(named: change.field)
            beginObject()
            field("before", change.before)
            field("after", change.after)
            endObject()
        }
        endObject()
    }

    /// A reminder's summary as an object: counts always; times, weekdays, fields changed
    /// one way (`changes`, each key once) and fields changed in several ways (`varied`)
    /// when there are any.
    mutating func write(_ summary: PlanDiff.ReminderSummary) {
        beginObject()
        field("id", summary.reminder)
        if let title = summary.title { field("title", title) }
        if let change = summary.configChange { field("config", change.rawValue) }
        field("add", summary.added)
        field("cancel", summary.cancelled)
        field("update", summary.updated)
        field("newInWindow", summary.newInWindow)
        for (name, before, after) in [
            ("times", summary.timesBefore, summary.timesAfter), ("weekdays", summary.weekdaysBefore, summary.weekdaysAfter),
        ] where !before.isEmpty {
            fieldName(named: name)
            beginObject()
            field("before", before)
            field("after", after)
            endObject()
        }
        if !summary.fieldChanges.isEmpty {
            fieldName("changes")
            write(summary.fieldChanges)
        }
        if !summary.variedFields.isEmpty { field("varied", summary.variedFields) }
        endObject()
    }

    /// A field holding a notification field's value, `null` when absent.
    mutating func field(_ name: StaticString, _ value: FieldValue?) {
        guard let value else {
            fieldName(name)
            append("null")
            return
        }
        switch value {
        case .string(let text): field(name, text)
        case .integer(let number): field(name, number)
        case .instant(let instant): field(name, instant)
        case .strings(let values): field(name, values)
        case .dictionary(let values):
            fieldName(name)
            beginObject()
            for (key, text) in values.sorted(by: { $0.key < $1.key }) { field(named: key, text) }
            endObject()
        case .categories(let categories):
            fieldName(name)
            PlanJSON.write(categories, to: &self)
        }
    }
}
