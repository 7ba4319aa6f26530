import Foundation
import Testing
@_spi(Tooling) import ReminderCompiler

/// The embedding article's example is this target's `EmbeddingExample.swift`: compiled
/// here, run here, and compared with the article so that neither can drift.
@Suite("The embedding article's example")
struct EmbeddingExampleTests {
    static let medications = [
        Medication(id: "aspirin", name: "Aspirin", dose: "100 mg", times: ["08:00"], weekdays: nil),
        Medication(id: "vitamin-d", name: "Vitamin D", dose: "1 capsule", times: ["08:00"], weekdays: [.monday, .thursday]),
        Medication(id: "metformin", name: "Metformin", dose: "500 mg with a meal", times: ["13:00", "19:00"], weekdays: nil),
    ]
    /// Monday 2026-11-23, 07:30 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_795_415_400)
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test("the embedding article shows exactly the example this target compiles")
    func readmeMatchesTheExample() throws {
        let source = String(decoding: try TestEnvironment.bytes(
            TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Embedding/EmbeddingExample.swift")
        ), as: UTF8.self)
        let example = try #require(source.components(separatedBy: "// Article: begin\n").last?.components(separatedBy: "// Article: end").first)
        let article = String(decoding: try TestEnvironment.bytes(
            TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler/Documentation.docc/EmbeddingInAnApp.md")
        ), as: UTF8.self)
        #expect(article.contains("```swift\n" + example + "```\n"))
    }

    @Test("it plans from the app's data, and the second launch finds nothing to change")
    func runs() throws {
        let first = try replan(
            medications: Self.medications, doses: [("aspirin", Self.now.addingTimeInterval(-1200))], pending: [],
            now: Self.now, zone: Self.berlin
        )
        // The aspirin logged at 07:10 leaves Vitamin D alone in today's 08:00 group.
        let today = try #require(first.plan.notifications.first)
        #expect(today.id == "doses-20261123-0800")
        #expect(today.reminders == ["vitamin-d"])
        #expect(today.title == "Vitamin D")
        #expect(first.changes.add.count == 60)  // 64 less the 4 reserved
        #expect(first.changes.notes.count == 1)
        // What the app scheduled is pending at the next launch: nothing to do.
        let scheduled = first.changes.add.map { PendingNotification(id: $0.id, fingerprint: $0.fingerprint) }
        let second = try replan(
            medications: Self.medications, doses: [("aspirin", Self.now.addingTimeInterval(-1200))], pending: scheduled,
            now: Self.now, zone: Self.berlin
        )
        #expect(!second.changes.hasChanges)
    }

    @Test("an invalid time from the app's data is an error naming its key path")
    func invalidData() throws {
        let broken = [Medication(id: "aspirin", name: "Aspirin", dose: "", times: ["8 am"], weekdays: nil)]
        #expect {
            _ = try replan(medications: broken, doses: [], pending: [], now: Self.now, zone: Self.berlin)
        } throws: { error in
            (error as? InvalidSchedule)?.problems.map(\.formatted) == ["reminders[0].schedule.times: error: 'times' must hold at least one entry"]
        }
    }
}
