/// The two ways a plan becomes an iCalendar file (see the Calendars article).
public enum ICalendarStyle: String, Sendable, CaseIterable {
    /// One VEVENT per plan notification.
    case expanded
    /// One recurring VEVENT per reminder and time of day.
    case recurring
}

/// The calendar-wide settings an .ics file needs beyond the plan.
public struct CalendarSettings: Sendable, Hashable {
    /// `NAME` and `X-WR-CALNAME`.
    public var calendarName: String
    /// The suffix of every UID.
    public var uidDomain: String

    /// Creates settings; the defaults are the config's.
    public init(calendarName: String = "Reminders", uidDomain: String = "remindc.local") {
        self.calendarName = calendarName
        self.uidDomain = uidDomain
    }

    /// The settings of a config.
    public init(_ config: ReminderConfig) {
        self.init(calendarName: config.calendarName, uidDomain: config.uidDomain)
    }

    /// The settings a plan recorded from its config; the defaults where it has none (plans
    /// written before it recorded them).
    public init(_ plan: Plan) {
        self.init(calendarName: plan.calendarName ?? "Reminders", uidDomain: plan.uidDomain ?? "remindc.local")
    }
}

/// Writes plans as RFC 5545 calendars: UTF-8 without byte-order mark, CRLF, folded lines,
/// one VTIMEZONE for the plan's zone, `DTSTAMP` from the plan's `now` (never the clock).
public enum ICalendarExport {
    /// `PRODID` of every file remindc writes.
    static let productID = "-//remindc//remindc reminder compiler//EN"

