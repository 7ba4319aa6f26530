/// Builds the VTIMEZONE component of one zone for the instants of a file (RFC 5545 §3.6.5).
///
/// Where the zone follows one yearly rule throughout a span of 400 days around the file's
/// instants, it is written in the RRULE form (one STANDARD, one DAYLIGHT) that Outlook
/// needs; otherwise as explicit observances, one per transition. Either way the first
/// observance starts in 1970, as in Apple's and Outlook's files, each onset is written in
/// the local time of its TZOFFSETFROM, and offsets carry no seconds.
struct VTimeZoneBuilder {
    let rules: ZoneRules

    /// A change of offset.
    struct Transition {
        let instant: Int64
        let offsetFrom: Int
        let offsetTo: Int
        let toDaylight: Bool

        /// The onset in the local time of the offset before it.
        var localOnset: Int64 { instant + Int64(offsetFrom) }
    }

    /// A yearly rule: the `ordinal`-th `weekday` of `month` at `secondOfDay` local time.
    struct YearlyRule: Equatable {
        let month: Int
        let ordinal: Int
        let weekday: Weekday
        let secondOfDay: Int
        let offsetFrom: Int
        let offsetTo: Int

        var rrule: String { "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(ordinal)\(weekday.code)" }

        /// The onset of this rule in `year`, as local seconds.
        func onset(in year: Int) -> Int64 {
            let length = CivilDate.daysInMonth(year: year, month: month)
            let first = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: month, day: 1))
            let day = weekday.dayOfMonth(ordinal: ordinal, length: length, firstWeekday: first.weekday)
            return Int64(CivilDate.dayNumber(year: year, month: month, day: day)) * 86_400 + Int64(secondOfDay)
        }
    }

    func transitions(in span: ClosedRange<Int64>) -> (initialOffset: Int, initialDaylight: Bool, transitions: [Transition]) {
        let timeline = ZoneTimeline(rules: rules, span: span)
        var result: [Transition] = []
        for (index, instant) in timeline.transitionInstants.enumerated() {
            result.append(Transition(
                instant: instant, offsetFrom: Int(timeline.offsets[index]), offsetTo: Int(timeline.offsets[index + 1]),
                toDaylight: rules.isDaylightSavingTime(at: instant)
            ))
        }
        return (Int(timeline.offsets[0]), rules.isDaylightSavingTime(at: span.lowerBound), result)
    }

    /// The yearly rule every transition follows, or nil.
    static func commonRule(of transitions: [Transition]) -> YearlyRule? {
        var candidates: [YearlyRule]?
        for transition in transitions {
            let local = transition.localOnset
            let (date, secondOfDay) = CivilDate.split(localSeconds: local)
            let (year, month, dayOfMonth) = date.components
            let length = CivilDate.daysInMonth(year: year, month: month)
            var ordinals = [(dayOfMonth - 1) / 7 + 1]
            if dayOfMonth + 7 > length { ordinals.insert(-1, at: 0) }
            let rules = ordinals.map {
                YearlyRule(
                    month: month, ordinal: $0, weekday: date.weekday, secondOfDay: secondOfDay,
                    offsetFrom: transition.offsetFrom, offsetTo: transition.offsetTo
                )
            }
            candidates = candidates.map { existing in existing.filter(rules.contains) } ?? rules
            if candidates?.isEmpty == true { return nil }
        }
        return candidates?.first
    }

    /// The VTIMEZONE lines for a file whose instants lie in `instants`.
    func lines(named zoneName: String, for instants: ClosedRange<Int64>) -> [(String, String)] {
        let margin: Int64 = 400 * 86_400
        let analysis = transitions(in: (instants.lowerBound - margin)...(instants.upperBound + margin))
        // X-LIC-LOCATION names the zone again for readers that look a zone up by name and
        // not by its rules, whatever its TZID: sabre/vobject (SabreDAV, Baikal, Nextcloud)
        // falls back to UTC for a TZID it does not know, but reads this property.
        var lines: [(String, String)] = [("BEGIN", "VTIMEZONE"), ("TZID", zoneName), ("X-LIC-LOCATION", zoneName)]
        let daylight = analysis.transitions.filter(\.toDaylight)
        let standard = analysis.transitions.filter { !$0.toDaylight }
        if analysis.transitions.isEmpty {
            // No change around the file: one observance from 1970.
            lines += observance(
                daylight: analysis.initialDaylight, onset: Self.onset1970, from: analysis.initialOffset, to: analysis.initialOffset
            )
        } else if !daylight.isEmpty, !standard.isEmpty,
                  let daylightRule = Self.commonRule(of: daylight), let standardRule = Self.commonRule(of: standard),
                  daylightRule.offsetTo == standardRule.offsetFrom, standardRule.offsetTo == daylightRule.offsetFrom
        {
            // Both rules from their onsets in 1970, as Apple's and Outlook's files have them:
            // vobject (Radicale) takes a zone that equals UTC over 2000–2020 for UTC, which
            // a zone on GMT in winter (London, Dublin) would if its rules began later.
            let year = 1970
            lines += observance(daylight: false, onset: standardRule.onset(in: year), from: standardRule.offsetFrom,
                                to: standardRule.offsetTo, rrule: standardRule.rrule)
            lines += observance(daylight: true, onset: daylightRule.onset(in: year), from: daylightRule.offsetFrom,
                                to: daylightRule.offsetTo, rrule: daylightRule.rrule)
        } else {
            // Explicit observances: every transition from 2000 (or 400 days before the
            // earliest instant) to 400 days after the latest, after the period in force at
            // the start, from 1970. The history back to 2000 keeps vobject from taking a
            // zone on UTC+0 part of the year (Casablanca during Ramadan) for UTC; the days
            // after the latest instant give the series that go on past the window their
            // offsets there.
            let year2000: Int64 = 946_684_800
            let history = transitions(in: min(year2000, instants.lowerBound - margin)...(instants.upperBound + margin))
            lines += observance(
                daylight: history.initialDaylight, onset: Self.onset1970, from: history.initialOffset, to: history.initialOffset
            )
            for transition in history.transitions {
                lines += observance(daylight: transition.toDaylight, onset: transition.localOnset, from: transition.offsetFrom,
                                    to: transition.offsetTo)
            }
        }
        lines.append(("END", "VTIMEZONE"))
        return lines
    }

    /// 1970-01-01T00:00 local: where observances start, as in Apple's and Outlook's files.
    static let onset1970: Int64 = 0

    private func observance(daylight: Bool, onset: Int64, from: Int, to: Int, rrule: String? = nil) -> [(String, String)] {
        let kind = daylight ? "DAYLIGHT" : "STANDARD"
        var lines: [(String, String)] = [
            ("BEGIN", kind), ("DTSTART", ICalendarFormat.localDateTime(onset)),
            ("TZOFFSETFROM", ICalendarFormat.offset(from)), ("TZOFFSETTO", ICalendarFormat.offset(to)),
        ]
        if let rrule {
            lines.append(("RRULE", rrule))
        } else {
            // The onset repeated as RDATE: RFC 5545 needs only DTSTART, but some readers
            // apply an observance only through its RRULE or RDATE.
            lines.append(("RDATE", ICalendarFormat.localDateTime(onset)))
        }
        lines.append(("END", kind))
        return lines
    }
}

