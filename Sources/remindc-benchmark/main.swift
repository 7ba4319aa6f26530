import Foundation
@_spi(Tooling) import ReminderCompiler

// Measures the compiler's stages on the workloads of the Performance article and prints
// medians.
// Run with: swift run -c release remindc-benchmark [--runs N]
// Whole processes: remindc-benchmark --whole-process PATH-TO-REMINDC [--runs N]

/// The median of `runs` timings of `body`, in milliseconds. What `body` returns is kept
/// until all runs are done, so that freeing it is not timed: a process that writes its
/// output and exits never frees it either.
func medianMilliseconds<Result>(runs: Int, _ body: () -> Result) -> Double {
    var timings: [Double] = []
    var results: [Result] = []
    results.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = monotonicSeconds()
        results.append(body())
        timings.append((monotonicSeconds() - start) * 1000)
    }
    timings.sort()
    return timings.count % 2 == 1
        ? timings[timings.count / 2]
        : (timings[timings.count / 2 - 1] + timings[timings.count / 2]) / 2
}

func format(_ milliseconds: Double) -> String {
    String(format: "%8.2f ms", milliseconds)
}

var runs = 15
if let index = CommandLine.arguments.firstIndex(of: "--runs"), index + 1 < CommandLine.arguments.count,
   let value = Int(CommandLine.arguments[index + 1]) {
    runs = max(1, value)
}

/// Writes a workload file, or stops: timings of a missing workload would mean nothing.
func writeWorkload(_ text: String, to path: String) {
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
        print("cannot write \(path)")
        exit(1)
    }
}

// --write-workloads DIR: write the workloads as config files, to time whole processes.
if let index = CommandLine.arguments.firstIndex(of: "--write-workloads"), index + 1 < CommandLine.arguments.count {
    let folder = CommandLine.arguments[index + 1]
    for (name, xml) in [("w1", Workloads.w1()), ("w2", Workloads.w2()), ("w2-3650", Workloads.w2(horizonDays: 3650)),
                        ("w2-lookback", Workloads.w2(lookbackHours: 2)), ("w2-10", Workloads.w2(reminderCount: 10)),
                        ("w2-1000", Workloads.w2(reminderCount: 1000))] {
        writeWorkload(xml, to: "\(folder)/\(name).plist")
    }
    let now = InstantParsing.rfc3339("2026-11-22T08:00:00Z")!
    writeWorkload(Workloads.w2Events(now: now), to: "\(folder)/w2-events.json")
    exit(0)
}

// --write-values FILE: W2's plan as the values of its notifications, for the C floor
// program (Tests/Performance/floor/plan_json_floor.c), which writes the same plan JSON
// from them without planning. The plan's bytes before its first notification and after
// its last are written as they are; each notification is one line of tab-separated
// values: id, kind, fireAt's seconds and UTC offset, slot's day number and minute of the
// day, reminders (comma-separated), group (empty when none), title, body, level,
// numericId, fingerprint (its 64 bits, in decimal), sequence.
if let index = CommandLine.arguments.firstIndex(of: "--write-values"), index + 1 < CommandLine.arguments.count {
    let now = InstantParsing.rfc3339("2026-11-22T08:00:00Z")!
    guard let plan = ReminderCompiler.compile(Array(Workloads.w2().utf8), path: "w2.plist", options: CompileOptions(now: .instant(now))).plan
    else {
        print("W2 does not compile")
        exit(1)
    }
    let json = PlanJSON.encode(plan)
    let opening = Array("\"notifications\": [\n".utf8), closing = Array("\n  ],\n  \"suppressed\"".utf8)
    guard let start = json.firstRange(of: opening)?.upperBound, let end = json.firstRange(of: closing)?.lowerBound else {
        print("the plan JSON has no notifications array")
        exit(1)
    }
    var lines = ["HEADER \(start)", String(decoding: json[..<start], as: UTF8.self),
                 "FOOTER \(json.count - end)", String(decoding: json[end...], as: UTF8.self),
                 "NOTIFICATIONS \(plan.notifications.count)"]
    for notification in plan.notifications {
        // Only the fields W2's notifications have: the floor program writes no others.
        guard notification.deferredFrom == nil, notification.timeZone == nil, notification.parent == nil,
              notification.category == nil, notification.sound == nil, notification.threadID == nil,
              notification.userInfo.isEmpty, notification.replaces.isEmpty, notification.durationMinutes == 15,
              let fingerprint = UInt64(notification.fingerprint, radix: 16)
        else {
            print("\(notification.id) has a field the floor program does not write")
            exit(1)
        }
        let names = [notification.id, notification.group ?? ""] + notification.reminders
        guard names.allSatisfy({ !$0.contains(",") }),
              (names + [notification.title, notification.body]).allSatisfy({ !$0.contains("\t") && !$0.contains("\n") })
        else {
            print("\(notification.id) has a tab, a line break or a comma where the values file cannot hold one")
            exit(1)
        }
        let fields: [String] = [
            notification.id, notification.kind.rawValue, String(notification.fireAt.seconds), String(notification.fireAt.offsetSeconds),
            String(notification.slot.date.dayNumber), String(notification.slot.time.minuteOfDay),
            notification.reminders.joined(separator: ","), notification.group ?? "", notification.title, notification.body,
            notification.interruptionLevel.rawValue, String(notification.numericId), String(fingerprint), String(notification.sequence),
        ]
        lines.append(fields.joined(separator: "\t"))
    }
    writeWorkload(lines.joined(separator: "\n") + "\n", to: CommandLine.arguments[index + 1])
    exit(0)
}

