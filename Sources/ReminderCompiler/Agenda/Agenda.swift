/// A plan laid out day by day in the plan zone's local time, for a person to read: what
/// the phone will show, what the events suppressed, what the budget left out, and where
/// the clocks change.
@_spi(Tooling) public struct Agenda: Sendable {
    /// What an entry stands for.
    public enum Status: Sendable, Hashable {
        /// In the plan: the phone shows it.
        case planned
        /// Removed by an event, look-back or quiet hours (Planning rules, "Events and
        /// suppression" and "Quiet hours").
        case suppressed(SuppressedNotification.Reason)
        /// In the window but after the budget's cut (`coveredUntil`): not scheduled yet.
        case dropped
    }

    /// One notification, or one that will not come.
    public struct Entry: Sendable, Hashable {
        /// The notification's ID in the plan (or, when suppressed, the ID it would have had).
        public var id: String
        /// `single`, `group`, `followUp` or `snooze`; a suppressed entry's kind is its ID's.
        public var kind: PlannedNotification.Kind
        /// When it fires, or would have fired, with the plan zone's offset.
        public var fireAt: ZonedInstant
        /// The notification's title; for a suppressed entry, its members' titles joined by
        /// ", " — their follow-up titles for a follow-up, where they have one — or their
        /// ids when the agenda was made without the config.
        public var title: String
        /// The member reminders' ids.
        public var reminders: [String]
        /// Whether it comes, and if not, why.
        public var status: Status
        /// When quiet hours deferred it: the instant it was due.
        public var deferredFrom: ZonedInstant?
        /// Its reminders' own zone (`timeZone`) and the time there, when not the plan's.
        public var homeZone: HomeZoneTime?
        /// Members an event removed from a notification that still comes for the others.
        public var removedMembers: [RemovedMember] = []
        /// Follow-ups and snoozes of this notification, in firing order.
        public var children: [Entry] = []
    }

    /// The time of an entry in the zone its reminders pin.
    public struct HomeZoneTime: Sendable, Hashable {
        /// The IANA name of the reminders' zone.
        public var name: String
        /// The entry's instant, with that zone's offset.
        public var time: ZonedInstant
    }

    /// A member left out of a notification that still comes.
    public struct RemovedMember: Sendable, Hashable {
        /// The removed member's reminder id.
        public var reminder: String
        /// What removed it.
        public var reason: SuppressedNotification.Reason
    }

    /// A change of the zone's offset.
    public struct ClockChange: Sendable, Hashable {
        /// The first instant with the new offset.
        public var instant: Int64
        /// The UTC offset before the change, in seconds (positive east of Greenwich).
        public var offsetBefore: Int
        /// The UTC offset from `instant` on, in seconds (positive east of Greenwich).
        public var offsetAfter: Int
        /// Whether local times are skipped (clocks forward) rather than repeated.
        public var isGap: Bool { offsetAfter > offsetBefore }
    }

    /// One local date.
    public struct Day: Sendable, Hashable {
        /// The date, in the plan zone.
        public var date: CivilDate
        /// Top-level entries in firing order; follow-ups and snoozes are under their parent
        /// when it is on the agenda.
        public var entries: [Entry]
        /// The offset changes on this date (in its local time before the change), in
        /// order.
        public var clockChanges: [ClockChange]
    }

    /// The plan's zone.
    public var timeZone: String
    /// The plan's `calendarName`, which the HTML page takes as its title.
    public var calendarName: String?
    /// The plan's `now`: the agenda shows what comes after it.
    public var now: ZonedInstant
    /// The last instant shown.
    public var end: ZonedInstant
    /// Where the budget cut the plan, when it did.
    public var coveredUntil: ZonedInstant?
    /// How many notifications the budget left out in the whole window.
    public var dropped: Int
    /// The dates that have entries or clock changes, ascending; other dates are left out.
    public var days: [Day]
    /// Entries after `end` that the agenda leaves out because it holds at most
    /// `maximumEntries`, or because a listing it was made from stopped there (`notListed`);
    /// 0 when it shows everything up to the requested end.
    public var entriesNotShown = 0

    /// The most entries an agenda holds: beyond it, the agenda ends at its last entry and
    /// counts the rest, so that a page or a terminal stays readable and its size bounded
    /// (a config at the 2-million-slot cap made a 955 MB page).
    public static let maximumEntries = 10_000
}

