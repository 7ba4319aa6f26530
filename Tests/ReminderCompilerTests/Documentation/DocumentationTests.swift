import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The DocC catalogue and the README stay in step with the code: every key the decoders
/// accept is documented, every article is reachable from the landing page, and the README
/// stays a front door.
@Suite("Documentation")
struct DocumentationTests {
    static let catalogue = TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler/Documentation.docc")

    static func text(_ url: URL) throws -> String {
        String(decoding: try TestEnvironment.bytes(url), as: UTF8.self)
    }

    /// Each list of keys a decoder accepts, named by where it applies.
    static let acceptedKeys: [(place: String, keys: [String])] = [
        ("the config's root", ConfigDecoder.rootKeys),
        ("a group", ConfigDecoder.groupKeys),
        ("an action", ConfigDecoder.actionKeys),
        ("a reminder", ConfigDecoder.reminderKeys),
        ("a followUp", ConfigDecoder.followUpKeys),
        ("a schedule", ConfigDecoder.scheduleKeys),
        ("a window", ConfigDecoder.windowKeys),
        ("quietHours", ConfigDecoder.quietHoursKeys),
        ("an events file's root", EventsDecoder.rootKeys),
        ("an event", EventsDecoder.eventKeys),
    ]

    @Test("every key the config and events decoders accept appears, in code voice, in the Config reference")
    func everyKeyDocumented() throws {
        let reference = try Self.text(Self.catalogue.appendingPathComponent("ConfigReference.md"))
        var checked = 0
        for (place, keys) in Self.acceptedKeys {
            for key in keys {
                #expect(reference.contains("`\(key)`"), "\(place): key '\(key)' is not in ConfigReference.md")
                checked += 1
            }
        }
        // The lists are the decoders' own, not empty ones.
        #expect(checked > 60)
        #expect(ConfigDecoder.reminderKeys.contains("replacesEarlier"))
    }

    @Test("the landing page links every article of the catalogue, and every link names an article that exists")
    func landingPageLinksEveryArticle() throws {
        let articles = try FileManager.default.contentsOfDirectory(atPath: Self.catalogue.path)
            .filter { $0.hasSuffix(".md") && $0 != "ReminderCompiler.md" }
            .map { String($0.dropLast(3)) }
            .sorted()
        #expect(articles.count >= 10)
        let landing = try Self.text(Self.catalogue.appendingPathComponent("ReminderCompiler.md"))
        for article in articles {
            #expect(landing.contains("<doc:\(article)>"), "\(article).md is not linked from ReminderCompiler.md")
        }
        // Links between articles name files of the catalogue.
        for file in articles + ["ReminderCompiler"] {
            let text = try Self.text(Self.catalogue.appendingPathComponent("\(file).md"))
            for link in text.matches(of: /<doc:([A-Za-z]+)[#>]/) {
                #expect(articles.contains(String(link.1)), "\(file).md links <doc:\(link.1)>, which is not an article")
            }
        }
    }

    @Test("the README is a front door: at most 250 lines, its links into the catalogue resolve")
    func readmeIsShort() throws {
        let readme = try Self.text(TestEnvironment.repositoryRoot.appendingPathComponent("README.md"))
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 250, "README.md has \(lines) lines")
        var linked = 0
        for link in readme.matches(of: /\]\((Sources\/ReminderCompiler\/Documentation\.docc\/[A-Za-z]+\.md)[)#]/) {
            linked += 1
            let path = TestEnvironment.repositoryRoot.appendingPathComponent(String(link.1)).path
            #expect(FileManager.default.fileExists(atPath: path), "README links \(link.1), which does not exist")
        }
        #expect(linked >= 10)
    }

    @Test("the top entry of the changelog is the version remindc prints")
    func changelogNamesTheVersion() throws {
        let changelog = try Self.text(TestEnvironment.repositoryRoot.appendingPathComponent("CHANGELOG.md"))
        let firstEntry = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(firstEntry.hasPrefix("## \(ReminderCompiler.version) "), "\(firstEntry)")
    }
}