// --whole-process REMINDC: time whole `remindc` processes on the workloads (written to a
// temporary folder) and print their medians and peak memory.
if let index = CommandLine.arguments.firstIndex(of: "--whole-process"), index + 1 < CommandLine.arguments.count {
    let remindc = CommandLine.arguments[index + 1]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindc-benchmark-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (name, xml) in [("w1", Workloads.w1()), ("w2", Workloads.w2()), ("w2-3650", Workloads.w2(horizonDays: 3650))] {
        writeWorkload(xml, to: "\(folder)/\(name).plist")
    }
    let now = ["--now", "2026-11-22T08:00:00Z"]
    let later = ["--now", "2026-11-23T08:00:00Z"]
    _ = WholeProcess.run(remindc, ["compile", "\(folder)/w2.plist"] + now + ["-o", "\(folder)/a.json"])
    _ = WholeProcess.run(remindc, ["compile", "\(folder)/w2.plist"] + later + ["-o", "\(folder)/b.json"])
    let commands: [(String, [String], Int)] = [
        ("W1 compile, plan JSON", ["compile", "\(folder)/w1.plist"] + now + ["-o", "\(folder)/w1.json"], runs),
        ("W2 compile, plan JSON", ["compile", "\(folder)/w2.plist"] + now + ["-o", "\(folder)/w2.json"], runs),
        ("W2 compile, plan JSON + expanded .ics",
         ["compile", "\(folder)/w2.plist"] + now + ["-o", "\(folder)/w2.json", "--ics", "\(folder)/w2.ics"], runs),
        ("W2 at 3650 days, plan JSON + expanded .ics",
         ["compile", "\(folder)/w2-3650.plist"] + now + ["-o", "\(folder)/w2-3650.json", "--ics", "\(folder)/w2-3650.ics"],
         max(3, runs / 3)),
        ("diff of two W2 plans", ["diff", "\(folder)/a.json", "\(folder)/b.json", "--format", "json"], runs),
    ]
    print("Whole process: \(remindc), median of the runs, peak resident memory")
    for (label, arguments, count) in commands {
        var timings: [Double] = []
        var peak = 0
        for _ in 0..<count {
            guard let (milliseconds, peakKiB) = WholeProcess.run(remindc, arguments) else {
                print("cannot run \(remindc)")
                exit(1)
            }
            timings.append(milliseconds)
            peak = max(peak, peakKiB)
        }
        timings.sort()
        let median = timings[timings.count / 2]
        print("  \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(format(median))   \(peak / 1024) MB   (\(count) runs)")
    }
    exit(0)
}

let now = InstantParsing.rfc3339("2026-11-22T08:00:00Z")!
let options = CompileOptions(now: .instant(now))

let w2Events = Workloads.w2Events(now: now)
var events = ReminderEvents()
var eventDiagnostics = DiagnosticCollector()
if let decoded = ReminderCompiler.readEvents(Array(w2Events.utf8), path: "w2-events.json", diagnostics: &eventDiagnostics) {
    events = decoded
}

// --replan COUNT [--reconcile]: what an app does at each launch, COUNT times in one
// process: W1's config, already checked, planned a minute later each time and, with
// --reconcile, reconciled with what the plan before it scheduled. Run under callgrind with
// two counts; the difference of the totals over the difference of the counts is one
// re-plan without the process's start-up (Performance gives the commands).
if let index = CommandLine.arguments.firstIndex(of: "--replan"), index + 1 < CommandLine.arguments.count,
   let count = Int(CommandLine.arguments[index + 1]) {
    let reconciling = CommandLine.arguments.contains("--reconcile")
    guard let config = ReminderCompiler.check(Array(Workloads.w1().utf8), path: "W1").config else {
        print("W1 does not check")
        exit(1)
    }
    var pending: [PendingNotification] = []
    var scheduled = 0
    for launch in 0..<max(0, count) {
        guard let plan = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(now + Int64(launch) * 60))).plan else {
            print("W1 does not plan")
            exit(1)
        }
        scheduled += plan.notifications.count
        if reconciling {
            let reconciliation = plan.reconcile(pending: pending)
            scheduled += reconciliation.add.count - reconciliation.remove.count
            pending = plan.notifications.map { PendingNotification(id: $0.id, fingerprint: $0.fingerprint) }
        }
    }
    print("\(count) re-plans of W1\(reconciling ? " with reconciliation" : ""): \(scheduled) notifications in all")
    exit(0)
}

