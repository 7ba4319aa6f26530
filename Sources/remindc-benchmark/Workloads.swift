@_spi(Tooling) import ReminderCompiler

/// The workloads of the Performance article, built in memory as config XML.
enum Workloads {
    /// W2: 100 reminders over 365 days with no limit — daily ×3, weekly ×2 on three days,
    /// monthly on the 1st, 15th and last day, daily 4× in a window; every 10th grouped.
    /// With another `reminderCount`, the same shape with more or fewer reminders, to show
    /// that the cost of a notification does not grow with their number.
    static func w2(horizonDays: Int = 365, lookbackHours: Int? = nil, reminderCount: Int = 100) -> String {
        var reminders = ""
        for index in 0..<reminderCount {
            let schedule: String
            switch index % 4 {
            case 0:
                schedule = "<key>frequency</key><string>daily</string><key>times</key><array><string>08:00</string><string>13:00</string><string>19:30</string></array>"
            case 1:
                schedule = "<key>frequency</key><string>weekly</string><key>weekdays</key><array><string>monday</string><string>wednesday</string><string>friday</string></array><key>times</key><array><string>07:15</string><string>18:45</string></array>"
            case 2:
                schedule = "<key>frequency</key><string>monthly</string><key>days</key><array><integer>1</integer><integer>15</integer><integer>-1</integer></array><key>times</key><array><string>10:00</string></array>"
            default:
                schedule = "<key>frequency</key><string>daily</string><key>timesPerDay</key><integer>4</integer><key>window</key><dict><key>from</key><string>09:00</string><key>until</key><string>21:00</string></dict>"
            }
            let group = index % 10 == 0 ? "<key>group</key><string>group-\(index / 40)</string>" : ""
            let lookback = lookbackHours.map { "<key>lookbackHours</key><integer>\($0)</integer>" } ?? ""
            reminders += """
            <dict><key>id</key><string>reminder-\(index)</string><key>title</key><string>Reminder \(index) — café, naïve; 💊</string>\
            <key>body</key><string>Take \(index) mg, with water</string>\(group)\(lookback)<key>schedule</key><dict>\(schedule)</dict></dict>

            """
        }
        return config(reminders: reminders, horizonDays: horizonDays, pendingLimit: 0)
    }

    /// 10 000 activity events spread over W2's year, for its 100 reminders' activities.
    static func w2Events(now: Int64, count: Int = 10_000) -> String {
        var events: [String] = []
        var state: UInt64 = 12_345
        for _ in 0..<count {
            // A linear congruential generator: the same events on every run.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let reminder = Int(state >> 33) % 100
            let at = now + Int64((state >> 7) % (365 * 86_400))
            events.append("{\"activity\": \"reminder-\(reminder)\", \"at\": \"\(ZonedInstant(seconds: at, offsetSeconds: 0).rfc3339)\"}")
        }
        return "{\"events\": [\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// W1: an app's config — ten reminders, 30 days, limit 64.
    static func w1() -> String {
        var reminders = ""
        for index in 0..<10 {
            let time = "\(10 + index):\(index % 2 == 0 ? "00" : "30")"
            let followUp = index < 3 ? "<key>followUp</key><dict><key>afterMinutes</key><integer>30</integer></dict>" : ""
            reminders += """
            <dict><key>id</key><string>med-\(index)</string><key>title</key><string>Medication \(index)</string>\
            \(followUp)<key>schedule</key><dict><key>frequency</key><string>daily</string><key>times</key><array><string>\(time)</string></array></dict></dict>

            """
        }
        return config(reminders: reminders, horizonDays: 30, pendingLimit: 64)
    }

    private static func config(reminders: String, horizonDays: Int, pendingLimit: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>formatVersion</key><integer>1</integer>
        <key>timeZone</key><string>Europe/Berlin</string>
        <key>horizonDays</key><integer>\(horizonDays)</integer>
        <key>pendingLimit</key><integer>\(pendingLimit)</integer>
        <key>minimumCoverageDays</key><integer>0</integer>
        <key>reminders</key>
        <array>
        \(reminders)</array>
        </dict>
        </plist>

        """
    }
}
