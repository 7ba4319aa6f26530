/// The result of checking one config.
public struct CheckResult: Sendable {
    /// The validated config, or nil when it has errors.
    public var config: ReminderConfig?
    /// Errors, warnings and notes, ordered by position.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// What a compile needs beyond the config file: the options of `remindc compile` (see
/// `remindc compile --help`).
public struct CompileOptions: Sendable {
    /// The compile instant: an absolute instant, or a local date and time read in the
    /// plan's zone (a local time in a gap or overlap is read as Planning rules, "Time zones
    /// and daylight-saving changes" says).
    public enum Moment: Sendable, Hashable {
        /// An absolute instant, in seconds since 1970-01-01T00:00:00Z.
        case instant(Int64)
        /// A local date and time, read in the plan's zone: `CompileOptions.timeZone` when
        /// set, else the config's `timeZone`.
        case local(LocalDateTime)
    }

    /// The compile instant.
    public var now: Moment
    /// Overrides the config's `timeZone`.
    public var timeZone: String?
    /// Overrides the config's `horizonDays` (1–3660).
    public var horizonDays: Int?
    /// Overrides the config's `pendingLimit` (0 = unlimited).
    public var pendingLimit: Int?

    /// Creates options.
    public init(now: Moment, timeZone: String? = nil, horizonDays: Int? = nil, pendingLimit: Int? = nil) {
        self.now = now
        self.timeZone = timeZone
        self.horizonDays = horizonDays
        self.pendingLimit = pendingLimit
    }
}

/// The result of compiling one config.
public struct CompileResult: Sendable {
    /// The plan, or nil when there were errors.
    public var plan: Plan?
    /// The validated config the plan was compiled from.
    public var config: ReminderConfig?
    /// Errors, warnings and notes about the config and the plan.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// The compiler's entry points. Pure functions of their inputs: no printing, no clock,
/// no exiting; the caller supplies bytes, the instant and the zone database.
public enum ReminderCompiler {
    /// The release of remindc, as `remindc --version` prints it.
    public static let version = "0.1.0"

    /// Parses and validates a config (the Config reference, and its "Validation" section).
    ///
    /// - Parameters:
    ///   - bytes: the file's content: a UTF-8 XML property list or, when its first
    ///     character that is not white space is `{`, the same dictionary as JSON.
    ///   - path: how diagnostics name the file.
    ///   - options: the zone override and the compile instant, when known.
    ///   - zones: the time-zone database to check names against.
    public static func check(
        _ bytes: [UInt8], path: String, options: ConfigOptions = ConfigOptions(),
        zones: TimeZoneDatabase = .system
    ) -> CheckResult {
        checkValidated(bytes, path: path, options: options, zones: zones).result
    }

    /// `check`, with the config validated for planning when it has no error.
    static func checkValidated(
        _ bytes: [UInt8], path: String, options: ConfigOptions, zones: TimeZoneDatabase
    ) -> (result: CheckResult, validated: ValidatedConfig?) {
        var collector = DiagnosticCollector()
        // A JSON config holds the same keys and values: its strings, integers, reals,
        // booleans, arrays and objects are what the plist's elements are.
        let isJSON = bytes.dropFirst(ByteOrderMark.length(of: bytes)).first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
        let root = isJSON
            ? JSONReader().read(bytes, path: path, diagnostics: &collector) : PlistReader().read(bytes, path: path, diagnostics: &collector)
        guard let root else {
            return (CheckResult(config: nil, diagnostics: collector.sorted), nil)
        }
        var decoder = ConfigDecoder(zones: zones)
        decoder.reader.diagnostics = collector
        var config = decoder.decode(root, options: options)
        let digest = ConfigDigest.sha256Hex(bytes)
        config?.sourceDigest = digest
        let validated = decoder.validated?.recordingSourceDigest(digest)
        // Set last: any change to the config after it drops it.
        config?.checked = validated.map { CheckedConfig($0, zones: zones) }
        return (CheckResult(config: config, diagnostics: decoder.reader.diagnostics.sorted), validated)
    }

