// One libFuzzer entry point for each reader of untrusted input. The reader is chosen by the
// environment variable REMINDC_FUZZ_READER, so that one build serves all five. Beyond
// "never crash, never hang" (libFuzzer and AddressSanitizer watch for those), each reader
// is held to a property that is cheap to check on every input.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@_spi(Tooling) import ReminderCompiler

/// A line on standard error (descriptor 2: the C library's `stderr` is a mutable global).
func report(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(2, &bytes, bytes.count)
}

enum Reader: String {
    case config, events, pending, plan, batch
}

let reader: Reader = {
    guard let name = getenv("REMINDC_FUZZ_READER").map({ String(cString: $0) }), let reader = Reader(rawValue: name) else {
        report("set REMINDC_FUZZ_READER to config, events, pending, plan or batch")
        exit(2)
    }
    return reader
}()

/// 2026-11-22T08:00:00Z: a fixed instant, as the library reads no clock.
let now = CompileOptions.Moment.instant(1_795_334_400)

/// A broken promise: libFuzzer saves the input that led here.
func fail(_ what: String) -> Never {
    report("property broken: \(what)")
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    switch reader {
    case .config:
        // A config either plans or has an error; a plan it gives reads back as itself.
        let result = ReminderCompiler.compile(bytes, path: "fuzz.plist", options: CompileOptions(now: now, horizonDays: 30))
        let hasError = result.diagnostics.contains { $0.severity == .error }
        guard let plan = result.plan else {
            if !hasError { fail("no plan and no error") }
            return 0
        }
        if hasError { fail("a plan beside an error") }
        let written = PlanJSON.encode(plan)
        var diagnostics = DiagnosticCollector()
        guard let reread = ReminderCompiler.readPlan(written, path: "plan.json", diagnostics: &diagnostics) else {
            fail("a compiled plan does not read back")
        }
        if PlanJSON.encode(reread) != written { fail("a compiled plan reads back changed") }
    case .events:
        let (events, diagnostics) = ReminderCompiler.readEvents(bytes, path: "fuzz.events.json")
        if (events == nil) != diagnostics.contains(where: { $0.severity == .error }) { fail("events and errors disagree") }
    case .pending:
        let (pending, diagnostics) = ReminderCompiler.readPending(bytes, path: "pending.json")
        if (pending == nil) != diagnostics.contains(where: { $0.severity == .error }) { fail("pending list and errors disagree") }
    case .plan:
        // A diff reading its plans a few bytes at a time answers as one given them whole.
        var offset = 0
        let pieces = { () -> [UInt8]? in
            defer { offset = min(bytes.count, offset + 7) }
            return Array(bytes[offset..<min(bytes.count, offset + 7)])
        }
        var otherOffset = 0
        let otherPieces = { () -> [UInt8]? in
            defer { otherOffset = min(bytes.count, otherOffset + 7) }
            return Array(bytes[otherOffset..<min(bytes.count, otherOffset + 7)])
        }
        if PlanDiff(oldPieces: pieces, newPieces: otherPieces) != PlanDiff(oldFile: bytes, newFile: bytes) {
            fail("a diff read in pieces differs from one read whole")
        }
        // Both plan readers, and a plan that reads writes what reads back the same.
        var diagnostics = DiagnosticCollector()
        guard let plan = ReminderCompiler.readPlan(bytes, path: "plan.json", diagnostics: &diagnostics) else { return 0 }
        let written = PlanJSON.encode(plan)
        var again = DiagnosticCollector()
        guard let reread = ReminderCompiler.readPlan(written, path: "plan.json", diagnostics: &again) else {
            fail("a plan that was read does not read back once written")
        }
        if PlanJSON.encode(reread) != written { fail("a plan changes on its second round") }
        _ = PlanDiff(oldFile: bytes, newFile: written)
    case .batch:
        // A job line either runs or fails as a job; either way its result is one JSON object
        // with no line break inside, as NDJSON needs.
        let line: [UInt8]
        switch PlanJob.parse(bytes) {
        case .success(let job): line = job.run()
        case .failure(let error): line = PlanJob.failure(error)
        }
        if line.contains(UInt8(ascii: "\n")) { fail("a result with a line break") }
        // Foundation's reader, independent of remindc's own.
        guard (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any] else { fail("a result that is not a JSON object") }
    }
    return 0
}

/// libFuzzer's driver, called from the program's entry point: SwiftPM names an executable's
/// entry point after its module, so libFuzzer's own `main` cannot be the program's.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("ReaderFuzz_main")
func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOne)
}