    /// The expanded calendar: one VEVENT per notification of the plan.
    public static func expanded(_ plan: Plan, settings: CalendarSettings, zones: TimeZoneDatabase = .system) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2048 + plan.notifications.count * 480)
        writeExpanded(plan, settings: settings, zones: zones) { bytes.append(span: $0) }
        return bytes
    }

    /// Writes the expanded calendar to `sink` in chunks of about `chunkSize` bytes, so that
    /// a large calendar is never held whole in memory.
    @_spi(Tooling) public static func writeExpanded(
        _ plan: Plan, settings: CalendarSettings, zones: TimeZoneDatabase = .system, chunkSize: Int = 1 << 16,
        to sink: (Span<UInt8>) throws -> Void
    ) rethrows {
        // From the earliest to the latest instant: a plan built in code need not be sorted.
        let span = plan.notifications.first.map { first in
            plan.notifications.reduce(first.fireAt.seconds...first.fireAt.seconds) { span, notification in
                min(span.lowerBound, notification.fireAt.seconds)...max(span.upperBound, notification.fireAt.seconds)
            }
        }
        let otherZones = Set(plan.notifications.compactMap(\.timeZone)).subtracting([plan.timeZone]).sorted()
        var stream = ExpandedCalendarStream(
            header: plan, settings: settings, eventSpan: span, otherZones: otherZones, zones: zones, chunkSize: chunkSize
        )
        try stream.append(contentsOf: plan.notifications, to: sink)
        try stream.finish(to: sink)
    }

    static func begin(_ writer: inout ICalendarWriter, plan: Plan, settings: CalendarSettings) {
        writer.raw("BEGIN:VCALENDAR")
        writer.line("VERSION", "2.0")
        writer.line("PRODID", productID)
        writer.line("CALSCALE", "GREGORIAN")
        writer.text("NAME", settings.calendarName)
        writer.text("X-WR-CALNAME", settings.calendarName)
        writer.text("X-WR-TIMEZONE", plan.timeZone)
    }

    /// `DTSTART;TZID=zone:local` for an instant, or `DTSTART:…Z` when its local time
    /// occurs twice (clocks fell back): RFC 5545 reads such a time as the first pass, but
    /// importers differ, and the second pass cannot be named with a TZID at all.
    static func startProperty(_ instant: Int64, zone: String, timeline: ZoneTimeline) -> (String, String) {
        if let local = unambiguousLocalTime(of: instant, timeline: timeline) {
            return ("DTSTART;TZID=\(parameterValue(zone))", ICalendarFormat.localDateTime(local))
        }
        return ("DTSTART", ICalendarFormat.utcDateTime(instant))
    }

    /// The local time of an instant, unless that local time occurs twice.
    static func unambiguousLocalTime(of instant: Int64, timeline: ZoneTimeline) -> Int64? {
        // Outside the span the zone was worked out over (a plan built in code may hold
        // instants ages apart), the local time is unknown.
        guard timeline.span.lowerBound <= instant - 86_400, instant + 86_400 <= timeline.span.upperBound else { return nil }
        // Almost always no change within a day either side.
        if let steady = timeline.steadyOffset(throughout: (instant - 86_400)...(instant + 86_400)) {
            return instant + Int64(steady)
        }
        let offset = Int64(timeline.offset(at: instant))
        let local = instant + offset
        // Another offset of the neighbouring days under which the same local time names an
        // instant that really has that offset makes the local time ambiguous.
        for neighbour in [instant - 86_400, instant + 86_400] {
            let other = Int64(timeline.offset(at: neighbour))
            if other != offset && Int64(timeline.offset(at: local - other)) == other { return nil }
        }
        return local
    }

    /// A parameter value, quoted when it holds `:`, `;` or `,`.
    static func parameterValue(_ value: String) -> String {
        value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(value.filter { $0 != "\"" })\"" : value
    }

    /// The `DURATION` line of an event.
    static func writeDuration(of texts: NotificationTexts, to writer: inout ICalendarWriter) {
        if texts.durationMinutes == 0 {
            writer.lines("DURATION:PT0S\r\n")
        } else {
            writer.begin("DURATION:PT")
            writer.value(texts.durationMinutes)
            writer.value("M")
            writer.endLine()
        }
    }

    /// The `SUMMARY` and `DESCRIPTION` lines of an event.
    static func writeTexts(of texts: NotificationTexts, to writer: inout ICalendarWriter) {
        writer.textLine("SUMMARY:", texts.title)
        if !texts.body.isEmpty { writer.textLine("DESCRIPTION:", texts.body) }
    }

    static func writeSequence(_ sequence: Int, to writer: inout ICalendarWriter) {
        writer.line("SEQUENCE:", number: sequence)
    }

    /// An event's lines after `SEQUENCE`: its category, its alarm, its end.
    static func writeEnd(of texts: NotificationTexts, to writer: inout ICalendarWriter) {
        if let category = texts.category { writer.textLine("CATEGORIES:", category) }
        writer.lines("TRANSP:TRANSPARENT\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:PT0S\r\n")
        writer.textLine("DESCRIPTION:", texts.title.isEmpty ? "Reminder" : texts.title)
        writer.lines("END:VALARM\r\nEND:VEVENT\r\n")
    }

    /// The zone events are written in: `DTSTART;TZID=zone` and its timeline, with the lines
    /// every event shares.
    static func eventZone(named zone: String, timeline: ZoneTimeline, now: Int64, settings: CalendarSettings) -> EventZone {
        EventZone(
            timeline: timeline, startName: "DTSTART;TZID=\(parameterValue(zone))", uidSuffix: "@" + settings.uidDomain,
            stampLine: stampLine(now: now)
        )
    }

    /// The `DTSTAMP` line of every event: the plan's `now` in UTC.
    static func stampLine(now: Int64) -> [UInt8] {
        var writer = ICalendarWriter()
        writer.dateTime("DTSTAMP", localSeconds: now, utc: true)
        return writer.bytes
    }
}

/// The expanded calendar written piece by piece: the frame and VTIMEZONE (which need the
/// span of the events' instants), each event as it comes, then the end.
struct ExpandedCalendarStream {
    private var writer: ICalendarWriter
    private let chunkSize: Int
    /// The plan's zone; nil without events.
    private let planZone: EventZone?
    /// Zones other than the plan's that notifications are written in (`timeZone`), by name.
    private var otherZones: [String: EventZone] = [:]