extension Agenda {
    /// The agenda of a plan from `now` for `days` days (the whole window when nil).
    ///
    /// - Parameters:
    ///   - plan: the plan to show.
    ///   - config: the plan's config, for the titles of suppressed notifications (their
    ///     reminders' ids otherwise).
    ///   - unbudgeted: the same compile without the budget, whose extra notifications are
    ///     shown as dropped; without it only their count is known.
    ///   - days: how many days to show from `now`; the whole window when nil.
    ///   - notListed: for a plan too long to hold, how many entries of the days shown come
    ///     after the last notification `unbudgeted` (or, without it, `plan`) lists, which
    ///     must list every one up to that instant: notifications, and suppressed entries
    ///     whose ID is no notification's. The agenda then ends there at the latest, counts
    ///     them among the entries not shown, and leaves out the plan's suppressed entries
    ///     after it. The plan's own list must stop there too.
    ///   - zones: the tz database the plan's zone is read from.
    public init(
        plan: Plan, config: ReminderConfig? = nil, unbudgeted: Plan? = nil, days: Int? = nil, notListed: Int = 0,
        zones: TimeZoneDatabase = .system
    ) {
        self.init(
            plan: plan, config: config, unbudgeted: unbudgeted, days: days, notListed: notListed, zones: zones,
            entryLimit: Self.maximumEntries
        )
    }

