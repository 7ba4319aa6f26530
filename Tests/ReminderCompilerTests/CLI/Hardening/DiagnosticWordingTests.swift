import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Messages that said the wrong thing, or nothing, where a user needed one.
@Suite("Diagnostic wording")
struct DiagnosticWordingTests {
    @Test("a <plist> with a namespace is told so, not 'must be <plist>, found <plist>'")
    func namespacedRoot() {
        let xml = configXML(reminders: reminderXML("a")).replacingOccurrences(
            of: "<plist version=\"1.0\">", with: "<plist xmlns=\"http://www.apple.com/plist\" version=\"1.0\">"
        )
        let result = check(xml)
        #expect(result.diagnostics.map(\.formatted) == [
            "c.plist:2:1: error: <plist> must not carry a namespace (xmlns); property lists have none",
        ])
    }

    @Test("a duplicate reminder id is reported in the same run as the reminder's other errors")
    func duplicateBesideOtherErrors() {
        let broken = reminderXML("a", schedule: "<key>frequency</key><string>daily</string><key>times</key><array><string>25:00</string></array>")
        let result = check(configXML(reminders: reminderXML("a") + "\n" + broken))
        let messages = result.diagnostics.map(\.message.id)
        #expect(messages.contains("config.duplicate-id"), "\(result.diagnostics.map(\.formatted))")
        #expect(result.diagnostics.contains { $0.message.text.contains("'25:00'") })
    }

    @Test("weekday ordinals get the suggestion the README promises", arguments: [
        ("2TUE", "2TU"), ("TU2", "2TU"), ("-1friday", "-1FR"), ("3 mon", "3MO"), ("1TX", "1TU"),
    ])
    func ordinalSuggestions(written: String, meant: String) throws {
        let schedule = "<key>frequency</key><string>monthly</string><key>weekdayOrdinals</key><array><string>\(written)</string></array><key>times</key><array><string>09:00</string></array>"
        let result = check(configXML(reminders: reminderXML("a", schedule: schedule)))
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.message.text.hasSuffix("; did you mean '\(meant)'?"), "\(error.message.text)")
    }

    @Test("an ordinal without a readable number gets no guess")
    func noSuggestion() throws {
        let schedule = "<key>frequency</key><string>monthly</string><key>weekdayOrdinals</key><array><string>TU</string></array><key>times</key><array><string>09:00</string></array>"
        let result = check(configXML(reminders: reminderXML("a", schedule: schedule)))
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(!error.message.text.contains("did you mean"))
    }

    @Test("negative numbers reach the option checks", arguments: [
        (["--pending-limit", "-3"], "--pending-limit must be 0 (unlimited) or more, not -3"),
        (["--horizon-days", "-3"], "--horizon-days must be 1–3660, not -3"),
    ])
    func negativeOptions(arguments: [String], message: String) async throws {
        let result = try await run(TestEnvironment.remindcExecutable, ["compile", "examples/medication.plist"] + arguments)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("remindc: error: \(message)\n"), "\(result.standardError)")
    }

    @Test("a mistyped command is named, with the command meant", arguments: [
        ("compil", "; did you mean 'compile'?"), ("chekc", "; did you mean 'check'?"), ("agnda", "; did you mean 'agenda'?"),
        ("frobnicate", ""),
    ])
    func mistypedCommand(written: String, suggestion: String) async throws {
        let result = try await remindc(written, "examples/medication.plist")
        #expect(result.status == 1)
        #expect(result.standardError == "remindc: error: unknown command '\(written)'\(suggestion) (see 'remindc --help')\n")
    }

    @Test("help for a mistyped command names it, with the command meant; help for a real one still answers")
    func mistypedHelp() async throws {
        let result = try await remindc("help", "chek")
        #expect(result.status == 1)
        #expect(result.standardError == "remindc: error: unknown command 'chek'; did you mean 'check'? (see 'remindc --help')\n")
        let real = try await remindc("help", "check")
        #expect(real.status == 0 && real.standardOutput.contains("USAGE: remindc check"), "\(real.standardOutput)")
        #expect(try await remindc("help").status == 0)
    }

    @Test("usage errors, tool errors and diagnostics start alike: a mistyped option, a missing file, a bad config")
    func oneErrorStyle() async throws {
        let option = try await remindc("compile", "examples/medication.plist", "--nwo", "2026-11-22T09:00")
        #expect(option.standardError.hasPrefix("remindc: error: unknown option '--nwo'; did you mean '--now'?\n"), "\(option.standardError)")
        let argument = try await remindc("compile")
        #expect(argument.standardError.hasPrefix("remindc: error: missing expected argument '<config>'"), "\(argument.standardError)")
        let value = try await remindc("batch", "--jobs", "many")
        #expect(value.standardError.hasPrefix("remindc: error: the value 'many' is invalid for '--jobs"), "\(value.standardError)")
        let missing = try await remindc("compile", "no-such-file.plist")
        #expect(missing.standardError.hasPrefix("remindc: error: "), "\(missing.standardError)")
        // A value the user wrote keeps its words, whatever they are.
        let written = try await remindc("compile", "examples/medication.plist", "b. Did you mean c")
        #expect(written.standardError.contains("'b. Did you mean c'"), "\(written.standardError)")
        for result in [option, missing, argument, value, written] {
            #expect(result.status == 1)
            #expect(!result.standardError.contains("Error: "), "\(result.standardError)")
        }
    }

    @Test("remindc --version names the release and the plan format")
    func version() async throws {
        let result = try await remindc("--version")
        #expect(result.status == 0)
        #expect(result.standardOutput == "remindc \(ReminderCompiler.version) (plan formatVersion 1, tzdata \(TimeZoneDatabase.system.version ?? "unknown"))\n")
    }
}

