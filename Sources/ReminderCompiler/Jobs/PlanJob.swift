/// One planning request as `remindc batch` reads it from an NDJSON line (and a service
/// from a request body): a config, what happened, the instant, and optionally the previous
/// plan. Stateless: the same job gives the same bytes.
///
/// ```json
/// {"id": "user-17", "config": "<?xml …" or {…}, "events": {"events": […]}, "now": "2026-11-22T08:00:00Z",
///  "timeZone": "Europe/Berlin", "previous": {…a plan…}}
/// ```
/// `config` is the text of a plist or JSON config, or a JSON config object; `events` an
/// events object or the text of an events file; `previous` a plan object; `pending` the
/// notifications the OS holds (as `remindc reconcile --pending` reads them). Only `config`
/// and `now` are required: the library reads no clock.
@_spi(Tooling) public struct PlanJob: Sendable {
    /// Echoed in the result, so that results can be matched to jobs.
    public var id: String?
    /// A plist XML or JSON config.
    public var config: [UInt8]
    /// An events file, plist or JSON.
    public var events: [UInt8]?
    /// The compile instant: an absolute instant, or a local time read in the plan's zone.
    public var now: CompileOptions.Moment
    /// Overrides the config's `timeZone`, as `--time-zone` does on the command line.
    public var timeZone: String?
    /// A previous plan JSON: the result then carries the diff from it.
    public var previous: [UInt8]?
    /// The pending notifications the OS holds (JSON array): the result then carries the
    /// reconciliation, what to remove and then add.
    public var pending: [UInt8]?
    /// The largest plan a result may hold: `compile`'s limit, lowered only by tests.
    var maximumPlanBytes = ReminderCompiler.maximumPlanBytes

    /// Creates a job.
    public init(
        id: String? = nil, config: [UInt8], events: [UInt8]? = nil, now: CompileOptions.Moment, timeZone: String? = nil,
        previous: [UInt8]? = nil, pending: [UInt8]? = nil
    ) {
        self.id = id
        self.config = config
        self.events = events
        self.now = now
        self.timeZone = timeZone
        self.previous = previous
        self.pending = pending
    }

    /// The keys a job may have.
    static let keys: Set = ["id", "config", "events", "now", "timeZone", "previous", "pending"]

    /// Reads a job from a JSON object (one NDJSON line). A job that cannot be read gives
    /// its error and whatever `id` could be read, for the result to carry.
    public static func parse(_ bytes: [UInt8]) -> Result<PlanJob, PlanJobError> {
        let members: [(key: String, value: Range<Int>)]
        switch JSONScanner.members(of: bytes) {
        case .failure(let failure): return .failure(PlanJobError(id: nil, message: "not a JSON object: \(failure.reason) at byte \(failure.offset + 1)"))
        case .success(let found): members = found
        }
        var values: [String: Range<Int>] = [:]
        for member in members { values[member.key] = member.value }
        func text(_ key: String) -> String? {
            guard let range = values[key], let bytes = JSONScanner.decodedString(Array(bytes[range])) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        let id = text("id")
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            let suggestion = closestMatch(to: unknown.key, in: keys.sorted()).map { "; did you mean '\($0)'?" } ?? ""
            return .failure(PlanJobError(id: id, message: "unknown key '\(unknown.key)' in the job\(suggestion)"))
        }
        guard let configRange = values["config"] else { return .failure(PlanJobError(id: id, message: "the job has no 'config'")) }
        guard let nowText = text("now") else {
            return .failure(PlanJobError(id: id, message: "the job has no 'now' (an RFC 3339 instant or a local time)"))
        }
        let now: CompileOptions.Moment
        if let instant = InstantParsing.rfc3339(nowText) {
            now = .instant(instant)
        } else if let local = InstantParsing.localDateTime(nowText) {
            now = .local(local)
        } else {
            return .failure(PlanJobError(id: id, message: "'now' \(nowText) is neither an RFC 3339 instant nor a local time"))
        }
        // A nested document is passed on as its bytes, or as the text of a string.
        func document(_ range: Range<Int>) -> [UInt8] {
            let raw = Array(bytes[range])
            return raw.first == UInt8(ascii: "\"") ? JSONScanner.decodedString(raw) ?? [] : raw
        }
        return .success(PlanJob(
            id: id, config: document(configRange), events: values["events"].map(document), now: now, timeZone: text("timeZone"),
            previous: values["previous"].map(document), pending: values["pending"].map(document)
        ))
    }
}

