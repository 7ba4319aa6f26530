/// The agenda as one self-contained HTML page, titled with the plan's `calendarName`: the
/// next notifications first, links to every week, then a calendar grid per week (days
/// across, hours down, the current time drawn as a line) with each notification as a
/// block in its day and hour, follow-ups and
/// snoozes linked to their parents, suppressed and dropped ones faded with their reason,
/// the coverage edge drawn as a line on its date, and days on which the clocks change
/// marked. Inline CSS and SVG only: no scripts, nothing from the network. Every block
/// carries its kind and status as text, so the page reads the same without colour, in
/// print and to a screen reader.
@_spi(Tooling) public enum AgendaHTML {
    /// Renders the page.
    public static func render(_ agenda: Agenda) -> String {
        var body = ""
        let first = Agenda.localDate(of: agenda.now)
        let last = Agenda.localDate(of: agenda.end)
        let flat = flatten(agenda.days.flatMap(\.entries), parent: nil)
        let planned = flat.filter { $0.entry.status == .planned }.count
        let suppressed = flat.filter { if case .suppressed = $0.entry.status { true } else { false } }.count
        let droppedShown = flat.filter { $0.entry.status == .dropped }.count
        let heading = agenda.calendarName ?? "Reminders"
        body += "<h1>\(HTMLText.escape(heading)) <span class=\"zone\">in \(HTMLText.escape(agenda.timeZone))</span></h1>\n"
        body += "<p class=\"summary\">From \(agenda.now.display) to \(agenda.end.display): \(planned) planned, \(suppressed) suppressed"
        if let covered = agenda.coveredUntil {
            body += ", \(droppedShown) shown as dropped by the budget. Coverage ends at <strong>\(covered.display)</strong>: \(agenda.dropped) later notifications wait for the next plan"
        }
        body += ".</p>\n"
        if agenda.entriesNotShown > 0 {
            body += "<p class=\"summary\">The page ends at \(agenda.end.display): it shows at most \(Agenda.maximumEntries) entries, and \(agenda.entriesNotShown) later ones are left out.</p>\n"
        }
        body += nextUp(flat.map(\.entry))
        body += legend
        var cells: [CivilDate: [Int: [(entry: Agenda.Entry, parent: String?)]]] = [:]
        for item in flat {
            let (date, second) = CivilDate.split(localSeconds: item.entry.fireAt.localSeconds)
            cells[date, default: [:]][second / 3600, default: []].append(item)
        }
        let changes = Dictionary(agenda.days.map { ($0.date, $0.clockChanges) }, uniquingKeysWith: { $0 + $1 })
        let coverage = agenda.coveredUntil.flatMap { covered -> (date: CivilDate, hour: Int, time: String)? in
            let (date, second) = CivilDate.split(localSeconds: covered.localSeconds)
            guard date >= first, date <= last else { return nil }
            return (date, second / 3600, String(covered.display.dropFirst(11).prefix(5)))
        }
        let (nowDate, nowSecond) = CivilDate.split(localSeconds: agenda.now.localSeconds)
        let nowMark = (date: nowDate, hour: nowSecond / 3600, time: String(agenda.now.display.dropFirst(11).prefix(5)))
        var monday = CivilDate(dayNumber: mondayOnOrBefore(first))
        // Weeks with nothing to show are one line, so that a sparse year stays short.
        var emptySince: CivilDate?
        var shownWeeks: [CivilDate] = []
        var mondays: [CivilDate] = []
        while monday <= last {
            mondays.append(monday)
            monday = monday.adding(days: 7)
        }
        for monday in mondays {
            let days = monday...monday.adding(days: 6)
            let isEmpty = !cells.keys.contains(where: days.contains) && !changes.keys.contains(where: { days.contains($0) && !(changes[$0] ?? []).isEmpty })
                && !(coverage.map { days.contains($0.date) } ?? false) && !days.contains(nowMark.date)
            if !isEmpty { shownWeeks.append(monday) }
        }
        var weeksHTML = ""
        for monday in mondays {
            guard let place = shownWeeks.firstIndex(of: monday) else {
                emptySince = emptySince ?? monday
                continue
            }
            if let start = emptySince {
                weeksHTML += "<p class=\"empty-weeks\">Nothing from Monday \(start) to Sunday \(monday.adding(days: -1)).</p>\n"
                emptySince = nil
            }
            let neighbours = (previous: place > 0 ? shownWeeks[place - 1] : nil, next: place + 1 < shownWeeks.count ? shownWeeks[place + 1] : nil)
            weeksHTML += week(
                from: monday, within: first...last, cells: cells, changes: changes, coverage: coverage, now: nowMark, neighbours: neighbours
            )
        }
        if let start = emptySince, let lastMonday = mondays.last {
            weeksHTML += "<p class=\"empty-weeks\">Nothing from Monday \(start) to Sunday \(lastMonday.adding(days: 6)).</p>\n"
        }
        body += weekNavigation(shownWeeks) + weeksHTML
        return HTMLText.page(title: "\(heading) in \(agenda.timeZone)", style: HTMLText.sharedStyle + "\n" + style, body: body)
    }

