import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The HTML pages as a real browser builds them: headless Chromium renders each page, its
/// DOM is checked against the plan by `check_html.py` (every notification once, on its day
/// and hour, with its title; the coverage line on its date; no scripts, nothing from the
/// network), and its screenshot must be a full-size picture that is not blank.
/// Debian's `chromium`, which `.ci/run` installs.
enum Browser {
    static let chromium: URL? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    /// CI sets REMINDC_REQUIRE_CHROMIUM, so that a missing browser fails rather than skips.
    static let required = ProcessInfo.processInfo.environment["REMINDC_REQUIRE_CHROMIUM"] != nil
}

extension ExternalProgramTests {
    @Suite("HTML in a real browser", .enabled(if: Browser.chromium != nil || Browser.required, "chromium is not installed"))
    struct BrowserTests {
        static let golden = CompileCommandTests.golden.appendingPathComponent("html")
        static let checker = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/HTML/check_html.py")

        /// Renders a page: its DOM and a screenshot, each by a browser of its own profile.
        static func render(_ page: URL, in folder: URL) async throws -> (dom: URL, screenshot: URL) {
            let browser = try #require(Browser.chromium, "chromium is required here (REMINDC_REQUIRE_CHROMIUM)")
            let common = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--window-size=1400,1800"]
            let dom = folder.appendingPathComponent("page.dom")
            let dumped = try await run(browser, common + ["--user-data-dir=\(folder.path)/profile-dom", "--dump-dom", page.absoluteString])
            #expect(dumped.status == 0, "\(dumped.standardError)")
            try Data(dumped.standardOutput.utf8).write(to: dom)
            let screenshot = folder.appendingPathComponent("page.png")
            let shot = try await run(browser, common + ["--user-data-dir=\(folder.path)/profile-shot", "--screenshot=\(screenshot.path)", page.absoluteString])
            #expect(shot.status == 0, "\(shot.standardError)")
            return (dom, screenshot)
        }

        @Test("each example's agenda page: golden HTML, and in Chromium every notification once on its day and hour", arguments: try TestEnvironment.exampleConfigs())
        func agendaPage(_ config: URL) async throws {
            let name = config.deletingPathExtension().lastPathComponent
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let plan = folder.appendingPathComponent("plan.json")
            let page = folder.appendingPathComponent("\(name).html")
            var arguments = ["compile", "examples/\(config.lastPathComponent)", "--now", CompileCommandTests.nowOfEvents[name] ?? CompileCommandTests.fixedNow,
                             "-o", plan.path, "--html", page.path]
            if let events = try TestEnvironment.exampleEvents().first(where: { $0.lastPathComponent.hasPrefix(name + ".events.") }) {
                arguments += ["--events", "examples/\(events.lastPathComponent)"]
            }
            let compiled = try await run(TestEnvironment.remindcExecutable, arguments)
            #expect(compiled.status == 0, "\(compiled.standardError)")
            let html = String(decoding: try Data(contentsOf: page), as: UTF8.self)
            expectGolden(html, matches: Self.golden.appendingPathComponent("\(name).html"))
            let rendered = try await Self.render(page, in: folder)
            let checked = try await Python.script([Self.checker.path, "agenda", rendered.dom.path, plan.path, rendered.screenshot.path])
            #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        }

        @Test("the diff page: adds, cancels and updates labelled, each update's fields before and after")
        func diffPage() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let old = folder.appendingPathComponent("old.json").path
            let new = folder.appendingPathComponent("new.json").path
            #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", old).status == 0)
            // Five minutes later, with the events: the 22nd's morning group loses Med A (an
            // update), the 23rd's group is done (cancelled), the budget reaches further (added).
            #expect(try await remindc(
                "compile", "examples/medication.plist", "--now", "2026-11-22T08:05:00Z", "--events", "examples/medication.events.json", "-o", new
            ).status == 0)
            let json = folder.appendingPathComponent("diff.json")
            let asJSON = try await remindc("diff", old, new, "--format", "json")
            try Data(asJSON.standardOutput.utf8).write(to: json)
            let page = folder.appendingPathComponent("diff.html")
            let asHTML = try await remindc("diff", old, new, "--format", "html")
            #expect(asHTML.status == 0, "\(asHTML.standardError)")
            try Data(asHTML.standardOutput.utf8).write(to: page)
            expectGolden(asHTML.standardOutput, matches: Self.golden.appendingPathComponent("medication.diff.html"))
            #expect(asHTML.standardOutput.contains("data-id=\"morning-20261122-0920\" data-change=\"update\""))
            #expect(asHTML.standardOutput.contains("<tr data-field=\"reminders\"><th scope=\"row\">reminders</th><td class=\"before\"><del>[med-a, med-b]</del></td><td class=\"after\"><ins>[med-b]</ins></td></tr>"))
            let rendered = try await Self.render(page, in: folder)
            let checked = try await Python.script([Self.checker.path, "diff", rendered.dom.path, json.path, rendered.screenshot.path])
            #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        }

        @Test("the checker fails a page with a block on the wrong day, a missing notification, or a script")
        func checkerCanFail() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let plan = folder.appendingPathComponent("plan.json")
            let page = folder.appendingPathComponent("page.html")
            #expect(try await remindc("compile", "examples/daily-facts.plist", "--now", "2026-11-22T08:00:00Z", "-o", plan.path, "--html", page.path).status == 0)
            let rendered = try await Self.render(page, in: folder)
            let dom = String(decoding: try Data(contentsOf: rendered.dom), as: UTF8.self)
            let firstDate = try #require(dom.range(of: "data-status=\"planned\" data-date=\""))
            let moved = dom.replacingCharacters(in: firstDate.upperBound..<dom.index(firstDate.upperBound, offsetBy: 10), with: "1999-01-01")
            let missing = dom.replacingOccurrences(of: "data-status=\"planned\"", with: "data-status=\"gone\"", options: [], range: dom.range(of: "data-status=\"planned\""))
            let scripted = dom.replacingOccurrences(of: "</body>", with: "<script>1</script></body>")
            for (broken, expected) in [(moved, "is at 1999-01-01"), (missing, "appears 0 times"), (scripted, "the page has scripts")] {
                try Data(broken.utf8).write(to: rendered.dom)
                let checked = try await Python.script([Self.checker.path, "agenda", rendered.dom.path, plan.path, rendered.screenshot.path])
                #expect(checked.status == 1)
                #expect(checked.standardOutput.contains(expected), "\(checked.standardOutput)")
            }
        }
    }
}

/// `BrowserTests` under its short name, for the tests of other suites.
typealias BrowserTests = ExternalProgramTests.BrowserTests