// --job COUNT: what the service computes for each `POST /v1/plan` of W1, COUNT times in
// one process: the job's JSON read (the config as plist text in it, as
// Tests/Performance/service_benchmark.sh sends it), the config read and checked, planned,
// and the result line written. Under callgrind with two counts, as --replan, it gives one
// request's computation without the HTTP around it. With --kept, the jobs share kept
// checks (CheckedConfigs), as the service's do: every job after the first takes its
// checked config from there.
if let index = CommandLine.arguments.firstIndex(of: "--job"), index + 1 < CommandLine.arguments.count,
   let count = Int(CommandLine.arguments[index + 1]) {
    let escapedConfig = Workloads.w1().unicodeScalars.map { scalar -> String in
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\t": "\\t"
        default: String(scalar)
        }
    }.joined()
    let body = Array("{\"config\": \"\(escapedConfig)\", \"now\": \"2026-11-22T08:00:00Z\"}".utf8)
    var bytes = 0
    let checkedConfigs = CommandLine.arguments.contains("--kept") ? CheckedConfigs() : nil
    for _ in 0..<max(0, count) {
        guard case .success(let job) = PlanJob.parse(body) else {
            print("the W1 job does not read")
            exit(1)
        }
        let result = job.result(checkedConfigs: checkedConfigs)
        guard result.ok else {
            print("the W1 job does not plan")
            exit(1)
        }
        bytes += result.line.count
    }
    print("\(count) W1 jobs: \(bytes) bytes of results in all")
    exit(0)
}

var workloads: [(String, String, ReminderEvents)] = [
    ("W1", Workloads.w1(), ReminderEvents()),
    ("W2", Workloads.w2(), ReminderEvents()),
    ("W2 + 10 000 events", Workloads.w2(lookbackHours: 2), events),
    ("W2 at 3650 days", Workloads.w2(horizonDays: 3650), ReminderEvents()),
]
if let index = CommandLine.arguments.firstIndex(of: "--only"), index + 1 < CommandLine.arguments.count {
    workloads = workloads.filter { $0.0 == CommandLine.arguments[index + 1] }
}
for (name, xml, events) in workloads {
    let bytes = Array(xml.utf8)
    guard let config = ReminderCompiler.check(bytes, path: name).config,
          let plan = ReminderCompiler.plan(config, options: options, events: events).plan
    else {
        print("\(name): the workload does not compile")
        exit(1)
    }
    let parse = medianMilliseconds(runs: runs) { ReminderCompiler.check(bytes, path: name) }
    let expand = medianMilliseconds(runs: runs) { ReminderCompiler.plan(config, options: options, events: events) }
    // The plan JSON as the CLI writes it: in chunks, to a file (here /dev/null).
    let devNull = NullDevice()
    let json = medianMilliseconds(runs: runs) {
        PlanJSON.write(plan) { chunk in devNull.write(chunk) }
    }
    let ics = medianMilliseconds(runs: runs) { ICalendarExport.expanded(plan, settings: CalendarSettings(config)) }
    // What `remindc compile -o … --ics …` does between reading the config and closing the
    // files: chunked planning with both outputs (the calendar on a second thread).
    var compilation = ChunkedCompilation(config: config, options: options)
    compilation.events = events
    let compile = medianMilliseconds(runs: runs) {
        (try? compilation.write(planTo: { _ in }, calendarTo: { _ in })) ?? []
    }
    let count = plan.notifications.count
    let jsonBytes = PlanJSON.encode(plan).count
    print("\(name): \(config.reminders.count) reminders, \(count) notifications, \(plan.suppressed.count) suppressed, \(jsonBytes / 1024) KiB of plan JSON, median of \(runs) runs")
    print("  parse + validate   \(format(parse))")
    print("  expand + plan      \(format(expand))")
    print("  plan JSON          \(format(json))")
    print("  expand + JSON      \(format(expand + json))   \(Int(Double(count) / ((expand + json) / 1000))) notifications/s")
    print("  expanded .ics      \(format(ics))")
    print("  compile, both      \(format(compile))   (chunked: expand, plan, JSON and .ics)")
}