    /// The next notifications that will fire, at the top of the page: what a person opening
    /// it wants first, each linked to its block in the week below.
    private static func nextUp(_ entries: [Agenda.Entry]) -> String {
        let next = entries.filter { $0.status == .planned }.sorted { ($0.fireAt.seconds, $0.id) < ($1.fireAt.seconds, $1.id) }.prefix(8)
        guard !next.isEmpty else { return "<p class=\"next-none\">Nothing is planned.</p>\n" }
        var html = "<section class=\"next\" aria-label=\"Next notifications\"><h2>Next</h2>\n<ol>\n"
        for entry in next {
            let day = String(Agenda.localDate(of: entry.fireAt).weekday.name.prefix(3)).capitalized
            let when = "\(day) \(entry.fireAt.display.prefix(16))"
            html += "<li><a href=\"#\(HTMLText.anchor(entry.id))\"><span class=\"time\">\(HTMLText.escape(when))</span> "
            html += "<span class=\"title\">\(HTMLText.escape(entry.title))</span></a>"
            if let deferred = entry.deferredFrom { html += " <span class=\"note\">deferred by quiet hours from \(deferred.display)</span>" }
            html += "</li>\n"
        }
        return html + "</ol>\n</section>\n"
    }

    /// Links to every week shown, so that a long page is moved through without scrolling.
    private static func weekNavigation(_ weeks: [CivilDate]) -> String {
        guard weeks.count > 1 else { return "" }
        var html = "<nav class=\"weeks\" aria-label=\"Weeks\"><ul><li><a href=\"#now\" aria-label=\"Now, in its week\">now</a></li>"
        for monday in weeks {
            html += "<li><a href=\"#week-\(monday)\" aria-label=\"Week of Monday \(monday)\">\(monday.description.dropFirst(5))</a></li>"
        }
        return html + "</ul></nav>\n"
    }

    /// Entries with their children after them, each with its parent's ID.
    private static func flatten(_ entries: [Agenda.Entry], parent: String?) -> [(entry: Agenda.Entry, parent: String?)] {
        entries.flatMap { entry in [(entry, parent)] + flatten(entry.children, parent: entry.id) }
    }

