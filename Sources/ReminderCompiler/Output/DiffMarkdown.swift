extension DiffOutput {
    /// The diff as GitHub-flavoured Markdown for a pull-request comment: a summary line,
    /// the plan-level changes, a row per changed reminder (what changed, how many
    /// notifications it moves), then one table row per notification to add (`+`), cancel
    /// (`−`) or update (`~`), at most `rowLimit` rows and a last one saying how many more.
    public static func markdown(_ diff: PlanDiff, rowLimit: Int = 50) -> String {
        var summary = "\(diff.add.count) to add, \(diff.cancel.count) to cancel, \(diff.update.count) to update, "
            + "\(diff.unchanged) unchanged, \(diff.expired.count) expired"
        if !diff.plan.isEmpty { summary += "; plan fields changed: " + diff.plan.map { "`\($0.field)`" }.joined(separator: ", ") }
        var lines = ["**remindc plan diff:** " + (diff.hasChanges ? summary : "no changes (\(summary))") + "."]
        if !diff.plan.isEmpty {
            lines += ["", "| Plan field | Before | After |", "|---|---|---|"]
            for change in diff.plan {
                lines.append("| `\(change.field)` | \(cell(change.before?.display ?? "(none)")) | \(cell(change.after?.display ?? "(none)")) |")
            }
        }
        let summaries = diff.byReminder
        if !summaries.isEmpty {
            lines += ["", "| Reminder | What changed |", "|---|---|"]
            for summary in summaries.prefix(max(0, rowLimit)) {
                lines.append("| `\(cell(summary.reminder))`\(summary.title.map { " " + cell($0) } ?? "") | \(cell(summary.description)) |")
            }
            if summaries.count > max(0, rowLimit) { lines.append("| | and \(summaries.count - max(0, rowLimit)) more reminders |") }
        }
        var rows: [String] = []
        for notification in diff.add {
            rows.append("| + | `\(notification.id)` | \(notification.fireAt.display) | \(cell(notification.title)) | added |")
        }
        for notification in diff.cancel {
            rows.append("| − | `\(notification.id)` | \(notification.fireAt.display) | \(cell(notification.title)) | cancelled |")
        }
        for update in diff.update {
            let notification = update.notification
            rows.append(
                "| ~ | `\(update.id)` | \(notification.fireAt.display) | \(cell(notification.title)) | "
                    + cell(update.changes.map(\.displayed).joined(separator: "; ")) + " |"
            )
        }
        if !rows.isEmpty {
            lines += ["", "| | Notification | Fires | Title | Change |", "|---|---|---|---|---|"]
            // A negative limit shows no rows (prefix would trap on it).
            let limit = max(0, rowLimit)
            lines += rows.prefix(limit)
            if rows.count > limit { lines.append("| | | | | and \(rows.count - limit) more |") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text that stays inside one table cell: pipes escaped, line breaks as spaces, and
    /// characters that Markdown would read as markup escaped.
    static func cell(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "|", "\\", "*", "_", "`", "<", ">", "[", "]": escaped += "\\" + String(character)
            case "\n", "\r", "\r\n": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
