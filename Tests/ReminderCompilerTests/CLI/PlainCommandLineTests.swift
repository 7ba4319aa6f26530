import ArgumentParser
import Testing
@testable import remindc

/// The plain reader of `compile` and `check` lines against swift-argument-parser, the one
/// definition of remindc's command line: a line the plain reader takes must be read by the
/// parser into the same command, every option alike.
@Suite("Plain command lines")
struct PlainCommandLineTests {
    /// Values each option is given: valid ones, and ones the option's conversion or the
    /// command's validation refuses.
    static let values: [String: [String]] = [
        "--now": ["2026-11-22T08:00:00Z", "2026-11-22T09:00", "2026-11-22T09:00:00+01:00", "tomorrow"],
        "--time-zone": ["Europe/Berlin", "UTC", "America/New_York", "Mars/Olympus", "europe/berlin"],
        "--horizon-days": ["1", "30", "3660", "0", "3661", "x", "+7", "007", " 7", "9999999999999999999999"],
        "--pending-limit": ["0", "64", "x", "1.5"],
        "--ics-style": ["expanded", "recurring", "Recurring", "x"],
        "--ics-scope": ["plan", "window", "x"],
        "--diagnostics-format": ["gcc", "github", "json", "sarif", "text"],
    ]
    /// Values of the options that name files, and of the positional arguments.
    static let paths = ["w1.plist", "a b/plan.json", "-", "help", "compile", "café.ics", "a=b", "x.plist"]
    /// Values no option should take as they stand.
    static let oddValues = ["", "-x", "--now", "-o", "=", "--", "-5", "\u{2212}5", "\u{2013}x", "-\u{301}x"]
    /// Words that are not options of either command, or that the parser answers itself.
    static let otherWords = [
        "--help", "-h", "--version", "--nwo", "--output", "-x", "--", "--warnings-as-error", "--generate-completion-script",
        "--warnings-as-errors=true", "--warnings-as-errors=", "-o=x.json", "-now", "-ox.json",
    ]

    /// `compile`'s options that take a value, every one of them.
    static let compileOptions = ["--now", "--time-zone", "--events", "--horizon-days", "--pending-limit", "-o", "--ics", "--ics-style", "--ics-scope", "--html", "--previous", "--diff", "--diagnostics-format", "--diagnostics-file"]
    /// `check`'s options that take a value, every one of them.
    static let checkOptions = ["--now", "--time-zone", "--diagnostics-format", "--diagnostics-file"]

    /// A command line of `command` with `options` in a random order and form.
    static func line(_ command: String, options: [String], using generator: inout SeededGenerator) -> [String] {
        var words: [[String]] = []
        let positionalCount = [0, 1, 1, 1, 1, 2, 3].randomElement(using: &generator)!
        for _ in 0..<positionalCount { words.append([paths.randomElement(using: &generator)!]) }
        for option in options where Int.random(in: 0..<10, using: &generator) < 3 {
            let repeats = Int.random(in: 0..<20, using: &generator) == 0 ? 2 : 1
            for _ in 0..<repeats {
                let roll = Int.random(in: 0..<100, using: &generator)
                let value = roll < 8 ? oddValues.randomElement(using: &generator)! : (values[option] ?? paths).randomElement(using: &generator)!
                if option.hasPrefix("--"), Bool.random(using: &generator) {
                    words.append(["\(option)=\(value)"])
                } else if roll < 10 {
                    words.append([option])  // no value after it, or the next word taken as one
                } else {
                    words.append([option, value])
                }
            }
        }
        if Int.random(in: 0..<4, using: &generator) == 0 { words.append(["--warnings-as-errors"]) }
        if Int.random(in: 0..<40, using: &generator) == 0 { words.append(["--warnings-as-errors"]) }
        if Int.random(in: 0..<15, using: &generator) == 0 { words.append([otherWords.randomElement(using: &generator)!]) }
        words.shuffle(using: &generator)
        return [command] + words.flatMap { $0 }
    }

