import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension ExternalProgramTests.BrowserTests {
    /// The two pages the documentation shows: the medication example's agenda, and the
    /// diff after its evening reminder moved from 21:30 to 22:00 a day later.
    static func documentedPages(in folder: URL) async throws -> (agenda: URL, diff: URL) {
        let agenda = folder.appendingPathComponent("agenda.html")
        let old = folder.appendingPathComponent("old.json").path, new = folder.appendingPathComponent("new.json").path
        #expect(try await remindc(
            "compile", "examples/medication.plist", "--now", CompileCommandTests.fixedNow, "-o", old, "--html", agenda.path
        ).status == 0)
        let moved = folder.appendingPathComponent("moved.plist")
        let text = String(decoding: try Data(contentsOf: TestEnvironment.examples.appendingPathComponent("medication.plist")), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "<string>21:30</string>", with: "<string>22:00</string>").utf8).write(to: moved)
        #expect(try await remindc("compile", moved.path, "--now", "2026-11-23T08:00:00Z", "-o", new).status == 0)
        let diff = folder.appendingPathComponent("diff.html")
        let page = try await remindc("diff", old, new, "--format", "html")
        #expect(page.status == 0, "\(page.standardError)")
        try Data(page.standardOutput.utf8).write(to: diff)
        return (agenda, diff)
    }

    /// Where the documentation keeps its pictures, and the Chromium that took them.
    static let pictures = TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler/Documentation.docc/Resources")
    static let picturesBrowser = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/html/screenshots-chromium.txt")

    /// A PNG's width and height, from its header.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// The documentation's screenshots of the agenda and the diff at a phone's 390 px and at
    /// 1 280 px are these pages as Chromium draws them: golden pictures, recorded with
    /// `RECORD_GOLDEN=1`, compared byte for byte when the browser is the one that took them
    /// (its version is kept beside the goldens; Chromium draws the same page to the same
    /// bytes run after run), and otherwise held to their size and to not being blank. The
    /// Getting Started article shows each.
    @Test("the documentation's screenshots of the agenda and the diff, at 390 and 1 280 px, are what Chromium draws of today's pages")
    func documentationScreenshots() async throws {
        let browser = try #require(Browser.chromium, "chromium is required here (REMINDC_REQUIRE_CHROMIUM)")
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = try await Self.documentedPages(in: folder)
        let version = try await run(browser, ["--version"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let recording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
        let recordedBy = (try? String(contentsOf: Self.picturesBrowser, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let article = String(decoding: try Data(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent(
            "Sources/ReminderCompiler/Documentation.docc/GettingStarted.md")), as: UTF8.self)
        for (name, page) in [("agenda", pages.agenda), ("diff", pages.diff)] {
            for (width, height) in [(390, 844), (1280, 800)] {
                let file = "\(name)-\(width).png"
                let golden = Self.pictures.appendingPathComponent(file)
                let goldenPicture = recording ? nil : try Data(contentsOf: golden)
                var picture = Data()
                // The same browser draws a page to the same bytes, but on a machine loaded
                // by the rest of the suite a shot was once taken before the page had
                // settled (CI, 2026-11-27: 79 634 bytes against 83 067). A shot that differs
                // is taken again, twice at most: a page that changed differs every time.
                for attempt in 1...3 {
                    let shot = folder.appendingPathComponent("\(attempt)-\(file)")
                    // The new headless mode opens a window of any width, so no frame is needed.
                    let taken = try await run(browser, [
                        "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                        "--user-data-dir=\(folder.path)/profile-\(attempt)-\(file)", "--window-size=\(width),\(height)",
                        "--screenshot=\(shot.path)", page.absoluteString,
                    ])
                    #expect(taken.status == 0, "\(taken.standardError)")
                    picture = try Data(contentsOf: shot)
                    if recording || recordedBy != version || picture == goldenPicture { break }
                }
                #expect(Self.pngSize(picture).map { [$0.width, $0.height] } == [width, height], "\(file)")
                // Not blank: a blank page compresses to a few hundred bytes.
                #expect(picture.count > 10_000, "\(file): \(picture.count) bytes")
                #expect(article.contains("(\(file))"), "GettingStarted does not show \(file)")
                if recording {
                    try FileManager.default.createDirectory(at: Self.pictures, withIntermediateDirectories: true)
                    try picture.write(to: golden)
                    continue
                }
                let recorded = try #require(goldenPicture)
                #expect(Self.pngSize(recorded).map { [$0.width, $0.height] } == [width, height], "\(file)")
                if recordedBy == version {
                    // Compared outside the expectation, which would otherwise work out a
                    // byte-by-byte difference of two pictures for its message (minutes).
                    let same = recorded == picture
                    #expect(same, "\(file) (\(picture.count) bytes against \(recorded.count) recorded) is not what \(version) draws of today's page; record it again with RECORD_GOLDEN=1")
                }
            }
        }
        if recording { try Data((version + "\n").utf8).write(to: Self.picturesBrowser) }
    }

    /// The pages follow the system's light or dark setting (`prefers-color-scheme`):
    /// Chromium with `--force-dark-mode` prefers dark. A copy of each page with a measuring
    /// script (the pages have none) records the body's background and text colours.
    @Test("the agenda and the diff page are dark on a dark system and light on a light one, their text readable on either")
    func colourSchemes() async throws {
        let browser = try #require(Browser.chromium, "chromium is required here (REMINDC_REQUIRE_CHROMIUM)")
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = try await Self.documentedPages(in: folder)
        /// The relative luminance (0 black to 1 white) of a CSS `rgb(r, g, b)`.
        func luminance(_ css: String) -> Double? {
            let numbers = css.split { !$0.isNumber && $0 != "." }.compactMap { Double($0) }
            guard numbers.count >= 3 else { return nil }
            return (0.2126 * numbers[0] + 0.7152 * numbers[1] + 0.0722 * numbers[2]) / 255
        }
        for (name, page) in [("agenda", pages.agenda), ("diff", pages.diff)] {
            let measured = folder.appendingPathComponent("colours-\(name).html")
            let script = "<script>const s = getComputedStyle(document.body); document.body.setAttribute('data-colours', s.backgroundColor + '|' + s.color);</script></body>"
            try Data(String(decoding: try Data(contentsOf: page), as: UTF8.self).replacingOccurrences(of: "</body>", with: script).utf8).write(to: measured)
            for dark in [false, true] {
                let dumped = try await run(browser, [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(folder.path)/profile-\(name)-\(dark)",
                    "--dump-dom", measured.absoluteString,
                ] + (dark ? ["--force-dark-mode"] : []))
                #expect(dumped.status == 0, "\(dumped.standardError)")
                let attribute = try #require(dumped.standardOutput.range(of: "data-colours=\"").map { dumped.standardOutput[$0.upperBound...] })
                let colours = attribute.prefix { $0 != "\"" }.split(separator: "|").map(String.init)
                let background = try #require(colours.first.flatMap(luminance), "\(name): \(colours)")
                let text = try #require(colours.last.flatMap(luminance), "\(name): \(colours)")
                #expect(dark ? background < 0.2 : background > 0.8, "\(name), dark \(dark): background \(colours)")
                #expect(abs(background - text) > 0.5, "\(name), dark \(dark): text on background \(colours)")
            }
        }
    }

    @Test("the diff page at 360 px, a phone's 390 px and 1 280 px: no sideways scrolling of the page, nothing overflowing its block, every link named", arguments: [360, 390, 1280])
    func diffLayout(width: Int) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try await Self.documentedPages(in: folder).diff
        let layout = try await Self.layout(of: page, width: width, in: folder, blocks: "h1, h2, p, li, section, .change")
        #expect((width - 20...width).contains(layout["viewport"] ?? 0), "\(layout)")
        #expect(layout["page"] == layout["viewport"], "the page scrolls sideways: \(layout)")
        #expect(layout["overflowing"] == 0, "\(layout)")
        #expect(layout["unnamedLinks"] == 0, "\(layout)")
        #expect((layout["blocks"] ?? 0) > 5, "\(layout)")
    }
}