    /// Compiles a config into a plan: parse → validate → expand → group → apply events →
    /// budget (Planning rules; the plan's fields are described in Plan format).
    ///
    /// - Parameters:
    ///   - bytes: the config file's bytes, plist XML or JSON.
    ///   - path: the name diagnostics give the config.
    ///   - options: the instant, zone and overrides of the compile.
    ///   - events: the events file's bytes and path, when there is one.
    ///   - zones: the tz database the zones are read from.
    public static func compile(
        _ bytes: [UInt8], path: String, options: CompileOptions, events: (bytes: [UInt8], path: String)? = nil,
        zones: TimeZoneDatabase = .system
    ) -> CompileResult {
        let inputs = load(bytes, path: path, options: options, events: events, zones: zones)
        guard let validated = inputs.validated else { return CompileResult(plan: nil, diagnostics: inputs.diagnostics) }
        return plan(validated, options: options, events: inputs.events, diagnostics: inputs.diagnostics, zones: zones, rangeDays: 28)
    }

    /// A config and events file read and checked, ready to plan.
@_spi(Tooling)     public struct Inputs: Sendable {
        /// The validated config, or nil when the config or the events have errors.
        public var config: ReminderConfig?
        /// The events (empty without an events file).
        public var events: ReminderEvents
        /// The diagnostics of both files.
        public var diagnostics: [Diagnostic]
        /// The config as validation passed it, which planning takes without checking again.
        var validated: ValidatedConfig?
    }

    /// Reads and checks a config and, when given, an events file; the config is taken from
    /// `checkedConfigs` when it holds it, and kept there.
    @_spi(Tooling) public static func load(
        _ bytes: [UInt8], path: String, options: CompileOptions, events: (bytes: [UInt8], path: String)? = nil,
        zones: TimeZoneDatabase = .system, checkedConfigs: CheckedConfigs? = nil
    ) -> Inputs {
        let configOptions = ConfigOptions(timeZoneOverride: options.timeZone)
        let (checked, validated) = checkedConfigs?.checkValidated(bytes, path: path, options: configOptions, zones: zones)
            ?? checkValidated(bytes, path: path, options: configOptions, zones: zones)
        var diagnostics = checked.diagnostics
        var parsedEvents = ReminderEvents()
        if let events {
            var collector = DiagnosticCollector()
            parsedEvents = readEvents(events.bytes, path: events.path, diagnostics: &collector) ?? parsedEvents
            diagnostics += collector.sorted
        }
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return Inputs(
            config: hasErrors ? nil : checked.config, events: parsedEvents, diagnostics: diagnostics, validated: hasErrors ? nil : validated
        )
    }

