#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Date` and `TimeZone` where instants and zones go in and come out, so that apps need
/// not handle seconds since 1970 and zone names. Inside, the compiler keeps whole seconds
/// and IANA names: a `Date` is cut to the second below it.
extension CompileOptions {
    /// Options for planning at `now` in `timeZone` (which overrides the config's zone).
    public init(now: Date, timeZone: TimeZone? = nil, horizonDays: Int? = nil, pendingLimit: Int? = nil) {
        self.init(
            now: .instant(Self.seconds(of: now)), timeZone: timeZone?.identifier, horizonDays: horizonDays,
            pendingLimit: pendingLimit
        )
    }

    /// Whole seconds since 1970 below `date`; dates beyond ±10¹⁵ s are clamped, which
    /// `plan` then refuses as outside the years 1970–9999.
    static func seconds(of date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite else { return value < 0 ? -1_000_000_000_000_000 : 1_000_000_000_000_000 }
        return Int64(max(-1e15, min(1e15, value)))
    }
}

extension ZonedInstant {
    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}

extension PlannedNotification {
    /// When it fires, as a `Date`.
    public var fireDate: Date { fireAt.date }
}

extension Plan {
    /// The plan's zone as a `TimeZone`, for date components of OS triggers; nil only when
    /// Foundation does not know a zone the tz database has.
    public var zone: TimeZone? { TimeZone(identifier: timeZone) }
}

extension OccurrenceAction.Kind {
    /// Snoozed at `date` for `minutes` (nil: the category's snooze, else 10).
    public static func snooze(at date: Date, minutes: Int? = nil) -> Self {
        .snooze(at: CompileOptions.seconds(of: date), minutes: minutes)
    }
}

extension ReminderEvents {
    /// Records that `activity` was logged at `instant` (seconds since 1970).
    public mutating func logActivity(_ activity: String, at instant: Int64) {
        var instants = activities[activity, default: []]
        // Kept ascending, as the look-back search needs; apps mostly log in order.
        let position = instants.lastIndex { $0 <= instant }.map { $0 + 1 } ?? 0
        instants.insert(instant, at: position)
        activities[activity] = instants
    }

    /// Records that `activity` was logged at `date`.
    public mutating func logActivity(_ activity: String, at date: Date) {
        logActivity(activity, at: CompileOptions.seconds(of: date))
    }

    /// Records `done`, `skip` or `snooze` on an occurrence, notification or follow-up ID.
    public mutating func record(_ kind: OccurrenceAction.Kind, occurrence: String) {
        actions.append(OccurrenceAction(occurrence: occurrence, kind: kind))
    }
}