    /// Writes the calendar's frame and, when there are events (`eventSpan` is their
    /// first and last instant), the VTIMEZONEs: the plan zone's, then one for each of
    /// `otherZones`, the zones the notifications' reminders pin (ascending), over the same span.
    init(header plan: Plan, settings: CalendarSettings, eventSpan: ClosedRange<Int64>?, otherZones: [String] = [],
         zones: TimeZoneDatabase, chunkSize: Int = 1 << 16) {
        self.chunkSize = chunkSize
        writer = ICalendarWriter(reservingCapacity: chunkSize + 4096)
        ICalendarExport.begin(&writer, plan: plan, settings: settings)
        guard let rules = zones.zone(plan.timeZone), let eventSpan else {
            planZone = nil
            return
        }
        let instants = Self.zoneSpan(events: eventSpan, now: plan.now.writableSeconds)
        let span = (instants.lowerBound - 3 * 86_400)...(instants.upperBound + 3 * 86_400)
        for (name, value) in VTimeZoneBuilder(rules: rules).lines(named: plan.timeZone, for: instants) {
            writer.line(name, value)
        }
        planZone = ICalendarExport.eventZone(
            named: plan.timeZone, timeline: ZoneTimeline(rules: rules, span: span), now: plan.now.writableSeconds, settings: settings
        )
        for name in otherZones where name != plan.timeZone {
            guard let other = zones.zone(name) else { continue }
            for (property, value) in VTimeZoneBuilder(rules: other).lines(named: name, for: instants) {
                writer.line(property, value)
            }
            self.otherZones[name] = ICalendarExport.eventZone(
                named: name, timeline: ZoneTimeline(rules: other, span: span), now: plan.now.writableSeconds, settings: settings
            )
        }
    }

    /// The longest span the zones are worked out over: more than any plan's window (at most
    /// 3 660 days) with its deferred notifications.
    static let longestZoneSpan: Int64 = 4_000 * 86_400

    /// The instants the zones are worked out over: from the first of the events and `now`
    /// to the last, brought into the years 1–9999 (where events are written) and cut to
    /// `longestZoneSpan`, so that a plan built in code with instants ages apart costs no
    /// more than a long plan. Events beyond it are written in UTC.
    static func zoneSpan(events: ClosedRange<Int64>, now: Int64) -> ClosedRange<Int64> {
        let range = ZonedInstant.writableRange
        let first = min(max(events.lowerBound, range.lowerBound), range.upperBound)
        let last = min(max(events.upperBound, range.lowerBound), range.upperBound)
        let start = min(first, now)
        return start...min(max(last, now), start + longestZoneSpan)
    }

    /// Appends the notifications' events in order, flushing to `sink` at each `chunkSize` bytes.
    mutating func append(contentsOf notifications: [PlannedNotification], to sink: (Span<UInt8>) throws -> Void) rethrows {
        guard let planZone else { return }
        try writer.appendEvents(of: notifications, planZone: planZone, otherZones: otherZones, flushingAt: chunkSize, to: sink)
    }

    mutating func finish(to sink: (Span<UInt8>) throws -> Void) rethrows {
        writer.raw("END:VCALENDAR")
        try writer.flush(to: sink)
    }
}

extension ReminderCompiler {
    /// The note for an expanded calendar of the plan's notifications alone when the pending
    /// limit left some of the window out: someone importing the file into a calendar would
    /// otherwise see two weeks of a year without knowing why. Nil when nothing was left out.
    /// `fromPlanFile`: the calendar is written from a plan file (`remindc ics`), which
    /// holds only what the budget kept, so the note names the compile that writes more.
    @_spi(Tooling) public static func calendarCutNote(_ plan: Plan, at location: SourceLocation, fromPlanFile: Bool = false) -> Diagnostic? {
        guard plan.dropped > 0 else { return nil }
        // A plan that dropped notifications kept as many as the budget holds.
        let kept = max(0, plan.pendingLimit - plan.reservedSlots)
        let until = plan.coveredUntil.rfc3339
        return Diagnostic(
            .note, at: location,
            fromPlanFile
                ? .planCalendarCutByBudget(kept: kept, dropped: plan.dropped, until: until)
                : .calendarCutByBudget(kept: kept, dropped: plan.dropped, until: until)
        )
    }
}
