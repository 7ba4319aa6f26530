/// A validated reminder config (Config reference): what the compiler plans from.
///
/// Values that the file left out hold their documented defaults. Every part keeps the
/// location of the element it came from, so later stages can point at the config.
public struct ReminderConfig: Sendable {
    /// The IANA zone named by `timeZone`, or nil when the file omits it (the caller then
    /// supplies one, as `--time-zone` does).
    public var timeZone: String? {
        didSet { checked = nil }
    }
    /// Days in the planning window, 1–3660.
    public var horizonDays: Int = 30 {
        didSet { checked = nil }
    }
    /// Most notifications a plan may hold; 0 means unlimited.
    public var pendingLimit: Int = 64 {
        didSet { checked = nil }
    }
    /// Slots left free for the app, below `pendingLimit` when that is positive.
    public var reservedSlots: Int = 0 {
        didSet { checked = nil }
    }
    /// A plan covering fewer days than this gets a warning.
    public var minimumCoverageDays: Double = 3 {
        didSet { checked = nil }
    }
    /// The .ics calendar name.
    public var calendarName: String = "Reminders" {
        didSet { checked = nil }
    }
    /// The .ics UID suffix.
    public var uidDomain: String = "remindc.local" {
        didSet { checked = nil }
    }
    /// Titles and bodies of merged notifications, by group key.
    public var groups: [String: GroupDefinition] = [:] {
        didSet { checked = nil }
    }
    /// Notification actions, by category id.
    public var categories: [String: [NotificationAction]] = [:] {
        didSet { checked = nil }
    }
    /// Hours in which notifications are deferred or dropped, when set.
    public var quietHours: QuietHours? {
        didSet { checked = nil }
    }
    /// Which notifications the expanded calendar holds: the plan's, or the whole window's.
    public var calendarScope: CalendarScope = .plan {
        didSet { checked = nil }
    }
    /// The reminders, in file order.
    public var reminders: [Reminder] = [] {
        didSet { checked = nil }
    }
    /// SHA-256 of the file the config was read from, as lowercase hex (the plan's
    /// `configDigest`); nil for a config built in code.
    public var sourceDigest: String? {
        didSet { checked = nil }
    }
    /// Where the root `<dict>` stands.
    public var location: SourceLocation {
        didSet { checked = nil }
    }
    /// The config as `ReminderCompiler.check` validated it, kept with the config it
    /// returned, so that planning it does not check it again; any change to the config
    /// drops it (the `didSet` of every property), and the next plan checks the config.
    var checked: CheckedConfig?

    /// Creates an empty config at a location; the decoder fills it in.
    public init(location: SourceLocation) {
        self.location = location
    }
}

/// How a group's merged notification is worded (Config reference, `groups`).
public struct GroupDefinition: Sendable, Hashable {
    /// Title template; `{count}` and `{titles}` are replaced.
    public var title: String = "{count} reminders"
    /// Body template; `{count}` and `{titles}` are replaced.
    public var body: String = "{titles}"
    /// The category of the merged notification.
    public var category: String?
    /// Where the group's key stands.
    public var location: SourceLocation

    /// Creates a group's wording; `{count}` and `{titles}` are replaced.
    public init(title: String = "{count} reminders", body: String = "{titles}", category: String? = nil, location: SourceLocation = .inCode) {
        self.title = title
        self.body = body
        self.category = category
        self.location = location
    }
}

/// A button on a notification (Config reference, `categories`).
public struct NotificationAction: Sendable, Hashable {
    /// The action's identifier.
    public var id: String
    /// The button's label.
    public var title: String
    /// Shown as destructive (red) where the platform supports it.
    public var destructive: Bool = false
    /// Opens the app.
    public var foreground: Bool = false
    /// When set, the action snoozes for this many minutes.
    public var snoozeMinutes: Int?

    /// Creates a notification button; with `snoozeMinutes` (1–1440) it snoozes.
    public init(id: String, title: String, destructive: Bool = false, foreground: Bool = false, snoozeMinutes: Int? = nil) {
        self.id = id
        self.title = title
        self.destructive = destructive
        self.foreground = foreground
        self.snoozeMinutes = snoozeMinutes
    }
}

/// How loudly a notification asks for attention.
public enum InterruptionLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The config's `interruptionLevel` values, quietest first, named as Apple's
    /// `UNNotificationInterruptionLevel` names them; `active` is the default. A `critical`
    /// notification is exempt from quiet hours unless its reminder opts in.
    case passive, active, timeSensitive, critical

    private var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// Orders from the quietest to the most urgent.
    public static func < (lhs: InterruptionLevel, rhs: InterruptionLevel) -> Bool { lhs.rank < rhs.rank }
}

/// How an activity logged before a slot suppresses it (Planning rules, "Events and
/// suppression").
public enum Lookback: Sendable, Hashable {
    /// An event within this many seconds before the slot (inclusive) suppresses it.
    case seconds(Int)
    /// An event since local midnight of the slot's date suppresses it.
    case sameDay
    /// Events since local midnight count toward the date's slots (`countsEntries`): the
    /// k-th slot of the date, in firing order, is suppressed once k events lie between
    /// midnight and it, so "three glasses a day" needs three glasses.
    case sameDayCounted
}