    /// Reads an events file, plist or JSON (Planning rules, "Events and suppression"); nil
    /// when it has errors.
    public static func readEvents(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> ReminderEvents? {
        EventsDecoder.decode(bytes, path: path, diagnostics: &diagnostics)
    }

    /// Reads an events file, plist or JSON (Planning rules, "Events and suppression"),
    /// returning its diagnostics as `compile` and `check` do; the events are nil when it
    /// has errors.
    public static func readEvents(_ bytes: [UInt8], path: String) -> (events: ReminderEvents?, diagnostics: [Diagnostic]) {
        var collector = DiagnosticCollector()
        let events = EventsDecoder.decode(bytes, path: path, diagnostics: &collector)
        return (events, collector.sorted)
    }

    /// Plans a validated config, after the events (Planning rules).
    ///
    /// The window is drafted a few weeks at a time, and only what the budget keeps is
    /// rendered and held: memory grows with the plan, not with what the window expands to.
    public static func plan(
        _ config: ReminderConfig, options: CompileOptions, events: ReminderEvents = ReminderEvents(),
        diagnostics: [Diagnostic] = [], zones: TimeZoneDatabase = .system
    ) -> CompileResult {
        plan(config, options: options, events: events, diagnostics: diagnostics, zones: zones, rangeDays: 28)
    }

    /// `plan`, drafting `rangeDays` at a time, of a config that may have been built or
    /// changed in code: it is checked first, and planned only when no rule fails. A config
    /// as `check` returned it, unchanged, is not checked again. Nothing is prepared for
    /// writing (`ChunkedCompilation.preparesOutput`): an app that plans in process reads
    /// the notifications, and seldom writes them.
    static func plan(
        _ config: ReminderConfig, options: CompileOptions, events: ReminderEvents, diagnostics: [Diagnostic],
        zones: TimeZoneDatabase, rangeDays: Int
    ) -> CompileResult {
        var compilation = config.checked?.validated(for: options, zones: zones)
            .map { ChunkedCompilation(validated: $0, options: options) } ?? ChunkedCompilation(config: config, options: options)
        compilation.preparesOutput = false
        return wholePlan(compilation, events: events, diagnostics: diagnostics, zones: zones, rangeDays: rangeDays)
    }

    /// Plans a validated config, drafting `rangeDays` at a time; any value gives the same
    /// plan (4 000 drafts the whole window at once, the reference the tests compare with).
    static func plan(
        _ validated: ValidatedConfig, options: CompileOptions, events: ReminderEvents, diagnostics: [Diagnostic],
        zones: TimeZoneDatabase, rangeDays: Int, stopSignal: StopSignal? = nil
    ) -> CompileResult {
        var compilation = ChunkedCompilation(validated: validated, options: options)
        compilation.stopSignal = stopSignal
        return wholePlan(compilation, events: events, diagnostics: diagnostics, zones: zones, rangeDays: rangeDays)
    }

    /// The whole plan, collected from the one planning driver.
    private static func wholePlan(
        _ compilation: ChunkedCompilation, events: ReminderEvents, diagnostics: [Diagnostic], zones: TimeZoneDatabase, rangeDays: Int
    ) -> CompileResult {
        var compilation = compilation
        compilation.events = events
        compilation.diagnostics = diagnostics
        compilation.zones = zones
        compilation.chunkDays = rangeDays
        return compilation.plan()
    }

    /// The instant of a compile moment in a zone: a local time is read as Planning rules,
    /// "Time zones and daylight-saving changes" says.
    /// A local time outside the years 1970–9999 (which `plan` refuses) gives 0.
    @_spi(Tooling) public static func instant(of moment: CompileOptions.Moment, in rules: ZoneRules) -> Int64 {
        if case .local = moment, !PlanSetup.isSupported(moment) { return 0 }
        return resolve(moment, rules: rules)
    }

    static func resolve(_ moment: CompileOptions.Moment, rules: ZoneRules) -> Int64 {
        switch moment {
        case .instant(let instant):
            return instant
        case .local(let local):
            let localSeconds = Int64(local.date.dayNumber) * 86_400 + Int64(local.time.minuteOfDay) * 60
            let timeline = ZoneTimeline(rules: rules, span: (localSeconds - 3 * 86_400)...(localSeconds + 3 * 86_400))
            return timeline.instant(ofLocal: localSeconds).instant
        }
    }
}

/// What every way of planning checks and computes before expanding (Planning rules, "Slots
/// and the planning window" and "The budget").
struct PlanSetup {
    struct Failure: Error {
        let diagnostics: [Diagnostic]
    }

    let config: ReminderConfig
    let zoneName: String
    let pendingLimit: Int
    let window: PlanningWindow
    var collector: DiagnosticCollector

    var budget: Budget { Budget(pendingLimit: pendingLimit, reservedSlots: config.reservedSlots) }

    /// The most slots (notifications and follow-ups, before events and the budget) a
    /// compile expands. Ten years of W2 count about 0.9 million here. At this cap the
    /// whole-plan path (`--diff`, a recurring calendar) peaks under 800 MB; at the former
    /// 20 million it took 7 GB and minutes.
    static let maximumSlots = 2_000_000

