import Foundation
import ReminderCompiler

// Measures the compiler's stages on SPEC §12's workloads and prints medians.
// Run with: swift run -c release remindc-benchmark [--runs N]

/// Monotonic time in seconds.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The median of `runs` timings of `body`, in milliseconds.
func medianMilliseconds(runs: Int, _ body: () -> Void) -> Double {
    var timings: [Double] = []
    for _ in 0..<runs {
        let start = monotonicSeconds()
        body()
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

let now = InstantParsing.rfc3339("2026-11-22T08:00:00Z")!
let options = CompileOptions(now: .instant(now))

var workloads = [("W1", Workloads.w1()), ("W2", Workloads.w2()), ("W2 at 3650 days", Workloads.w2(horizonDays: 3650))]
if let index = CommandLine.arguments.firstIndex(of: "--only"), index + 1 < CommandLine.arguments.count {
    workloads = workloads.filter { $0.0 == CommandLine.arguments[index + 1] }
}
for (name, xml) in workloads {
    let bytes = Array(xml.utf8)
    guard let config = ReminderCompiler.check(bytes, path: name).config,
          let plan = ReminderCompiler.plan(config, options: options).plan
    else {
        print("\(name): the workload does not compile")
        exit(1)
    }
    var sink = 0
    let parse = medianMilliseconds(runs: runs) { sink &+= ReminderCompiler.check(bytes, path: name).diagnostics.count }
    let expand = medianMilliseconds(runs: runs) {
        sink &+= ReminderCompiler.plan(config, options: options).plan?.notifications.count ?? 0
    }
    let json = medianMilliseconds(runs: runs) { sink &+= PlanJSON.encode(plan).count }
    let count = plan.notifications.count
    print("\(name): \(config.reminders.count) reminders, \(count) notifications, median of \(runs) runs")
    print("  parse + validate   \(format(parse))")
    print("  expand + plan      \(format(expand))")
    print("  plan JSON          \(format(json))")
    print("  expand + JSON      \(format(expand + json))   \(Int(Double(count) / ((expand + json) / 1000))) notifications/s")
    if sink == 42 { print("") }  // keeps the work observable
}