    /// The agenda, with another cap than `maximumEntries` (at least 1): for tests.
    init(
        plan: Plan, config: ReminderConfig?, unbudgeted: Plan?, days: Int?, notListed: Int, zones: TimeZoneDatabase,
        entryLimit: Int
    ) {
        let entryLimit = max(1, entryLimit)
        // At most a horizon's length (3 660 days) from `now`, whatever the plan or `days`
        // says: a plan built in code may hold any instants, and no sum may overflow.
        let longest = Int64(min(max(days ?? Self.longestDays, 0), Self.longestDays)) * 86_400
        let (reach, overflow) = plan.now.seconds.addingReportingOverflow(longest)
        var end = max(plan.now.seconds, overflow ? plan.windowEnd.seconds : min(plan.windowEnd.seconds, reach))
        let shown = { (instant: Int64) in instant > plan.now.seconds && instant <= end }
        let titles = Dictionary((config?.reminders ?? []).map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        // A follow-up shows its own title where the reminder gives one, as the plan's do.
        let followUpTitles = Dictionary(
            (config?.reminders ?? []).map { ($0.id, $0.followUp?.title ?? $0.title) }, uniquingKeysWith: { first, _ in first }
        )
        func entry(_ notification: PlannedNotification, status: Status) -> Entry {
            var entry = Entry(
                id: notification.id, kind: notification.kind, fireAt: notification.fireAt, title: notification.title,
                reminders: notification.reminders, status: status, deferredFrom: notification.deferredFrom
            )
            if let name = notification.timeZone, let rules = zones.zone(name) {
                let instant = notification.fireAt.seconds
                entry.homeZone = HomeZoneTime(name: name, time: ZonedInstant(seconds: instant, offsetSeconds: rules.offsetSeconds(at: instant)))
            }
            return entry
        }
        // A listing that stops early: nothing after its last instant is read, and what comes
        // there is counted in `notListed`.
        let notListed = max(0, notListed)
        let listedEnd = notListed > 0 ? (unbudgeted ?? plan).notifications.last?.fireAt.seconds : nil
        var all = plan.notifications.filter { shown($0.fireAt.seconds) }.map { entry($0, status: .planned) }
        let kept = Set(plan.notifications.map(\.id))
        if let unbudgeted {
            all += unbudgeted.notifications.filter { !kept.contains($0.id) && shown($0.fireAt.seconds) }.map { entry($0, status: .dropped) }
        }
        // A notification that still comes for some members lists the others as removed.
        var positions: [String: Int] = [:]
        for index in all.indices { positions[all[index].id] = index }
        for suppressed in plan.suppressed where shown(suppressed.fireAt.seconds) && listedEnd.map({ suppressed.fireAt.seconds <= $0 }) != false {
            if let index = positions[suppressed.id] {
                all[index].removedMembers += suppressed.reminders.map { RemovedMember(reminder: $0, reason: suppressed.reason) }
                continue
            }
            let reference = OccurrenceReference(suppressed.id)
            // A group's ID names the group, not a member.
            let kind: PlannedNotification.Kind = suppressed.id.hasSuffix("-snooze") ? .snooze
                : reference?.isFollowUp == true ? .followUp
                : reference.map { !suppressed.reminders.contains($0.key) } == true ? .group : .single
            all.append(Entry(
                id: suppressed.id, kind: kind, fireAt: suppressed.fireAt,
                title: suppressed.reminders.map { (kind == .followUp ? followUpTitles : titles)[$0] ?? $0 }.joined(separator: ", "),
                reminders: suppressed.reminders,
                status: .suppressed(suppressed.reason)
            ))
        }
        all.sort { ($0.fireAt.seconds, $0.id) < ($1.fireAt.seconds, $1.id) }
        // Past the cap, the agenda ends with its last entry; those at the same instant stay.
        // A listing that stops early ends it at its last instant at the latest.
        var cut = all.count > entryLimit ? all[entryLimit - 1].fireAt.seconds : nil
        if let listedEnd { cut = min(cut ?? listedEnd, listedEnd) }
        var notShown = notListed
        if let cut, cut < end {
            end = cut
            let kept = all.firstIndex { $0.fireAt.seconds > end } ?? all.count
            // Saturating: `notListed` is the caller's.
            let (sum, overflow) = notShown.addingReportingOverflow(all.count - kept)
            notShown = overflow ? .max : sum
            all.removeSubrange(kept...)
        }
        // Follow-ups and snoozes go under their parent when it is on the agenda.
        let parents = Set(all.map(\.id))
        var children: [String: [Entry]] = [:]
        var topLevel: [Entry] = []
        for item in all {
            if let parent = Self.parentID(of: item), parents.contains(parent) {
                children[parent, default: []].append(item)
            } else {
                topLevel.append(item)
            }
        }
        func attach(_ item: Entry) -> Entry {
            var item = item
            item.children = (children[item.id] ?? []).map(attach)
            return item
        }
        var byDate: [CivilDate: [Entry]] = [:]
        for item in topLevel {
            byDate[Self.localDate(of: item.fireAt), default: []].append(attach(item))
        }
        var changesByDate: [CivilDate: [ClockChange]] = [:]
        if let rules = zones.zone(plan.timeZone) {
            let timeline = ZoneTimeline(rules: rules, span: plan.now.seconds...max(plan.now.seconds, end))
            for index in timeline.transitionInstants.indices {
                let change = ClockChange(
                    instant: timeline.transitionInstants[index], offsetBefore: Int(timeline.offsets[index]),
                    offsetAfter: Int(timeline.offsets[index + 1])
                )
                let date = Self.localDate(of: ZonedInstant(seconds: change.instant, offsetSeconds: change.offsetBefore))
                changesByDate[date, default: []].append(change)
            }
        }
        self.timeZone = plan.timeZone
        self.calendarName = plan.calendarName
        self.now = plan.now
        self.end = ZonedInstant(seconds: end, offsetSeconds: plan.windowEnd.seconds == end ? plan.windowEnd.offsetSeconds : Self.offset(in: zones, plan.timeZone, at: end))
        self.coveredUntil = plan.dropped > 0 ? plan.coveredUntil : nil
        self.dropped = plan.dropped
        self.entriesNotShown = notShown
        self.days = Set(byDate.keys).union(changesByDate.keys).sorted().map { date in
            Day(date: date, entries: byDate[date] ?? [], clockChanges: changesByDate[date] ?? [])
        }
    }

    /// The most days an agenda shows: the longest horizon and a day.
    static let longestDays = 3661

    /// The notification a follow-up or snooze belongs to.
    static func parentID(of entry: Entry) -> String? {
        if entry.id.hasSuffix("-snooze") { return String(entry.id.dropLast("-snooze".count)) }
        let (base, member) = NotificationID.splitFollowUp(Substring(entry.id))
        return member > 0 ? String(base) : nil
    }

    static func localDate(of instant: ZonedInstant) -> CivilDate {
        CivilDate.split(localSeconds: instant.localSeconds).date
    }

    private static func offset(in zones: TimeZoneDatabase, _ zone: String, at instant: Int64) -> Int {
        zones.zone(zone)?.offsetSeconds(at: instant) ?? 0
    }
}