    /// Checks a config that may have been built or changed in code: nothing is planned
    /// before it passes the checks of the Config reference, "Validation". A decoded config's
    /// warnings were reported by the decoder already; an error in the options is reported
    /// beside the config's.
    static func validate(
        _ config: ReminderConfig, options: CompileOptions, diagnostics: [Diagnostic], zones: TimeZoneDatabase
    ) throws(Failure) -> (config: ValidatedConfig, diagnostics: [Diagnostic]) {
        let checked = ConfigValidator.validated(config, zones: zones, timeZoneOverride: options.timeZone)
        var collector = DiagnosticCollector()
        collector.append(contentsOf: diagnostics)
        collector.append(contentsOf: config.location.isKeyPath ? checked.diagnostics : checked.diagnostics.filter { $0.severity == .error })
        guard let validated = checked.config else {
            collector.append(contentsOf: optionErrors(options, config: config))
            throw Failure(diagnostics: collector.sorted)
        }
        return (validated, collector.sorted)
    }

    /// The errors of options a caller passes: a pending limit or an instant out of range.
    static func optionErrors(_ options: CompileOptions, config: ReminderConfig) -> [Diagnostic] {
        var collector = DiagnosticCollector()
        let optionsPlace = config.location.isKeyPath ? SourceLocation.keyPath("options") : config.location
        if let limit = options.pendingLimit, !(0...1_000_000).contains(limit) {
            collector.error(.outOfRange("pendingLimit", value: "\(limit)", range: "0–1000000 (0 = unlimited)"), at: optionsPlace)
        }
        if !isSupported(options.now) { collector.error(.nowOutOfRange, at: optionsPlace) }
        return collector.sorted
    }

    static func prepare(
        _ validated: ValidatedConfig, options: CompileOptions, events: ReminderEvents, diagnostics: [Diagnostic],
        zones: TimeZoneDatabase
    ) throws(Failure) -> PlanSetup {
        let config = validated.config
        var collector = DiagnosticCollector()
        collector.append(contentsOf: diagnostics)
        collector.append(contentsOf: optionErrors(options, config: config))
        collector.append(contentsOf: eventErrors(events))
        if collector.hasErrors { throw Failure(diagnostics: collector.sorted) }
        guard let zoneName = options.timeZone ?? config.timeZone, let rules = zones.zone(zoneName) else {
            collector.error(.noTimeZone, at: config.location)
            throw Failure(diagnostics: collector.sorted)
        }
        let horizonDays = options.horizonDays ?? config.horizonDays
        let pendingLimit = options.pendingLimit ?? config.pendingLimit
        if !(1...3660).contains(horizonDays) {
            collector.error(.horizonOutOfRange(horizonDays), at: config.location)
        }
        if pendingLimit > 0, config.reservedSlots >= pendingLimit {
            collector.error(.reservedSlotsNotBelowLimit(config.reservedSlots, limit: pendingLimit), at: config.location)
        }
        if collector.hasErrors { throw Failure(diagnostics: collector.sorted) }

        let now = ReminderCompiler.resolve(options.now, rules: rules)
        // IDs and timestamps have four-digit years.
        let lastSupported = Int64(CivilDate(year: 9999, month: 12, day: 30)!.dayNumber) * 86_400
        if now + Int64(horizonDays) * 86_400 > lastSupported {
            collector.error(.windowBeyondYear9999, at: config.location)
            throw Failure(diagnostics: collector.sorted)
        }
        // Configs are untrusted: refuse plans whose size alone would exhaust memory or time
        // (every 5 minutes for ten years, many times over), before expanding anything.
        // Summed over the planning order, whose times of day were resolved with the check:
        // filtering the reminders, or resolving their times, at every re-plan copied each.
        var slotBound = 0
        let reminders = validated.order.reminders.span
        for place in reminders.indices {
            let slots = reminders[place].schedule.frequency == .once
                ? reminders[place].schedule.at.count : validated.order.timesOfDay[place].count * (horizonDays + 3)
            slotBound += slots * (1 + (reminders[place].followUp?.chainLength ?? 0))
        }
        if slotBound > PlanSetup.maximumSlots {
            collector.error(.planTooLarge(bound: slotBound, limit: PlanSetup.maximumSlots), at: config.location)
            throw Failure(diagnostics: collector.sorted)
        }
        collector.append(contentsOf: ConfigDecoder.neverFiringWarnings(config, now: now, zone: rules, zones: zones))
        let windowEnd = now + Int64(horizonDays) * 86_400
        let margin: Int64 = 3 * 86_400
        let lateReach = Planner.lateReach(of: config)
        let timeline = ZoneTimeline(rules: rules, span: (now - margin - lateReach)...(windowEnd + margin))
        let window = PlanningWindow(now: now, windowEnd: windowEnd, timeline: timeline, rules: rules).pinning(config, zones: zones)
        collector.append(contentsOf: PlanWarnings(validated, window: window, events: events).all)
        return PlanSetup(config: config, zoneName: zoneName, pendingLimit: pendingLimit, window: window, collector: collector)
    }