/// What stopped a job: its config's or events' diagnostics.
@_spi(Tooling) public struct PlanJobDiagnostics: Error, Sendable {
    /// Every diagnostic of the compile: the errors that stopped it, and any warnings and
    /// notes, with the job's id before each file name.
    public var diagnostics: [Diagnostic]
}

/// A job that could not be read.
@_spi(Tooling) public struct PlanJobError: Error, Sendable, Hashable {
    /// The job's `id`, when it could be read.
    public var id: String?
    /// What is wrong with the job, in one line (an unknown or missing key, say).
    public var message: String

    /// Creates an error of a job.
    public init(id: String?, message: String) {
        self.id = id
        self.message = message
    }
}

extension PlanJob {
    /// Runs the job: the result as one line of compact JSON (no line break inside), with
    /// `ok`, the plan, the diff from `previous` when given, and every diagnostic. Names in
    /// diagnostics are `config`, `events` and `previous`, prefixed by the job's id.
    public func run(zones: TimeZoneDatabase = .system) -> [UInt8] {
        result(zones: zones).line
    }

    /// How diagnostics name the job's documents: `config`, `events`, `previous` and
    /// `pending`, after `{id}/` when the job has an id.
    private var namePrefix: String { id.map { "\($0)/" } ?? "" }

    /// The options the job is compiled with.
    private var options: CompileOptions { CompileOptions(now: now, timeZone: timeZone) }

    /// The job's config and events, read and checked; the config taken from
    /// `checkedConfigs` when it holds it.
    private func loadInputs(zones: TimeZoneDatabase, checkedConfigs: CheckedConfigs?) -> ReminderCompiler.Inputs {
        ReminderCompiler.load(
            config, path: namePrefix + "config", options: options, events: events.map { ($0, namePrefix + "events") }, zones: zones,
            checkedConfigs: checkedConfigs
        )
    }

    /// The job's previous plan, when it has one, and what reading it found.
    private func readPrevious() -> (plan: Plan?, diagnostics: [Diagnostic]) {
        guard let previous else { return (nil, []) }
        var collector = DiagnosticCollector()
        let plan = ReminderCompiler.readPlan(previous, path: namePrefix + "previous", diagnostics: &collector)
        return (plan, collector.sorted)
    }

