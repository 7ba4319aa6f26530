/// A plan diff as one self-contained HTML page: a line per changed reminder, then what to
/// add, cancel and update, each
/// section labelled and coloured, and each update's fields before and after. Like the
/// agenda page: inline CSS only, no scripts, every colour doubled by a label.
public enum DiffHTML {
    /// Renders the page.
    public static func render(_ diff: PlanDiff) -> String {
        var body = "<h1>Plan diff</h1>\n<p class=\"summary\">\(diff.add.count) to add, \(diff.cancel.count) to cancel, "
            + "\(diff.update.count) to update, \(diff.unchanged) unchanged, \(diff.expired.count) expired.</p>\n"
        if !diff.plan.isEmpty {
            body += "<section class=\"plan-fields\" aria-label=\"Plan fields changed\"><h2>Plan fields changed</h2>\n"
            body += changeTable(diff.plan) + "</section>\n"
        }
        let summaries = diff.byReminder
        if !summaries.isEmpty {
            body += "<section class=\"by-reminder\" aria-label=\"By reminder\"><h2>By reminder (\(summaries.count))</h2>\n<ul>\n"
            for summary in summaries {
                body += "<li class=\"reminder\" data-reminder=\"\(HTMLText.escape(summary.reminder))\"><span class=\"name\">"
                    + HTMLText.escape(summary.name) + "</span>: " + HTMLText.escape(summary.description) + "</li>\n"
            }
            body += "</ul>\n</section>\n"
        }
        body += section("add", title: "To add", marker: "+ added", diff.add.map { ($0, nil) })
        body += section("cancel", title: "To cancel", marker: "− cancelled", diff.cancel.map { ($0, nil) })
        body += section("update", title: "To update", marker: "~ updated", diff.update.map { ($0.notification, $0.changes) })
        if !diff.hasChanges { body += "<p class=\"none\">No changes.</p>\n" }
        return HTMLText.page(title: "Plan diff", style: HTMLText.sharedStyle + "\n" + style, body: body)
    }

    private static func section(
        _ name: String, title: String, marker: String, _ rows: [(notification: PlannedNotification, changes: [PlanDiff.FieldChange]?)]
    ) -> String {
        guard !rows.isEmpty else { return "" }
        var html = "<section class=\"\(name)\" aria-label=\"\(title)\"><h2>\(title) (\(rows.count))</h2>\n<ul>\n"
        for (notification, changes) in rows {
            html += "<li class=\"change change-\(name) kind-\(notification.kind.rawValue)\" id=\"\(HTMLText.anchor(notification.id))\" data-id=\"\(HTMLText.escape(notification.id))\" data-change=\"\(name)\">"
            html += "<span class=\"label\">\(marker)</span> <span class=\"time\">\(notification.fireAt.display)</span> "
            html += "<span class=\"title\">\(HTMLText.escape(notification.title))</span> <span class=\"id\">\(HTMLText.escape(notification.id))</span>"
            if let changes { html += changeTable(changes) }
            html += "</li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    private static func changeTable(_ changes: [PlanDiff.FieldChange]) -> String {
        var html = "<table class=\"fields\"><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead><tbody>"
        for change in changes {
            html += "<tr data-field=\"\(HTMLText.escape(change.field))\"><th scope=\"row\">\(HTMLText.escape(change.field))</th>"
            html += "<td class=\"before\"><del>\(HTMLText.escape(change.before?.display ?? "(none)"))</del></td>"
            html += "<td class=\"after\"><ins>\(HTMLText.escape(change.after?.display ?? "(none)"))</ins></td></tr>"
        }
        return html + "</tbody></table>"
    }

    private static let style = """
    ul { list-style: none; padding: 0; }
    .change { margin: 4px 0; padding: 4px 6px; }
    .change-add { background: #e5f5e0; border-left: 5px solid #237a1f; }
    .change-cancel { background: #fbe3e3; border-left: 5px double #b01c1c; }
    .change-update { background: #fff3d6; border-left: 5px dashed #9a6a00; }
    .change .id { color: #444; font-size: 0.85em; margin-left: 0.5em; }
    .reminder { margin: 4px 0; padding: 4px 6px; border-left: 5px solid #555; }
    .reminder .name { font-weight: 600; }
    table.fields { border-collapse: collapse; margin-top: 4px; }
    table.fields th, table.fields td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
    del { color: #8a1010; } ins { color: #135e10; text-decoration: none; font-weight: 600; }
    @media (prefers-color-scheme: dark) {
      .change-add { background: #16301a; } .change-cancel { background: #3a1818; } .change-update { background: #3a3016; }
      .change .id { color: #bbb; } table.fields th, table.fields td { border-color: #444; }
      del { color: #f08080; } ins { color: #7fd67f; }
    }
    """
}