    @Test("a line read plainly is read by the argument parser into the same command", arguments: [
        ("compile", compileOptions, 300), ("check", checkOptions, 1500),
    ])
    func sameCommandAsTheParser(_ command: String, options: [String], leastPlain: Int) {
        var generator = SeededGenerator(seed: 2026)
        var plain = 0
        var leftToTheParser = 0
        for _ in 0..<3000 {
            let line = Self.line(command, options: options, using: &generator)
            let parsed = Result { try Remindc.parseAsRoot(line) }
            guard let read = Remindc.plainCommand(line) else {
                if case .success = parsed { leftToTheParser += 1 }
                continue
            }
            plain += 1
            guard case .success(let parsedCommand) = parsed else {
                Issue.record("read plainly, refused by the parser: \(line)")
                continue
            }
            #expect(String(describing: read) == String(describing: parsedCommand), "\(line)")
        }
        // Both kinds of line were met: the comparison ran on hundreds of plain lines, and
        // the parser read lines that the plain reader left to it (repeated options, say).
        // With Swift 6.3.1's random algorithms the seed gives 392 plain lines of compile's
        // 3 000 and 1 768 of check's, and 99 and 156 left to the parser.
        #expect(plain > leastPlain)
        #expect(leftToTheParser > 50)
    }

    @Test("a plain line sets every option: none is left for a read to trap on")
    func everyOptionSet() throws {
        let commands: [any ParsableCommand] = [
            try Compile(plain: ["w1.plist"]), try Check(plain: ["w1.plist"]),
            try Compile(plain: ["w1.plist", "--now", "2026-11-22T08:00:00Z", "-o", "plan.json"]),
        ]
        for command in commands {
            let described = String(describing: command)
            #expect(!described.contains("*definition*"), "\(described)")
            // The description does list the options, so the check above reads something.
            #expect(described.contains("_diagnosticOptions"), "\(described)")
        }
    }

    @Test("the lines of the documentation and the benchmark are plain", arguments: [
        ["compile", "examples/medication.plist"],
        ["compile", "w1.plist", "--now", "2026-11-22T08:00:00Z", "-o", "w1.json"],
        ["compile", "meds.plist", "--events", "events.json", "--ics", "meds.ics", "--ics-style", "recurring", "-o", "plan.json"],
        ["compile", "meds.plist", "--previous", "old.json", "--diff", "diff.json", "-o", "new.json", "--diagnostics-format=sarif", "--diagnostics-file", "d.sarif"],
        ["check", "a.plist", "b.json", "--warnings-as-errors"],
        ["check", "-", "--now=2026-11-22T09:00", "--time-zone", "Europe/Berlin"],
    ])
    func documentedLinesArePlain(_ line: [String]) {
        #expect(Remindc.plainCommand(line) != nil)
    }

    @Test("lines the parser answers or refuses are left to it", arguments: [
        ["compile", "w1.plist", "--help"],
        ["compile", "--version"],
        ["compile", "w1.plist", "--now", "a", "--now", "b"],
        ["compile", "w1.plist", "--", "-o"],
        ["compile", "w1.plist", "--horizon-days", "0"],
        ["compile", "w1.plist", "--ics-style", "daily"],
        ["compile", "w1.plist", "--diff", "d.json"],
        ["compile", "w1.plist", "--nwo", "2026-11-22T08:00:00Z"],
        ["compile", "a.plist", "b.plist"],
        ["compile", "w1.plist", "-o"],
        ["compile", "w1.plist", "-o", "-x"],
        ["compile", "w1.plist", "--now="],
        ["compile", "w1.plist", "--time-zone", "Mars/Olympus"],
        ["compile", "w1.plist", "--warnings-as-errors", "--warnings-as-errors"],
        ["compile"],
        ["check"],
        ["check", "a.plist", "--events", "e.json"],
        ["next", "w1.plist"],
    ])
    func otherLinesGoToTheParser(_ line: [String]) {
        #expect(Remindc.plainCommand(line) == nil)
    }
}
