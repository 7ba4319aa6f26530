import Foundation
@_spi(Tooling) @testable import ReminderCompiler

/// Writes a config value as a plist config file, every field the format has, so that a
/// config built in code can be compiled by the command line and compared.
enum ConfigPlistWriter {
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func string(_ key: String, _ value: String) -> String { "<key>\(key)</key><string>\(escaped(value))</string>\n" }
    static func integer(_ key: String, _ value: Int) -> String { "<key>\(key)</key><integer>\(value)</integer>\n" }
    static func boolean(_ key: String, _ value: Bool) -> String { "<key>\(key)</key><\(value ? "true" : "false")/>\n" }
    static func strings(_ key: String, _ values: [String]) -> String {
        "<key>\(key)</key><array>" + values.map { "<string>\(escaped($0))</string>" }.joined() + "</array>\n"
    }

    static func write(_ config: ReminderConfig) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        xml += integer("formatVersion", 1)
        if let zone = config.timeZone { xml += string("timeZone", zone) }
        xml += integer("horizonDays", config.horizonDays)
        xml += integer("pendingLimit", config.pendingLimit)
        xml += integer("reservedSlots", config.reservedSlots)
        xml += "<key>minimumCoverageDays</key><real>\(config.minimumCoverageDays)</real>\n"
        xml += string("calendarName", config.calendarName)
        xml += string("uidDomain", config.uidDomain)
        if let quiet = config.quietHours {
            xml += "<key>quietHours</key><dict>" + string("from", quiet.from.description) + string("until", quiet.until.description)
                + string("action", quiet.action.rawValue) + "</dict>\n"
        }
        if !config.categories.isEmpty {
            xml += "<key>categories</key><dict>\n"
            for (id, actions) in config.categories.sorted(by: { $0.key < $1.key }) {
                xml += "<key>\(escaped(id))</key><array>\n"
                for action in actions {
                    xml += "<dict>" + string("id", action.id) + string("title", action.title)
                        + boolean("destructive", action.destructive) + boolean("foreground", action.foreground)
                        + (action.snoozeMinutes.map { integer("snoozeMinutes", $0) } ?? "") + "</dict>\n"
                }
                xml += "</array>\n"
            }
            xml += "</dict>\n"
        }
        if !config.groups.isEmpty {
            xml += "<key>groups</key><dict>\n"
            for (key, group) in config.groups.sorted(by: { $0.key < $1.key }) {
                xml += "<key>\(escaped(key))</key><dict>" + string("title", group.title) + string("body", group.body)
                    + (group.category.map { string("category", $0) } ?? "") + "</dict>\n"
            }
            xml += "</dict>\n"
        }
        xml += "<key>reminders</key><array>\n"
        for reminder in config.reminders { xml += write(reminder) }
        return xml + "</array>\n</dict>\n</plist>\n"
    }

    static func write(_ reminder: Reminder) -> String {
        var xml = "<dict>\n" + string("id", reminder.id) + string("title", reminder.title)
        if !reminder.body.isEmpty { xml += string("body", reminder.body) }
        if !reminder.bodies.isEmpty { xml += strings("bodies", reminder.bodies) }
        xml += boolean("enabled", reminder.enabled)
        if let group = reminder.group { xml += string("group", group) }
        xml += string("activity", reminder.activity)
        switch reminder.lookback {
        case .seconds(let seconds)?: xml += "<key>lookbackHours</key><real>\(Double(seconds) / 3600)</real>\n"
        case .sameDay?: xml += boolean("lookbackSameDay", true)
        case .sameDayCounted?: xml += boolean("lookbackSameDay", true) + boolean("countsEntries", true)
        case nil: break
        }
        if let followUp = reminder.followUp {
            xml += "<key>followUp</key><dict>" + integer("afterMinutes", followUp.afterMinutes)
                + (followUp.title.map { string("title", $0) } ?? "") + (followUp.body.map { string("body", $0) } ?? "")
                + (followUp.interruptionLevel.map { string("interruptionLevel", $0.rawValue) } ?? "")
                + (followUp.repeatCount == 1 ? "" : integer("repeat", followUp.repeatCount))
                + (followUp.everyMinutes.map { integer("everyMinutes", $0) } ?? "") + "</dict>\n"
        }
        xml += string("interruptionLevel", reminder.interruptionLevel.rawValue)
        if let category = reminder.category { xml += string("category", category) }
        if let sound = reminder.sound { xml += string("sound", sound) }
        if let thread = reminder.threadID { xml += string("threadID", thread) }
        if !reminder.userInfo.isEmpty {
            xml += "<key>userInfo</key><dict>" + reminder.userInfo.sorted { $0.key < $1.key }.map { string($0.key, $0.value) }.joined() + "</dict>\n"
        }
        xml += integer("durationMinutes", reminder.durationMinutes)
        xml += boolean("replacesEarlier", reminder.replacesEarlier)
        if let quiet = reminder.quietHours { xml += boolean("quietHours", quiet) }
        if let zone = reminder.timeZone { xml += string("timeZone", zone) }
        xml += "<key>schedule</key>" + write(reminder.schedule)
        return xml + "</dict>\n"
    }

    static func write(_ schedule: Schedule) -> String {
        var xml = "<dict>" + string("frequency", schedule.frequency.rawValue)
        if schedule.frequency == .once {
            xml += strings("at", schedule.at.map(\.description))
        } else {
            switch schedule.timesOfDay {
            case .list(let times): xml += strings("times", times.map(\.description))
            case .spread(let count, let window):
                xml += integer("timesPerDay", count) + "<key>window</key><dict>" + string("from", window.lowerBound.description)
                    + string("until", window.upperBound.description) + "</dict>"
            case .every(let minutes, let window):
                xml += integer("everyMinutes", minutes) + "<key>window</key><dict>" + string("from", window.lowerBound.description)
                    + string("until", window.upperBound.description) + "</dict>"
            }
            xml += integer("interval", schedule.interval)
            if let count = schedule.count { xml += integer("count", count) }
        }
        if !schedule.months.isEmpty {
            xml += "<key>months</key><array>" + schedule.months.map { "<integer>\($0)</integer>" }.joined() + "</array>"
        }
        if !schedule.weekdays.isEmpty { xml += strings("weekdays", schedule.weekdays.sorted().map(\.name)) }
        if !schedule.monthDays.isEmpty {
            xml += "<key>days</key><array>" + schedule.monthDays.map { "<integer>\($0)</integer>" }.joined() + "</array>"
            xml += string("missingDays", schedule.missingDays.rawValue)
        }
        if !schedule.weekdayOrdinals.isEmpty { xml += strings("weekdayOrdinals", schedule.weekdayOrdinals.map(\.description)) }
        if let start = schedule.start { xml += string("start", start.description) }
        if let end = schedule.end { xml += string("end", end.description) }
        if !schedule.exceptions.isEmpty { xml += strings("except", schedule.exceptions.sorted().map(\.description)) }
        return xml + "</dict>\n"
    }
}
