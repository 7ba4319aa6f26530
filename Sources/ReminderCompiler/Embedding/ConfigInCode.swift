/// Building configs in code, as an app does from its own database: every config type has
/// an initializer with the defaults of the Config reference, and schedules have one
/// builder per shape.
///
/// Nothing here checks values: `ReminderConfig.validate()` does, with the same rules and
/// messages as the plist decoder, naming each value by its key path
/// (`reminders[1].schedule.interval`). `ReminderCompiler.plan` validates before planning,
/// so a config built in code is never trusted blindly.
extension ReminderConfig {
    /// Creates a config in code. Unset values take the defaults the Config reference gives.
    public init(
        timeZone: String? = nil, horizonDays: Int = 30, pendingLimit: Int = 64, reservedSlots: Int = 0,
        minimumCoverageDays: Double = 3, calendarName: String = "Reminders", uidDomain: String = "remindc.local",
        reminders: [Reminder] = [], groups: [String: GroupDefinition] = [:], categories: [String: [NotificationAction]] = [:]
    ) {
        self.init(location: .inCode)
        self.timeZone = timeZone
        self.horizonDays = horizonDays
        self.pendingLimit = pendingLimit
        self.reservedSlots = reservedSlots
        self.minimumCoverageDays = minimumCoverageDays
        self.calendarName = calendarName
        self.uidDomain = uidDomain
        self.reminders = reminders
        self.groups = groups
        self.categories = categories
    }
}

extension ReminderConfig {
    /// The config with each part built in code located by its key path (`reminders[2]`,
    /// `reminders[2].followUp`, `groups.morning`), so that warnings found while planning
    /// name the part they are about. Parts read from a file keep their positions.
    func locatingPartsBuiltInCode() -> ReminderConfig {
        var located = self
        if located.location.isKeyPath, located.location.path.isEmpty { located.location = .keyPath("config") }
        for index in located.reminders.indices {
            if located.reminders[index].location.isKeyPath { located.reminders[index].location = .keyPath("reminders[\(index)]") }
            if let followUp = located.reminders[index].followUp, followUp.location.isKeyPath {
                located.reminders[index].followUp?.location = .keyPath("reminders[\(index)].followUp")
            }
        }
        for (key, group) in located.groups where group.location.isKeyPath {
            located.groups[key]?.location = .keyPath("groups.\(key)")
        }
        return located
    }
}

extension Reminder {
    /// Creates a reminder in code; `activity` defaults to the id, as in a config file.
    public init(
        id: String, title: String, body: String = "", bodies: [String] = [], enabled: Bool = true, schedule: Schedule,
        group: String? = nil, activity: String? = nil, lookback: Lookback? = nil, followUp: FollowUp? = nil,
        interruptionLevel: InterruptionLevel = .active, category: String? = nil, sound: String? = nil,
        threadID: String? = nil, userInfo: [String: String] = [:], durationMinutes: Int = 15, replacesEarlier: Bool = false,
        quietHours: Bool? = nil, timeZone: String? = nil, location: SourceLocation = .inCode
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.bodies = bodies
        self.enabled = enabled
        self.schedule = schedule
        self.group = group
        self.activity = activity ?? id
        self.lookback = lookback
        self.followUp = followUp
        self.interruptionLevel = interruptionLevel
        self.category = category
        self.sound = sound
        self.threadID = threadID
        self.userInfo = userInfo
        self.durationMinutes = durationMinutes
        self.replacesEarlier = replacesEarlier
        self.quietHours = quietHours
        self.timeZone = timeZone
        self.location = location
    }
}

extension Lookback {
    /// An event within this many hours before the slot suppresses it (`lookbackHours`,
    /// more than 0 and at most 168); rounded to the second.
    public static func hours(_ hours: Double) -> Lookback {
        let seconds = hours * 3600
        // Out-of-range values stay out of range, for `validate()` to report, without trapping.
        guard seconds.isFinite, abs(seconds) < Double(Int32.max) else { return .seconds(seconds < 0 ? -1 : Int(Int32.max)) }
        return .seconds(Int(seconds.rounded()))
    }
}

extension Schedule.WeekdayOrdinal {
    /// The `ordinal`-th `weekday` of a month: 1–5 from its start, -1…-5 from its end.
    public init(_ ordinal: Int, _ weekday: Weekday) {
        self.ordinal = ordinal
        self.weekday = weekday
    }
}

extension Schedule.TimesOfDay: ExpressibleByArrayLiteral {
    /// Explicit times: `["08:00", "20:00"]`.
    public init(arrayLiteral times: LocalTime...) {
        self = .list(times)
    }
}

extension Schedule {
    /// The parts every repeating schedule shares, applied to a new schedule.
    private static func repeating(
        _ frequency: Frequency, times: TimesOfDay, interval: Int, start: CivilDate?, end: CivilDate?, count: Int?,
        except: Set<CivilDate>
    ) -> Schedule {
        var schedule = Schedule(frequency: frequency)
        schedule.timesOfDay = times
        schedule.interval = interval
        schedule.start = start
        schedule.end = end
        schedule.count = count
        schedule.exceptions = except
        return schedule
    }

    /// Every `interval` days (counted from `start`) at `times`: a list (`["09:20"]`),
    /// `.spread(count:window:)` (`timesPerDay`) or `.every(minutes:window:)`. Every
    /// repeating schedule may end after `count` slots from `start` instead of at `end`.
    public static func daily(
        times: TimesOfDay, interval: Int = 1, start: CivilDate? = nil, end: CivilDate? = nil, count: Int? = nil, except: Set<CivilDate> = []
    ) -> Schedule {
        repeating(.daily, times: times, interval: interval, start: start, end: end, count: count, except: except)
    }