/// Value formats of RFC 5545.
enum ICalendarFormat {
    /// `YYYYMMDDTHHMMSS` of local seconds.
    static func localDateTime(_ localSeconds: Int64) -> String {
        let (date, second) = CivilDate.split(localSeconds: localSeconds)
        let (year, month, dayOfMonth) = date.components
        return "\(zeroPadded(year, 4))\(zeroPadded(month, 2))\(zeroPadded(dayOfMonth, 2))T"
            + "\(zeroPadded(second / 3600, 2))\(zeroPadded(second / 60 % 60, 2))\(zeroPadded(second % 60, 2))"
    }

    /// `YYYYMMDDTHHMMSSZ` of an instant.
    static func utcDateTime(_ instant: Int64) -> String {
        localDateTime(instant) + "Z"
    }

    /// `YYYYMMDD`.
    static func date(_ date: CivilDate) -> String {
        let (year, month, day) = date.components
        return "\(zeroPadded(year, 4))\(zeroPadded(month, 2))\(zeroPadded(day, 2))"
    }

    /// `+HHMM` (seconds dropped: RFC 5545 allows them, many importers do not).
    static func offset(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        return (seconds < 0 ? "-" : "+") + zeroPadded(magnitude / 3600, 2) + zeroPadded(magnitude / 60 % 60, 2)
    }

    /// `PT15M`, `PT0S`.
    static func duration(minutes: Int) -> String {
        minutes == 0 ? "PT0S" : "PT\(minutes)M"
    }
}
