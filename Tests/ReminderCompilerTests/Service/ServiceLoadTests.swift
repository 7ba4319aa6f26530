import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

// The service is built only with the package trait Service (`swift test --traits Service`).
#if Service
extension ExternalProgramTests {
    /// The service under load, in the group of suites that drive other programs one at a
    /// time. Those suites have run in the order of their files' names, so this one comes
    /// late, when most of the rest of the suite is done: the probes' times are then less
    /// those of a machine whose two cores a hundred other tests share.
    @Suite("Service under load")
    struct ServiceLoadTests {
        /// Normal clients beside slow and stalled ones, with /healthz probed throughout: the
        /// compile threads are not the event loops, slow bodies are cut off by the body
        /// timeout, and stalled heads by the idle timeout. Each probe of the loaded service is
        /// paired with one of an idle service started beside it: the whole suite shares the
        /// machine's two cores with this test, and what the idle service's answer waits for is
        /// the machine, not the load. The delay the load adds is held to 100 ms.
        @Test("under load from normal, slow and stalled clients, /healthz answers within 100 ms of an idle service's answer and no normal answer is lost", .timeLimit(.minutes(3)))
        func loadWithSlowClients() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let job = folder.appendingPathComponent("job.json")
            try ServiceTests.job("medication.plist").write(to: job)
            try await ServiceTests.withServer { idle in
                try await ServiceTests.withServer(["--body-timeout", "2", "--idle-timeout", "2"]) { server in
                    let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Service/load_test.py")
                    let result = try await Python.script([script.path, String(server.port), job.path, "6", String(idle.port)])
                    let lines = Dictionary(uniqueKeysWithValues: result.standardOutput.split(separator: "\n").map { line in
                        let fields = line.split(separator: " ").map(String.init)
                        return (fields[0], Array(fields.dropFirst()))
                    })
                    let normal = try #require(lines["normal"], "\(result.standardOutput)\(result.standardError)")
                    #expect((Int(normal[0]) ?? 0) >= 10, "answered \(normal[0])")
                    #expect(normal[1] == "0", "\(normal[1]) normal requests failed")
                    #expect((Int(try #require(lines["slow"]).first ?? "") ?? 0) >= 3, "slow bodies answered 408")
                    let healthz = try #require(lines["healthz"]), control = try #require(lines["control"])
                    let excess = try #require(lines["excess"])
                    #expect((Int(healthz[0]) ?? 0) >= 20)
                    #expect(control[3] != "inf", "the idle service failed a probe: \(control)")
                    let report = "healthz \(healthz), idle \(control), excess \(excess) (count, p50, p95, max in seconds)"
                    #expect((Double(healthz[1]) ?? .infinity) < 0.1, "\(report)")
                    #expect((Double(excess[2]) ?? .infinity) < 0.1, "\(report)")
                    #expect((Double(excess[3]) ?? .infinity) < 0.1, "\(report)")
                }
            }
        }
    }
}
#endif