    /// On `weekdays` of every `interval`-th week (counted from `start`'s week) at `times`.
    public static func weekly(
        _ weekdays: Set<Weekday>, times: TimesOfDay, interval: Int = 1, start: CivilDate? = nil, end: CivilDate? = nil,
        count: Int? = nil, except: Set<CivilDate> = []
    ) -> Schedule {
        var schedule = repeating(.weekly, times: times, interval: interval, start: start, end: end, count: count, except: except)
        schedule.weekdays = weekdays
        return schedule
    }

    /// On days of the month (1…31, or -1…-31 from the end), of every `interval`-th month.
    public static func monthly(
        days: [Int], times: TimesOfDay, missingDays: MissingDays = .skip, interval: Int = 1, start: CivilDate? = nil,
        end: CivilDate? = nil, count: Int? = nil, except: Set<CivilDate> = []
    ) -> Schedule {
        var schedule = repeating(.monthly, times: times, interval: interval, start: start, end: end, count: count, except: except)
        schedule.monthDays = Array(Set(days)).sorted()
        schedule.missingDays = missingDays
        return schedule
    }

    /// On n-th weekdays of the month (`WeekdayOrdinal(2, .tuesday)`), of every
    /// `interval`-th month.
    public static func monthly(
        weekdayOrdinals: [WeekdayOrdinal], times: TimesOfDay, interval: Int = 1, start: CivilDate? = nil,
        end: CivilDate? = nil, count: Int? = nil, except: Set<CivilDate> = []
    ) -> Schedule {
        var schedule = repeating(.monthly, times: times, interval: interval, start: start, end: end, count: count, except: except)
        schedule.weekdayOrdinals = weekdayOrdinals
        return schedule
    }

    /// On days of the given months (1–12) of every `interval`-th year: `days` of the month
    /// (1…31, or -1…-31 from the end; `missingDays` decides 29 February in other years)
    /// and n-th weekdays of the month (`WeekdayOrdinal(-1, .sunday)`).
    public static func yearly(
        months: [Int], days: [Int] = [], weekdayOrdinals: [WeekdayOrdinal] = [], times: TimesOfDay,
        missingDays: MissingDays = .skip, interval: Int = 1, start: CivilDate? = nil, end: CivilDate? = nil, count: Int? = nil,
        except: Set<CivilDate> = []
    ) -> Schedule {
        var schedule = repeating(.yearly, times: times, interval: interval, start: start, end: end, count: count, except: except)
        schedule.months = Array(Set(months)).sorted()
        schedule.monthDays = Array(Set(days)).sorted()
        schedule.weekdayOrdinals = weekdayOrdinals
        schedule.missingDays = missingDays
        return schedule
    }

    /// At each of the local dates and times, once.
    public static func once(_ slots: [LocalDateTime], except: Set<CivilDate> = []) -> Schedule {
        var schedule = Schedule(frequency: .once)
        schedule.at = Array(Set(slots)).sorted()
        schedule.exceptions = except
        return schedule
    }
}

extension LocalTime: ExpressibleByStringLiteral {
    /// `"09:20"`. A literal that is not `HH:MM` from 00:00 to 23:59 makes an invalid time
    /// that `validate()` reports; it never traps.
    public init(stringLiteral text: String) {
        self = ConfigValueParsing.time(text) ?? LocalTime(invalid: ())
    }

    /// Parses `HH:MM` (00:00–23:59) from text an app holds; nil when it is not a time.
    public init?(_ text: String) {
        guard let time = ConfigValueParsing.time(text) else { return nil }
        self = time
    }

    /// The invalid time a malformed literal makes.
    init(invalid: Void) {
        self.minuteOfDay = -1
    }

    /// Whether this is a time of day (00:00–23:59); false only for a malformed literal.
    public var isValid: Bool { (0..<1440).contains(minuteOfDay) }
}

extension CivilDate: ExpressibleByStringLiteral {
    /// `"2026-11-23"`. A literal that is not a date of 1970–9999 makes a date that
    /// `validate()` reports; it never traps.
    public init(stringLiteral text: String) {
        self = ConfigValueParsing.date(text) ?? CivilDate(dayNumber: Int.min)
    }

    /// Parses `YYYY-MM-DD` (years 1970–9999) from text an app holds; nil when it is not
    /// such a date.
    public init?(_ text: String) {
        guard let date = ConfigValueParsing.date(text) else { return nil }
        self = date
    }

    /// Whether the date lies in `supportedYears`, the only dates a config may name.
    public var isSupported: Bool {
        (Self.firstSupportedDay...Self.lastSupportedDay).contains(dayNumber)
    }

    static let firstSupportedDay = dayNumber(year: supportedYears.lowerBound, month: 1, day: 1)
    static let lastSupportedDay = dayNumber(year: supportedYears.upperBound, month: 12, day: 31)
}

extension LocalDateTime: ExpressibleByStringLiteral {
    /// `"2026-12-03T14:30"`. A malformed literal makes a value `validate()` reports.
    public init(stringLiteral text: String) {
        self = ConfigValueParsing.dateTime(text) ?? LocalDateTime(date: CivilDate(dayNumber: Int.min), time: LocalTime(invalid: ()))
    }
}