/// A second notification after the first (Planning rules, "Follow-ups and nag chains").
public struct FollowUp: Sendable, Hashable {
    /// Minutes after the parent, 1–1440.
    public var afterMinutes: Int
    /// Replaces the member's title in the follow-up.
    public var title: String?
    /// Replaces the member's body in the follow-up.
    public var body: String?
    /// Replaces the member's interruption level in the follow-up.
    public var interruptionLevel: InterruptionLevel?
    /// Follow-ups in the chain (`repeat`, 1–12): `-followup`, `-followup-2`, …
    public var repeatCount: Int = 1
    /// Minutes between chain members after the first (`everyMinutes`, 1–1440); nil means
    /// `afterMinutes`.
    public var everyMinutes: Int?
    /// Where the `followUp` dict stands.
    public var location: SourceLocation

    /// Creates a follow-up `afterMinutes` (1–1440) after its parent, repeated `repeatCount`
    /// times (1–12) every `everyMinutes` (default `afterMinutes`).
    public init(
        afterMinutes: Int, title: String? = nil, body: String? = nil, interruptionLevel: InterruptionLevel? = nil,
        repeatCount: Int = 1, everyMinutes: Int? = nil, location: SourceLocation = .inCode
    ) {
        self.afterMinutes = afterMinutes
        self.title = title
        self.body = body
        self.interruptionLevel = interruptionLevel
        self.repeatCount = repeatCount
        self.everyMinutes = everyMinutes
        self.location = location
    }

    /// Minutes from the parent to chain member `member` (1 is `-followup`). Values outside
    /// what validation accepts still give a number, never a trap.
    public func delayMinutes(ofMember member: Int) -> Int {
        // Chains hold at most 12 members; a member number far outside is held near them.
        let steps = min(max(member, -1_000_000), 1_000_000) - 1
        let every = everyMinutes ?? afterMinutes
        let chain = every.multipliedReportingOverflow(by: steps)
        // Past the ends of Int, the delay saturates on the side the larger term lies.
        if chain.overflow { return (every < 0) == (steps < 0) ? .max : .min }
        let total = afterMinutes.addingReportingOverflow(chain.partialValue)
        if total.overflow { return afterMinutes < 0 ? .min : .max }
        return total.partialValue
    }

    /// The chain's length as planned: `repeatCount` within 1–12.
    var chainLength: Int { min(max(repeatCount, 1), 12) }

    /// When the chain fires: members of a group share one chain, so they must agree on it.
    var timing: [Int] { (1...chainLength).map(delayMinutes(ofMember:)) }

    /// "has a followUp after 30 minutes", "…, repeated 3 times every 10 minutes".
    static func describe(_ followUp: FollowUp?) -> String {
        guard let followUp else { return "has no followUp" }
        let repeats = followUp.chainLength > 1
            ? ", repeated \(followUp.chainLength) times every \(followUp.everyMinutes ?? followUp.afterMinutes) minutes" : ""
        return "has a followUp after \(followUp.afterMinutes) minutes\(repeats)"
    }
}

/// One reminder of the config (Config reference, `reminders`).
public struct Reminder: Sendable {
    /// Unique among reminders and group keys.
    public var id: String
    /// The notification title.
    public var title: String
    /// The notification body when `bodies` is empty.
    public var body: String = ""
    /// Rotating bodies (Planning rules, "Rotating bodies"); empty when not used.
    public var bodies: [String] = []
    /// A disabled reminder yields nothing.
    public var enabled: Bool = true
    /// When it fires.
    public var schedule: Schedule
    /// The grouping key, when merged with others at the same slot.
    public var group: String?
    /// The activity type whose events satisfy this reminder.
    public var activity: String
    /// Look-back suppression, when set.
    public var lookback: Lookback?
    /// The follow-up, when set.
    public var followUp: FollowUp?
    /// The interruption level.
    public var interruptionLevel: InterruptionLevel = .active
    /// The notification category (actions), when set.
    public var category: String?
    /// Passed through to the plan.
    public var sound: String?
    /// Passed through to the plan.
    public var threadID: String?
    /// Passed through to the plan, keys sorted.
    public var userInfo: [String: String] = [:]
    /// Length of the calendar event, 0–1440.
    public var durationMinutes: Int = 15
    /// List earlier notifications of the same day for removal (Planning rules, "Replacing
    /// earlier notifications").
    public var replacesEarlier: Bool = false
    /// Whether the config's quiet hours apply: `true` or `false` decides; nil applies them
    /// unless the notification is `critical`.
    public var quietHours: Bool?
    /// The IANA zone its times are read in ("08:00 in Europe/Berlin", wherever the phone
    /// is); nil follows the plan's zone. IDs and `slot` name the local time of this zone.
    public var timeZone: String?
    /// Where the reminder's `<dict>` stands.
    public var location: SourceLocation
}
