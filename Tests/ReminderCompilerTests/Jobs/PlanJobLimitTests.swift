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

    @Test("a refused job gives the diagnostics compile gives for the same config and limit")
    func refusalAgreesWithCompile() throws {
        var job = try Self.job()
        job.maximumPlanBytes = 4096
        let line = job.result().line
        let inputs = ReminderCompiler.load(job.config, path: "big/config", options: CompileOptions(now: job.now), events: nil)
        var compilation = try #require(ChunkedCompilation(inputs: inputs, options: CompileOptions(now: job.now)))
        compilation.outputLimits.plan = 4096
        let diagnostics = try compilation.write(planTo: { _ in })
        #expect(diagnostics.last?.message.id == "plan.output-too-large")
        #expect(line == PlanJob.opening(id: "big", ok: false) + PlanJob.closing(diagnostics))
    }

    @Test("a refused job also says what is wrong with its previous plan")
    func refusalWithBrokenPrevious() throws {
        var job = try Self.job()
        job.maximumPlanBytes = 4096
        job.previous = Array(#"{"formatVersion": 1}"#.utf8)
        let line = String(decoding: job.result().line, as: UTF8.self)
        #expect(line.contains(#""id": "plan.output-too-large""#))
        #expect(line.contains("missing the required key 'timeZone'") && line.contains(#""file": "big/previous""#), "\(line.prefix(600))")
    }

    @Test("the layout comes out of JSON the same however it is cut into chunks")
    func layoutAcrossChunks() throws {
        let pretty = Array("{\n  \"a\": [\n    1,\n\n    \"x  y\\n\"\n  ],\n  \"b\": {\n  }\n}\n".utf8)
        let whole = PlanJob.compact(pretty)
        #expect(String(decoding: whole, as: UTF8.self) == #"{"a": [1,"x  y\n"],"b": {}}"#)
        for cut in 0...pretty.count {
            for second in cut...pretty.count {
                var remover = JSONLayoutRemover()
                // What the line holds already is left as it is, its layout too.
                let before = Array("{\"plan\":\n  ".utf8)
                var result = before
                for part in [pretty[..<cut], pretty[cut..<second], pretty[second...]] {
                    remover.append(Array(part).span, to: &result)
                }
                #expect(result == before + whole, "cut at \(cut) and \(second)")
            }
        }
    }
}