    /// Runs the job: whether it planned, and its result line (see `run`).
    /// `stopSignal`, when raised, stops the planning (see `StopSignal`); `checkedConfigs`
    /// holds configs checked before, which give the same line.
    ///
    /// The plan is made by the planning driver `compile` writes files with, range by range
    /// into the result line: memory holds the answer, and the plan's notifications besides
    /// only when a diff or a reconciliation needs them. A plan `compile` would refuse to
    /// write is refused here too, once its JSON passes the limit.
    public func result(
        zones: TimeZoneDatabase = .system, stopSignal: StopSignal? = nil, checkedConfigs: CheckedConfigs? = nil
    ) -> (ok: Bool, line: [UInt8]) {
        let inputs = loadInputs(zones: zones, checkedConfigs: checkedConfigs)
        guard inputs.validated != nil, var compilation = ChunkedCompilation(inputs: inputs, options: options) else {
            return (false, Self.opening(id: id, ok: false) + Self.closing(inputs.diagnostics))
        }
        // The previous plan is read first: its sequences are carried as the plan is made.
        let previous = readPrevious()
        compilation.previous = previous.plan
        compilation.zones = zones
        compilation.stopSignal = stopSignal
        compilation.outputLimits.plan = maximumPlanBytes
        // The plan goes straight into the line of a job that plans: one copy of the answer.
        var line = Self.opening(id: id, ok: true) + Array(",\"plan\":".utf8)
        var layout = JSONLayoutRemover()
        let planned = compilation.writePlan(keepingNotifications: previous.plan != nil || pending != nil) { chunk in
            layout.append(chunk, to: &line)
        }
        guard let plan = planned.plan else {
            // A refused plan's diagnostics, and what is wrong with the previous plan.
            return (false, Self.opening(id: id, ok: false) + Self.closing(planned.diagnostics + previous.diagnostics))
        }
        var diagnostics = planned.diagnostics + previous.diagnostics
        var pendingList: [PendingNotification]?
        if let pending {
            let read = ReminderCompiler.readPending(pending, path: namePrefix + "pending")
            pendingList = read.pending
            diagnostics += read.diagnostics
        }
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            return (false, Self.opening(id: id, ok: false) + Self.closing(diagnostics))
        }
        if let previousPlan = previous.plan {
            line += Array(",\"diff\":".utf8)
            line += Self.compact(DiffOutput.json(PlanDiff(old: previousPlan, new: plan)))
        }
        if let pendingList {
            line += Array(",\"reconciliation\":".utf8)
            line += Self.compact(ReconciliationOutput.json(plan.reconcile(pending: pendingList)))
        }
        line += Self.closing(diagnostics)
        return (true, line)
    }

    /// A job that could not be read, as its result line.
    public static func failure(_ error: PlanJobError) -> [UInt8] {
        opening(id: error.id, ok: false)
            + closing([Diagnostic(.error, at: .keyPath("job"), .invalidJob(error.message))])
    }

    /// `{"id":…,"ok":…` of a result line.
    static func opening(id: String?, ok: Bool) -> [UInt8] {
        var line = Array("{".utf8)
        if let id {
            var writer = JSONWriter()
            writer.string(id)
            line += Array("\"id\":".utf8) + writer.bytes + Array(",".utf8)
        }
        return line + Array("\"ok\":\(ok)".utf8)
    }

    /// `,"diagnostics":[…]}` of a result line.
    static func closing(_ diagnostics: [Diagnostic]) -> [UInt8] {
        Array(",\"diagnostics\":".utf8) + compact(Array(DiagnosticRendering.json(diagnostics).utf8)) + Array("}".utf8)
    }

    /// JSON without its layout, on one line.
    static func compact(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var layout = JSONLayoutRemover()
        layout.append(bytes.span, to: &result)
        return result
    }
}

extension PlanJob {
    /// The job's plan as a calendar (see the Calendars article) in `style`, or the
    /// diagnostics that stopped it: the bytes `remindc compile --ics` writes for the same
    /// config, events, instant and previous plan, by the same planning driver — the
    /// config's `calendarScope` and the previous plan's sequences included. `checkedConfigs`
    /// holds configs checked before, which give the same calendar.
    public func calendar(
        style: ICalendarStyle, zones: TimeZoneDatabase = .system, stopSignal: StopSignal? = nil, checkedConfigs: CheckedConfigs? = nil
    ) -> Result<[UInt8], PlanJobDiagnostics> {
        let inputs = loadInputs(zones: zones, checkedConfigs: checkedConfigs)
        let previous = readPrevious()
        let previousPlan = previous.plan
        let diagnostics = inputs.diagnostics + previous.diagnostics
        guard !diagnostics.contains(where: { $0.severity == .error }),
              var compilation = ChunkedCompilation(inputs: inputs, options: options)
        else {
            return .failure(PlanJobDiagnostics(diagnostics: diagnostics))
        }
        compilation.previous = previousPlan
        compilation.zones = zones
        compilation.stopSignal = stopSignal
        let collected = compilation.collect(calendarStyle: style)
        guard let calendar = collected.calendar, !collected.diagnostics.contains(where: { $0.severity == .error }) else {
            return .failure(PlanJobDiagnostics(diagnostics: collected.diagnostics))
        }
        return .success(calendar)
    }

    /// A config checked on its own, as a result line: `ok` and the diagnostics.
    public static func check(_ config: [UInt8], path: String = "config", options: ConfigOptions = ConfigOptions()) -> (ok: Bool, json: [UInt8]) {
        let result = ReminderCompiler.check(config, path: path, options: options)
        let ok = !result.hasErrors
        return (ok, opening(id: nil, ok: ok) + closing(result.diagnostics))
    }

    /// Diagnostics alone, as a result line with `ok` false.
    public static func failure(_ diagnostics: [Diagnostic]) -> [UInt8] {
        opening(id: nil, ok: false) + closing(diagnostics)
    }
}
