import Foundation
import Testing

extension ExternalProgramTests {
    /// `examples/embedding`, an app-side package that depends on the ReminderCompiler
    /// product alone, built with SwiftPM as an app's package would be (scratch folder
    /// `.build/embedding-example`).
    @Suite("A package that embeds the library")
    struct EmbeddingPackageTests {
        static let package = TestEnvironment.examples.appendingPathComponent("embedding")
        static let scratch = TestEnvironment.repositoryRoot.appendingPathComponent(".build/embedding-example")

        @Test("resolves remindc and at most two other packages, none of the service's; builds and plans", .timeLimit(.minutes(3)))
        func resolvesOnlyTheLibrary() async throws {
            let swift = try #require(TestEnvironment.swiftExecutable, "swift is not on the PATH")
            // Planned afresh, so that a source file of remindc moved since the last run is seen.
            let built = try await run(swift, [
                "build", "--package-path", Self.package.path, "--scratch-path", Self.scratch.path, "--disable-build-manifest-caching",
            ])
            #expect(built.status == 0, "\(built.standardOutput)\(built.standardError)")

            // Package.resolved lists every package resolved from a URL (remindc itself comes by path).
            let resolved = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.package.appendingPathComponent("Package.resolved")))
            let pins = try #require((resolved as? [String: Any])?["pins"] as? [[String: Any]])
            let identities = pins.compactMap { $0["identity"] as? String }.sorted()
            #expect(identities.count + 1 <= 3, "\(identities)")
            for server in ["hummingbird", "swift-nio", "swift-prometheus", "swift-service-lifecycle"] {
                #expect(!identities.contains(server), "\(identities)")
            }

            let planned = try await run(Self.scratch.appendingPathComponent("debug/MedicationPlanner"), [])
            #expect(planned.status == 0, "\(planned.standardError)")
            // The aspirin logged at 07:10 silences today's 08:00 reminder (two-hour look-back).
            #expect(planned.standardOutput == """
            metformin-20261123-1300 Metformin
            metformin-20261123-1900 Metformin
            aspirin-20261124-0800 Aspirin
            metformin-20261124-1300 Metformin

            """)
        }
    }
}