    /// The errors of events built in code, which no file reader checked: an instant must
    /// lie in the years 1–9999 and a snooze last 1–1440 minutes, as an events file's must.
    /// Each is named by its key path (`events.actions[2].minutes`), or its place in the file
    /// it came from.
    static func eventErrors(_ events: ReminderEvents) -> [Diagnostic] {
        var collector = DiagnosticCollector()
        let instants = ZonedInstant.writableRange
        for (index, action) in events.actions.enumerated() {
            guard case .snooze(let at, let minutes) = action.kind else { continue }
            let place = action.location.isKeyPath ? SourceLocation.keyPath("events.actions[\(index)]") : action.location
            if !instants.contains(at) {
                collector.error(.outOfRange("at", value: "\(at)", range: "an instant in the years 1–9999"), at: place)
            }
            if let minutes, !OccurrenceAction.snoozeMinutesRange.contains(minutes) {
                collector.error(.outOfRange("minutes", value: "\(minutes)", range: "1–1440"), at: place)
            }
        }
        for activity in events.activities.keys.sorted() {
            for (index, at) in (events.activities[activity] ?? []).enumerated() where !instants.contains(at) {
                collector.error(
                    .outOfRange("at", value: "\(at)", range: "an instant in the years 1–9999"),
                    at: .keyPath("events.activities[\(VisibleText.quoted(activity))][\(index)]")
                )
            }
        }
        return collector.sorted
    }

    /// Whether a compile moment lies where dates have four-digit years and arithmetic on
    /// seconds cannot overflow (1970–9999, a day of margin either side).
    static func isSupported(_ moment: CompileOptions.Moment) -> Bool {
        switch moment {
        case .instant(let instant):
            return (Int64(CivilDate.firstSupportedDay - 1) * 86_400...Int64(CivilDate.lastSupportedDay + 1) * 86_400).contains(instant)
        case .local(let local):
            return local.date.isSupported && local.time.isValid
        }
    }

    /// A coverage shorter than `minimumCoverageDays` is a warning (Planning rules, "The budget").
    mutating func warnAboutCoverage(until coveredUntil: ZonedInstant) {
        let coverage = coveredUntil.seconds - window.now
        guard Double(coverage) < config.minimumCoverageDays * 86_400 else { return }
        let tenths = coverage * 10 / 86_400
        collector.warning(
            .coverageTooShort(
                days: "\(tenths / 10).\(tenths % 10)", until: coveredUntil.rfc3339, minimum: formatNumber(config.minimumCoverageDays)
            ),
            at: config.location
        )
    }
}

/// Finds notifications that share a `numericId` with an earlier one (Plan format: such a
/// repeat is a warning). While a plan is written only the numbers are held, each with the
/// place (a range of the window, say) where it came; when some number repeats, which is
/// rare, the IDs with it are looked up again in those places.
struct NumericIDCollisions {
    /// The numbers seen, each with the place it first came in: the number in the high
    /// half (with its top bit set, so that no entry is 0) and the place in the low half,
    /// in an open-addressing table at most three quarters full (eight bytes a slot: about
    /// what a dictionary of the numbers takes). Plans have hundreds of thousands of
    /// notifications and almost never a repeated number.
    private var table = [UInt64](repeating: 0, count: 1024)
    private var entries = 0
    /// The numbers seen again, and the places of all their notifications.
    private var repeatedNumbers: Set<UInt32> = []
    private var repeatedPlaces: Set<Int> = []