@Suite("serve --help")
struct ServeHelpTests {
    @Test("works without remindc-server: remindc's own help, and how to build the service")
    func withoutServer() async throws {
        // remindc alone in a folder, as a build without the Service trait leaves it.
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("remindc")
        try FileManager.default.copyItem(at: TestEnvironment.remindcExecutable, to: copy)
        let help = try await run(copy, ["serve", "--help"])
        #expect(help.status == 0, "\(help.standardError)")
        #expect(help.standardOutput.contains("USAGE: remindc serve"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("swift build --traits Service"))
        // Serving itself still says what is missing.
        let serve = try await run(copy, ["serve", "--port", "0"])
        #expect(serve.status == 1)
        #expect(serve.standardError.hasPrefix("remindc: error: cannot serve: "), "\(serve.standardError)")
    }

    @Test("with remindc-server beside it, lists the service's options")
    func withServer() async throws {
        let help = try await remindc("serve", "--help")
        #expect(help.status == 0, "\(help.standardError)")
        #expect(help.standardOutput.contains("--idle-timeout"), "\(help.standardOutput)")
    }
}

@Suite("Shell completion and the manual's source")
struct CompletionAndManualTests {
    @Test("completion scripts for bash, zsh and fish name every command; bash's parses", arguments: ["bash", "zsh", "fish"])
    func completionScript(_ shell: String) async throws {
        let result = try await remindc("--generate-completion-script", shell)
        #expect(result.status == 0, "\(result.standardError)")
        for command in ["check", "compile", "diff", "ics", "next", "agenda", "explain", "batch", "serve", "reconcile", "generate-swift"] {
            #expect(result.standardOutput.contains(command), "\(shell): \(command)")
        }
        if shell == "bash" {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let script = folder.appendingPathComponent("remindc.bash")
            try result.standardOutput.write(to: script, atomically: true, encoding: .utf8)
            let parsed = try await run(URL(fileURLWithPath: "/bin/bash"), ["-n", script.path])
            #expect(parsed.status == 0, "\(parsed.standardError)")
        }
    }

    @Test("the description the manual is generated from lists every command with its options")
    func manualSource() async throws {
        let result = try await remindc("--experimental-dump-help")
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        let names = subcommands.compactMap { $0["commandName"] as? String }
        #expect(names == ["check", "compile", "diff", "ics", "next", "agenda", "explain", "batch", "serve", "reconcile", "generate-swift", "help"])
        let compile = try #require(subcommands.first { $0["commandName"] as? String == "compile" })
        let arguments = try #require(compile["arguments"] as? [[String: Any]])
        #expect(arguments.contains { ($0["names"] as? [[String: Any]])?.contains { $0["name"] as? String == "now" } == true })
    }
}

/// File names that are not UTF-8 reach remindc as U+FFFD once Swift has read them, which
/// names another file. They are refused by their bytes instead.
@Suite("Arguments that are not UTF-8")
struct NonUTF8ArgumentTests {
    @Test("a Latin-1 file name is refused before anything runs, its bytes shown escaped; nothing is written", arguments: ["check", "generate-swift"])
    func latin1FileName(command: String) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            cp "$1" "$(printf 'caf\\351.plist')"
            "$2" "$3" "$(printf 'caf\\351.plist')" -o out.swift
            """
        let result = try await run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cd \(folder.path) && " + script, "sh", TestEnvironment.examples.appendingPathComponent("medication.plist").path,
             TestEnvironment.remindcExecutable.path, command]
        )
        #expect(result.status == 1)
        #expect(result.standardError == "remindc: error: argument 2 is not valid UTF-8: 'caf\\xE9.plist'; remindc reads file names and options as UTF-8 (rename the file, or pass it through standard input with '-')\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.swift").path))
        // The file itself is there: the refusal is of its name, not of a missing file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    }
}

/// Warnings are counted past a cap as errors are: an events file of many entries that name
/// no reminder once printed one warning each.
@Suite("The warning cap")
struct WarningCapTests {
    @Test("1 500 events naming no reminder give 1 000 warnings and one note with the rest's count; the plan is written")
    func warningsCapped() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("events.json")
        let entries = (0..<1_500).map { _ in #"{"occurrence": "nobody-20261123-0900", "action": "done"}"# }
        try Data(("{\"events\": [" + entries.joined(separator: ", ") + "]}").utf8).write(to: events)
        let result = try await remindc(
            "compile", "examples/medication.plist", "--events", events.path, "--now", "2026-11-22T08:00:00Z",
            "-o", folder.appendingPathComponent("plan.json").path
        )
        #expect(result.status == 0, "\(result.standardError.suffix(300))")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains(": warning: no reminder or group of the config has the occurrence") }.count == 1_000)
        #expect(lines.last?.hasSuffix("note: and 500 more warnings of this run, not shown (the first 1000 are)") == true, "\(lines.last ?? "")")
        #expect(lines.count == 1_001)
    }
}