    private static func week(
        from monday: CivilDate, within range: ClosedRange<CivilDate>, cells: [CivilDate: [Int: [(entry: Agenda.Entry, parent: String?)]]],
        changes: [CivilDate: [Agenda.ClockChange]], coverage: (date: CivilDate, hour: Int, time: String)?,
        now: (date: CivilDate, hour: Int, time: String), neighbours: (previous: CivilDate?, next: CivilDate?)
    ) -> String {
        let dates = (0..<7).map { monday.adding(days: $0) }
        var html = "<section class=\"week\" id=\"week-\(monday)\" aria-label=\"Week of \(monday)\">\n<h2>Week of Monday \(monday)</h2>\n"
        html += "<p class=\"week-links\">"
        if let previous = neighbours.previous { html += "<a href=\"#week-\(previous)\" aria-label=\"Previous week, Monday \(previous)\">← previous</a> " }
        if let next = neighbours.next { html += "<a href=\"#week-\(next)\" aria-label=\"Next week, Monday \(next)\">next →</a>" }
        // A link to each day of the agenda in this week: on a narrow screen the grid
        // scrolls sideways, and a day's link brings its column into view.
        let days = dates.filter(range.contains).map { date in
            let name = date.weekday.name.capitalized
            return "<a href=\"#day-\(date)\" aria-label=\"\(name) \(date)\">\(name.prefix(3)) \(date.components.day)</a>"
        }
        if !days.isEmpty { html += "<span class=\"day-links\">" + days.joined(separator: " ") + "</span>" }
        html += "</p>\n<div class=\"grid\">\n<table>\n<thead><tr><th scope=\"col\" class=\"hour\">Time</th>"
        for date in dates {
            let inRange = range.contains(date)
            var classes = inRange ? "day" : "day outside"
            var note = ""
            if let dayChanges = changes[date], !dayChanges.isEmpty {
                classes += " clock-change"
                note = dayChanges.map { "<span class=\"note\">\(HTMLText.escape(AgendaText.describe($0)))</span>" }.joined()
            }
            let weekday = String(date.weekday.name.prefix(3)).capitalized
            html += "<th scope=\"col\" class=\"\(classes)\" id=\"day-\(date)\" data-date=\"\(date)\">\(weekday) \(date)\(note)</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for hour in 0..<24 {
            let hourText = zeroPadded(hour, 2)
            html += "<tr data-hour=\"\(hourText)\"><th scope=\"row\" class=\"hour\">\(hourText):00</th>"
            for date in dates {
                html += "<td data-date=\"\(date)\" data-hour=\"\(hourText)\"\(range.contains(date) ? "" : " class=\"outside\"")>"
                var items = cells[date]?[hour] ?? []
                items.sort { ($0.entry.fireAt.seconds, $0.entry.id) < ($1.entry.fireAt.seconds, $1.entry.id) }
                var coverageDrawn = coverage.map { $0.date != date || $0.hour != hour } ?? true
                var nowDrawn = now.date != date || now.hour != hour
                for item in items {
                    if !nowDrawn, item.entry.fireAt.display.dropFirst(11).prefix(5) >= Substring(now.time) {
                        html += nowLine(now)
                        nowDrawn = true
                    }
                    if !coverageDrawn, let coverage, item.entry.fireAt.display.dropFirst(11).prefix(5) >= Substring(coverage.time) {
                        html += coverageLine(coverage)
                        coverageDrawn = true
                    }
                    html += block(item.entry, parent: item.parent)
                }
                if !nowDrawn { html += nowLine(now) }
                if !coverageDrawn, let coverage { html += coverageLine(coverage) }
                html += "</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n</section>\n"
    }

    private static func nowLine(_ now: (date: CivilDate, hour: Int, time: String)) -> String {
        "<div class=\"now-line\" id=\"now\" role=\"note\" data-date=\"\(now.date)\" data-time=\"\(now.time)\">Now, \(now.date) \(now.time)</div>"
    }

    private static func coverageLine(_ coverage: (date: CivilDate, hour: Int, time: String)) -> String {
        "<div class=\"coverage\" role=\"note\" data-date=\"\(coverage.date)\" data-time=\"\(coverage.time)\">Coverage ends \(coverage.date) \(coverage.time): later notifications are not scheduled yet</div>"
    }

    private static func block(_ entry: Agenda.Entry, parent: String?) -> String {
        let time = String(entry.fireAt.display.dropFirst(11).prefix(5))
        let date = Agenda.localDate(of: entry.fireAt)
        let (status, reason): (String, String?) = switch entry.status {
        case .planned: ("planned", nil)
        case .suppressed(let why): ("suppressed", "suppressed: \(why.rawValue)")
        case .dropped: ("dropped", "dropped by the budget")
        }
        var notes: [String] = []
        if entry.kind == .group || entry.reminders.count > 1 { notes.append("members: " + entry.reminders.joined(separator: ", ")) }
        if !entry.removedMembers.isEmpty {
            notes.append("without " + entry.removedMembers.map { "\($0.reminder) (\($0.reason.rawValue))" }.joined(separator: ", "))
        }
        if let deferred = entry.deferredFrom { notes.append("deferred by quiet hours from \(deferred.display)") }
        if let home = entry.homeZone { notes.append("\(home.time.display.dropFirst(11).prefix(5)) in \(home.name)") }
        if let reason { notes.append(reason) }
        let tooltip = ([AgendaText.label(entry.kind), entry.fireAt.display, entry.title, entry.id] + notes).joined(separator: " · ")
        var html = "<div class=\"n kind-\(entry.kind.rawValue) status-\(status)\" id=\"\(HTMLText.anchor(entry.id))\" data-id=\"\(HTMLText.escape(entry.id))\""
        html += " data-kind=\"\(entry.kind.rawValue)\" data-status=\"\(status)\" data-date=\"\(date)\" data-time=\"\(time)\""
        if let parent { html += " data-parent=\"\(HTMLText.escape(parent))\"" }
        html += " title=\"\(HTMLText.escape(tooltip))\">"
        html += "<span class=\"time\">\(time)</span> <span class=\"label\">\(AgendaText.label(entry.kind))</span> "
        html += "<span class=\"title\">\(HTMLText.escape(entry.title))</span>"
        for note in notes { html += " <span class=\"note\">\(HTMLText.escape(note))</span>" }
        if let parent { html += " <a class=\"parent\" href=\"#\(HTMLText.anchor(parent))\">after \(HTMLText.escape(parent))</a>" }
        html += " <span class=\"id\">\(HTMLText.escape(entry.id))</span></div>"
        return html
    }

    /// Swatches for each kind and status, drawn in inline SVG with the same colours and
    /// patterns as the blocks, each with its name beside it.
    private static let legend: String = {
        let swatches: [(String, String, String)] = [
            ("reminder", "#e8eefc", "#2a4fb0"), ("group", "#e3f6f3", "#117a6a"), ("follow-up", "#fdf4dc", "#9a6a00"),
            ("snooze", "#f6e6f8", "#8a2a99"),
        ]
        var html = "<ul class=\"legend\" aria-label=\"Legend\">"
        for (name, fill, edge) in swatches {
            html += "<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><rect width=\"18\" height=\"12\" fill=\"\(fill)\"/><rect width=\"4\" height=\"12\" fill=\"\(edge)\"/></svg> \(name)</li>"
        }
        html += "<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><rect width=\"18\" height=\"12\" fill=\"#eee\"/><path d=\"M0 12 L12 0 M6 12 L18 0\" stroke=\"#999\"/></svg> suppressed or dropped (faded, reason in text)</li>"
        html += "<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><line x1=\"0\" y1=\"6\" x2=\"18\" y2=\"6\" stroke=\"#c00\" stroke-width=\"3\"/></svg> coverage edge</li>"
        return html + "</ul>\n"
    }()

    private static let style = """
    h1 .zone { font-weight: normal; color: #555; font-size: 0.7em; }
    .next ol { padding-left: 1.4em; }
    .next li { margin: 2px 0; }
    .next a { color: inherit; }
    .next .time { font-variant-numeric: tabular-nums; font-weight: 600; }
    nav.weeks ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4em 0.8em; }
    .week-links { margin: 0 0 4px; display: flex; flex-wrap: wrap; gap: 0.3em 0.8em; }
    .day-links { display: flex; flex-wrap: wrap; gap: 0.3em 0.6em; }
    .grid { overflow-x: auto; }
    .now-line { border-top: 3px solid #0a6; color: #075; font-size: 0.8em; font-weight: 600; margin: 2px 0; }
    .summary { max-width: 60em; }
    .empty-weeks { color: #555; font-style: italic; }
    .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1.2em; }
    table { border-collapse: collapse; table-layout: fixed; width: 100%; }
    th, td { border: 1px solid #ccc; vertical-align: top; padding: 2px; }
    th.hour { width: 4em; font-weight: normal; color: #555; }
    th.day { font-size: 0.9em; }
    th.clock-change { background: #fff3c4; }
    th .note { display: block; font-weight: normal; font-size: 0.8em; }
    td.outside, th.outside { background: #f4f4f4; color: #999; }
    .n { margin: 1px 0; padding: 1px 3px; font-size: 0.8em; overflow-wrap: break-word; }
    .n .time { white-space: nowrap; }
    /* On a phone the week scrolls sideways inside its frame, with days wide enough that
       times and words stay whole; the page itself never scrolls sideways. */
    @media (max-width: 700px) {
      body { margin: 0.8em; }
      .grid table { width: 52em; }
    }
    @media (prefers-color-scheme: dark) {
      h1 .zone, .empty-weeks, th.hour { color: #aaa; }
      th, td { border-color: #444; }
      td.outside, th.outside { background: #1c1c1c; color: #777; }
      th.clock-change { background: #4a3d00; }
      .n .id, .n .note { color: #bbb; }
      .now-line { border-top-color: #3c9; color: #5d9; }
      .coverage { border-top-color: #f55; color: #f77; }
    }
    .n .id, .n .note { display: block; color: #444; font-size: 0.9em; }
    .n .parent { display: block; font-size: 0.9em; }
    .coverage { border-top: 3px solid #c00; color: #c00; font-size: 0.8em; font-weight: 600; margin: 2px 0; }
    """
}
