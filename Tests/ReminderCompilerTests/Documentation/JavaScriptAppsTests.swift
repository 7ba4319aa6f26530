import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The job the JavaScript article sends is one the service plans: its config checks clean
/// and the job gives a plan.
@Suite("The JavaScript article's job")
struct JavaScriptAppsTests {
    @Test("the example job of JavaScriptApps.md plans without a diagnostic")
    func exampleJobPlans() throws {
        let article = String(decoding: try TestEnvironment.bytes(
            TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler/Documentation.docc/JavaScriptApps.md")
        ), as: UTF8.self)
        let start = try #require(article.range(of: "```json\n"))
        let end = try #require(article.range(of: "\n```", range: start.upperBound..<article.endIndex))
        let job = Array(article[start.upperBound..<end.lowerBound].utf8)
        let parsed = try PlanJob.parse(job).get()
        let result = try #require(try JSONSerialization.jsonObject(with: Data(parsed.run())) as? [String: Any])
        #expect(result["ok"] as? Bool == true, "\(result["diagnostics"] ?? "")")
        #expect((result["diagnostics"] as? [Any])?.isEmpty == true)
        let plan = try #require(result["plan"] as? [String: Any])
        #expect(((plan["notifications"] as? [Any])?.count ?? 0) > 0)
    }
}
