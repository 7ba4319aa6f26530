import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A batch job or service request gets no plan that `compile` would refuse to write: the
/// result refuses it as `compile` does, and stops encoding at the limit instead of holding
/// the whole of a plan no reader takes back.
@Suite("Plan job limits")
struct PlanJobLimitTests {
    static func job() throws -> PlanJob {
        let config = try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("medication.plist"))
        return PlanJob(id: "big", config: config, now: .instant(InstantParsing.rfc3339("2026-11-22T08:00:00Z")!))
    }

    @Test("a plan past the limit is refused with plan.output-too-large and no plan; under it, the plan compile writes")
    func planPastTheLimit() throws {
        var job = try Self.job()
        let whole = job.result()
        #expect(whole.ok)
        let line = String(decoding: whole.line, as: UTF8.self)
        #expect(line.contains(#""plan":{"#))
        // The medication plan is about 30 KB: a 4 KB limit is passed early in its writing.
        job.maximumPlanBytes = 4096
        let refused = job.result()
        #expect(!refused.ok)
        let refusedLine = String(decoding: refused.line, as: UTF8.self)
        #expect(!refusedLine.contains(#""plan":"#))
        #expect(refusedLine.contains(#""id": "plan.output-too-large""#), "\(refusedLine)")
        #expect(refusedLine.contains("4096 bytes"), "\(refusedLine)")
        #expect(refusedLine.hasPrefix(#"{"id":"big","ok":false,"diagnostics":["#))
        // The result is still one line of JSON.
        #expect(!refusedLine.contains("\n"))
        #expect((try? JSONSerialization.jsonObject(with: Data(refused.line))) != nil)
    }
}
