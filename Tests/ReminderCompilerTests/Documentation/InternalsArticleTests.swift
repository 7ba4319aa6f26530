import Foundation
import Testing

/// The Internals article draws the tree as it is: every folder of the library and of the
/// tests is in its layout, and every diagnostic id the sources give is in its catalogue.
@Suite("Internals matches the tree")
struct InternalsArticleTests {
    static let root = TestEnvironment.repositoryRoot

    static func article() throws -> String {
        try DocumentationTests.text(DocumentationTests.catalogue.appendingPathComponent("Internals.md"))
    }

    /// The folders directly inside `path`, relative to the repository.
    static func folders(in path: String) throws -> [String] {
        let folder = root.appendingPathComponent(path)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue && !name.hasPrefix(".") && !name.hasSuffix(".docc")
        }.sorted()
    }

    @Test("every folder of the library and every target is in the article's layout")
    func layoutNamesEveryFolder() throws {
        let article = try Self.article()
        let library = try Self.folders(in: "Sources/ReminderCompiler")
        for folder in library {
            #expect(article.contains(" \(folder)/"), "Sources/ReminderCompiler/\(folder) is not in Internals' layout")
        }
        for target in try Self.folders(in: "Sources") {
            #expect(article.contains("  \(target)/"), "Sources/\(target) is not in Internals' layout")
        }
        // The walk saw the stages, not an empty or moved folder.
        #expect(library.count >= 15)
        #expect(library.contains("Unsafe"))
    }

    @Test("every test folder is named in the article's Tests section")
    func testsSectionNamesEveryFolder() throws {
        let article = try Self.article()
        let tests = try #require(article.firstRange(of: "\n## Tests\n"))
        let section = article[tests.upperBound...]
        let folders = try Self.folders(in: "Tests/ReminderCompilerTests")
        for folder in folders {
            #expect(section.contains("`\(folder)/`"), "Tests/ReminderCompilerTests/\(folder) is not in Internals' Tests section")
        }
        #expect(folders.count >= 15)
    }

    @Test("every diagnostic id written in the sources is in the article's catalogue")
    func catalogueHoldsEveryID() throws {
        let article = try Self.article()
        let idPattern = try Regex(#"id: "([a-z0-9]+(?:[.-][a-z0-9]+)+)""#)
        var ids: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try DocumentationTests.text(Self.root.appendingPathComponent("Sources/\(path)"))
            for match in text.matches(of: idPattern) {
                if let id = match.output[1].substring { ids.insert(String(id)) }
            }
        }
        for id in ids.sorted() {
            #expect(article.contains("`\(id)`"), "diagnostic id '\(id)' is not in Internals' catalogue")
        }
        // The sources' catalogue was read, not an empty folder.
        #expect(ids.count > 80)
        #expect(ids.contains("plan.stopped"))
    }

    @Test("every diagnostic message is made in the one catalogue, Diagnostics/DiagnosticMessage.swift")
    func oneCatalogue() throws {
        // A message id is a dotted name given to `id:`; the catalogue is the only file that
        // gives one (the service names its answers through `serviceAnswer`).
        let idPattern = try Regex(#"id: "[a-z0-9-]+\.[a-z0-9\\(]"#)
        let catalogue = "ReminderCompiler/Diagnostics/DiagnosticMessage.swift"
        var found = 0
        let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try DocumentationTests.text(Self.root.appendingPathComponent("Sources/\(path)"))
            let matches = text.matches(of: idPattern).count
            if path == catalogue {
                found = matches
            } else {
                #expect(matches == 0, "Sources/\(path) makes \(matches) diagnostic message(s) outside the catalogue")
            }
        }
        #expect(found > 80)
    }
}
