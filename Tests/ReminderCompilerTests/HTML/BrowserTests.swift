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

        /// The page's layout as Chromium lays it out at `width` CSS pixels. Headless Chromium
        /// opens no window narrower than 500 px, so the page is shown in a frame of that
        /// width; a copy of it with a measuring script (the page itself has none) writes what
        /// it finds into the frame's parent, whose DOM Chromium dumps.
        /// `blocks` selects the elements that must not overflow (the agenda's by default).
        static func layout(
            of page: URL, width: Int, in folder: URL, blocks: String = ".n, .next li, .now-line, .coverage"
        ) async throws -> [String: Int] {
            let browser = try #require(Browser.chromium, "chromium is required here (REMINDC_REQUIRE_CHROMIUM)")
            let measuring = folder.appendingPathComponent("measured-\(width).html")
            let script = """
                <script>
                const blocks = [...document.querySelectorAll('\(blocks)')];
                const links = [...document.querySelectorAll('a')];
                const next = document.querySelector('.next');
                parent.document.body.setAttribute('data-layout', JSON.stringify({
                  viewport: document.documentElement.clientWidth, page: document.documentElement.scrollWidth,
                  overflowing: blocks.filter(e => e.scrollWidth > e.clientWidth + 1).length,
                  wrappedTimes: [...document.querySelectorAll('.n .time')].filter(e => e.getClientRects().length > 1).length,
                  unnamedLinks: links.filter(a => !(a.getAttribute('aria-label') || a.textContent).trim()).length,
                  links: links.length, nextTop: next ? Math.round(next.getBoundingClientRect().top) : -1,
                  nowLines: document.querySelectorAll('.now-line').length, blocks: blocks.length }));
                </script>
                """
            let html = String(decoding: try Data(contentsOf: page), as: UTF8.self).replacingOccurrences(of: "</body>", with: script + "</body>")
            try Data(html.utf8).write(to: measuring)
            let frame = folder.appendingPathComponent("frame-\(width).html")
            try Data("""
                <!DOCTYPE html><html><body style="margin:0"><iframe src="\(measuring.lastPathComponent)" \
                style="width:\(width)px;height:900px;border:0"></iframe></body></html>
                """.utf8).write(to: frame)
            let dumped = try await run(browser, [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files", "--window-size=1400,1000",
                "--user-data-dir=\(folder.path)/profile-\(width)", "--dump-dom", frame.absoluteString,
            ])
            #expect(dumped.status == 0, "\(dumped.standardError)")
            let attribute = try #require(dumped.standardOutput.range(of: "data-layout=\"").map { dumped.standardOutput[$0.upperBound...] })
            let json = String(attribute.prefix { $0 != "\"" }).replacingOccurrences(of: "&quot;", with: "\"")
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Int])
        }

        @Test("the agenda page at 360 px, a phone's 390 px and 1 280 px: no sideways scrolling of the page, nothing overflowing its block, times whole, the next notifications on the first screen, every link named", arguments: [360, 390, 1280])
        func agendaLayout(width: Int) async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let page = folder.appendingPathComponent("medication.html")
            let compiled = try await remindc(
                "compile", "examples/medication.plist", "--now", CompileCommandTests.fixedNow, "-o", folder.appendingPathComponent("plan.json").path,
                "--html", page.path
            )
            #expect(compiled.status == 0, "\(compiled.standardError)")
            let layout = try await Self.layout(of: page, width: width, in: folder)
            // The viewport less a vertical scroll bar, where there is one.
            #expect((width - 20...width).contains(layout["viewport"] ?? 0), "\(layout)")
            #expect(layout["page"] == layout["viewport"], "the page scrolls sideways: \(layout)")
            #expect(layout["overflowing"] == 0, "\(layout)")
            #expect(layout["wrappedTimes"] == 0, "\(layout)")
            #expect(layout["unnamedLinks"] == 0 && (layout["links"] ?? 0) > 10, "\(layout)")
            #expect((0..<900).contains(layout["nextTop"] ?? -1), "the next notifications start below the first screen: \(layout)")
            #expect(layout["nowLines"] == 1, "\(layout)")
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