    /// Notes the next notification of the plan, found in `place`.
    mutating func note(_ numericID: UInt32, in place: Int = 0) {
        let key = UInt64(numericID | 0x8000_0000) << 32
        let entry = key | UInt64(UInt32(truncatingIfNeeded: place))
        var index = Self.slot(of: key, in: table.count)
        while table[index] != 0 {
            if table[index] & 0xFFFF_FFFF_0000_0000 == key {
                repeatedNumbers.insert(numericID)
                repeatedPlaces.insert(Int(Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: table[index]))))
                repeatedPlaces.insert(place)
                return
            }
            index = (index + 1) & (table.count - 1)
        }
        table[index] = entry
        entries += 1
        if entries * 4 > table.count * 3 { grow() }
    }

    /// A multiplicative hash of the key's high half, as an index into a table of `size`
    /// (a power of two) entries.
    private static func slot(of key: UInt64, in size: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (size - 1)
    }

    /// Makes room for `count` numbers in all at once, rather than doubling the table
    /// again and again as they come: W2 grew it seven times, for 4.1 M instructions.
    mutating func expect(_ count: Int) {
        var size = table.count
        while size - size / 4 < count, size < 1 << 40 { size *= 2 }
        if size > table.count { grow(to: size) }
    }

    private mutating func grow() { grow(to: table.count * 2) }

    private mutating func grow(to size: Int) {
        var larger = [UInt64](repeating: 0, count: size)
        for entry in table where entry != 0 {
            var index = Self.slot(of: entry & 0xFFFF_FFFF_0000_0000, in: larger.count)
            while larger[index] != 0 { index = (index + 1) & (larger.count - 1) }
            larger[index] = entry
        }
        table = larger
    }

    /// Warns about every notification whose number an earlier one had, in plan order,
    /// naming the first ID with it. `findIDs` feeds the search the plan's IDs in order,
    /// from the places it asks for; it is called only when some number repeats.
    func report(
        to collector: inout DiagnosticCollector, at location: SourceLocation,
        findIDs: (inout FirstIDSearch) -> Void
    ) {
        guard !repeatedNumbers.isEmpty else { return }
        var search = FirstIDSearch(wanted: repeatedNumbers, places: repeatedPlaces)
        findIDs(&search)
        for (numericID, id) in search.repeated {
            collector.warning(.numericIDCollision(numericID, search.first[numericID] ?? "", id), at: location)
        }
    }

    /// The IDs with some numbers, fed the plan's IDs in order: the first with each number,
    /// and the later ones in plan order.
    struct FirstIDSearch {
        let wanted: Set<UInt32>
        /// The places where IDs with those numbers are; the others need not be read.
        let places: Set<Int>
        private(set) var first: [UInt32: String] = [:]
        private(set) var repeated: [(numericID: UInt32, id: String)] = []
        init(wanted: Set<UInt32>, places: Set<Int>) {
            self.wanted = wanted
            self.places = places
        }

        mutating func look(at id: String) {
            let numericID = NotificationID.numericID(of: id)
            guard wanted.contains(numericID) else { return }
            if first[numericID] == nil {
                first[numericID] = id
            } else {
                repeated.append((numericID, id))
            }
        }
    }
}
