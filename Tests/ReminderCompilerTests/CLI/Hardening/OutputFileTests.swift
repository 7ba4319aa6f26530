import COutputFiles
import Foundation
import Testing
import ReminderCompiler

/// What `compile` leaves on disk when something goes wrong: the outputs as they were, and
/// no temporary files.
@Suite("Output files")
struct OutputFileTests {
    static let now = "2026-11-22T08:00:00Z"
    static let example = "examples/medication.plist"

    /// The names in `folder`, sorted.
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    @Test("an output path that names a folder fails before any output is replaced")
    func folderAsOutput() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json")
        try "old plan".write(to: plan, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cal.ics"), withIntermediateDirectories: false)
        for arguments in [["--ics", folder.path + "/cal.ics/"], ["--ics", folder.path + "/cal.ics"], ["--ics", folder.path + "/none/cal.ics"]] {
            for style in ["expanded", "recurring"] {
                let result = try await run(
                    TestEnvironment.remindcExecutable,
                    ["compile", Self.example, "--now", Self.now, "-o", plan.path, "--ics-style", style] + arguments
                )
                #expect(result.status == 1)
                #expect(result.standardError.hasPrefix("remindc: error: cannot write '\(arguments[1])'"), "\(result.standardError)")
                #expect(try Self.text(plan) == "old plan")
                #expect(try Self.names(in: folder) == ["cal.ics", "plan.json"])
            }
        }
    }

    @Test("standard output that cannot be written (a full disk) fails the command, whatever writes it")
    func fullStandardOutput() async throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let commands = [
            "agenda \(Self.example) --now \(Self.now)", "compile \(Self.example) --now \(Self.now)",
            "next \(Self.example) --reminder med-a --now \(Self.now)", "explain \(Self.example) --occurrence med-a-20261122-0900 --now \(Self.now)",
        ]
        for command in commands {
            let result = try await run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \(command) > /dev/full", TestEnvironment.remindcExecutable.path]
            )
            #expect(result.status == 1, "\(command)")
            #expect(result.standardError.contains("No space left on device"), "\(command): \(result.standardError)")
        }
    }

    @Test("a diagnostics file that cannot be written (a full disk) leaves every other output as it was")
    func fullDiagnosticsFile() async throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json")
        let calendar = folder.appendingPathComponent("cal.ics")
        let page = folder.appendingPathComponent("page.html")
        let runs: [[String]] = [
            ["compile", Self.example, "--now", Self.now, "-o", plan.path, "--ics", calendar.path],
            ["compile", Self.example, "--now", Self.now, "-o", plan.path, "--ics", calendar.path, "--ics-style", "recurring"],
            ["ics", "Tests/ReminderCompilerTests/Golden/plans/medication.json", "-o", calendar.path],
            ["compile", Self.example, "--now", Self.now, "-o", plan.path, "--html", page.path],
        ]
        for arguments in runs {
            for file in [plan, calendar, page] { try Data("old".utf8).write(to: file) }
            for format in ["json", "sarif"] {
                let result = try await remindc(arguments + ["--diagnostics-format", format, "--diagnostics-file", "/dev/full"])
                #expect(result.status == 1, "\(arguments)")
                #expect(result.standardError == "remindc: error: cannot write '/dev/full': No space left on device\n", "\(arguments)")
                for file in [plan, calendar, page] { #expect(try Self.text(file) == "old", "\(arguments): \(file.lastPathComponent)") }
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["cal.ics", "page.html", "plan.json"])
            }
        }
        // A diagnostics file that can be written goes out with the others.
        let diagnostics = folder.appendingPathComponent("diagnostics.json")
        let written = try await remindc(runs[0] + ["--diagnostics-format", "json", "--diagnostics-file", diagnostics.path])
        #expect(written.status == 0 && written.standardError.isEmpty)
        #expect(try Self.text(diagnostics).hasPrefix("["))
        #expect(try Self.text(plan).hasPrefix("{"))
    }

    // Only root can make a file immutable, which is what makes the second rename fail;
    // CI runs as root, so there the test always runs.
    @Test("a rename that fails puts back the outputs already renamed, and leaves nothing behind",
          .enabled(if: geteuid() == 0, "making a file immutable (chattr +i) needs root"))
    func failedSecondRename() async throws {
        let folder = try TestEnvironment.scratchFolder()
        let calendar = folder.appendingPathComponent("cal.ics")
        let plan = folder.appendingPathComponent("plan.json")
        try "old plan".write(to: plan, atomically: false, encoding: .utf8)
        try "old calendar".write(to: calendar, atomically: false, encoding: .utf8)
        // An immutable file cannot be replaced, even by root: the calendar's rename fails
        // after the plan's succeeded.
        let chattr = try await run(URL(fileURLWithPath: "/usr/bin/chattr"), ["+i", calendar.path])
        // The file is made mutable again and the folder removed whatever the checks do.
        let outcome = await Result(awaiting: { () async throws -> Void in
            try #require(chattr.status == 0, "chattr +i is needed to make a rename fail: \(chattr.standardError)")
            for style in ["expanded", "recurring"] {
                let result = try await remindc("compile", Self.example, "--now", Self.now, "-o", plan.path, "--ics", calendar.path, "--ics-style", style)
                #expect(result.status == 1)
                #expect(result.standardError.contains("no output was changed"), "\(result.standardError)")
                #expect(try Self.text(plan) == "old plan")
                #expect(try Self.text(calendar) == "old calendar")
                #expect(try Self.names(in: folder) == ["cal.ics", "plan.json"])
            }
        })
        _ = try? await run(URL(fileURLWithPath: "/usr/bin/chattr"), ["-i", calendar.path])
        try? FileManager.default.removeItem(at: folder)
        try outcome.get()
    }

    @Test("two outputs naming one file, or an output naming an input, fail before anything is written")
    func outputsThatCollide() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config.plist")
        try FileManager.default.copyItem(at: TestEnvironment.repositoryRoot.appendingPathComponent(Self.example), to: config)
        let original = try Self.text(config)
        let previous = folder.appendingPathComponent("previous.json")
        #expect(try await remindc("compile", config.path, "--now", Self.now, "-o", previous.path).status == 0)
        let link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: previous)
        let same = folder.appendingPathComponent("same.json").path
        // The same file that does not exist yet, spelled two other ways.
        let dotSame = folder.path + "/./same.json"
        let upSame = folder.path + "/../" + folder.lastPathComponent + "/same.json"
        let cases: [([String], String)] = [
            (["-o", same, "--ics", same], "--ics '\(same)' names the same file as -o '\(same)'"),
            (["-o", same, "--diagnostics-format", "json", "--diagnostics-file", dotSame],
             "--diagnostics-file '\(dotSame)' names the same file as -o '\(same)'"),
            (["-o", upSame, "--html", same], "--html '\(same)' names the same file as -o '\(upSame)'"),
            (["-o", same, "--previous", previous.path, "--diff", same], "--diff '\(same)' names the same file as -o '\(same)'"),
            (["-o", config.path], "-o '\(config.path)' would overwrite the input '\(config.path)'"),
            (["-o", previous.path, "--previous", previous.path], "-o '\(previous.path)' would overwrite the input '\(previous.path)'"),
            (["-o", link.path, "--previous", previous.path], "-o '\(link.path)' would overwrite the input '\(previous.path)'"),
            (["-o", link.path, "--ics", previous.path], "--ics '\(previous.path)' names the same file as -o '\(link.path)'"),
            // The diagnostics file is an output like the others.
            (["-o", same, "--diagnostics-format", "sarif", "--diagnostics-file", same],
             "--diagnostics-file '\(same)' names the same file as -o '\(same)'"),
            (["-o", same, "--diagnostics-file", config.path], "--diagnostics-file '\(config.path)' would overwrite the input '\(config.path)'"),
            (["-o", same, "--diagnostics-file", folder.path + "/absent/d.sarif"],
             "cannot write '\(folder.path)/absent/d.sarif': the folder '\(folder.path)/absent' does not exist"),
        ]
        // Devices are written in place, so two outputs may share one.
        #expect(try await remindc("compile", config.path, "--now", Self.now, "-o", "/dev/null", "--ics", "/dev/null").status == 0)
        let planBefore = try Self.text(previous)
        for (arguments, message) in cases {
            let result = try await run(TestEnvironment.remindcExecutable, ["compile", config.path, "--now", "2026-11-23T08:00:00Z"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError == "remindc: error: \(message)\n")
            #expect(try Self.text(config) == original)
            #expect(try Self.text(previous) == planBefore)
            #expect(try Self.names(in: folder) == ["config.plist", "link.json", "previous.json"])
        }
        // A link loop as an output is refused, and stays a loop.
        let loopA = folder.appendingPathComponent("loop-a"), loopB = folder.appendingPathComponent("loop-b")
        try FileManager.default.createSymbolicLink(atPath: loopA.path, withDestinationPath: "loop-b")
        try FileManager.default.createSymbolicLink(atPath: loopB.path, withDestinationPath: "loop-a")
        let looped = try await remindc("compile", config.path, "--now", Self.now, "-o", loopA.path)
        #expect(looped.status == 1)
        #expect(looped.standardError == "remindc: error: cannot write '\(loopA.path)': its symbolic links go round in a loop, or more than 40 deep\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: loopA.path) == "loop-b")
        try FileManager.default.removeItem(at: loopA)
        try FileManager.default.removeItem(at: loopB)
        // Every command checks its diagnostics file against its inputs, and batch its
        // results against its jobs.
        let checked = try await remindc("check", config.path, "--diagnostics-format", "sarif", "--diagnostics-file", config.path)
        #expect(checked.status == 1)
        #expect(checked.standardError == "remindc: error: --diagnostics-file '\(config.path)' would overwrite the input '\(config.path)'\n")
        let diffed = try await remindc("diff", previous.path, previous.path, "--diagnostics-file", previous.path)
        #expect(diffed.status == 1)
        let jobs = folder.appendingPathComponent("jobs.ndjson")
        try Data("{}\n".utf8).write(to: jobs)
        let batch = try await remindc("batch", jobs.path, "-o", jobs.path)
        #expect(batch.status == 1)
        #expect(batch.standardError == "remindc: error: -o '\(jobs.path)' would overwrite the input '\(jobs.path)'\n")
        // Standard input opened by the shell on the jobs file is that file too.
        let fromStandardInput = try await run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" batch - -o "$1" < "$1""#, TestEnvironment.remindcExecutable.path, jobs.path]
        )
        #expect(fromStandardInput.status == 1)
        #expect(fromStandardInput.standardError == "remindc: error: -o '\(jobs.path)' would overwrite the input 'standard input'\n")
        // A pipe is no file an output could name: the same job fed through one is answered.
        let piped = try await run(TestEnvironment.remindcExecutable, ["batch", "-", "-o", jobs.path], input: Data("{}\n".utf8))
        #expect(piped.status == 0 && piped.standardError.isEmpty)
        #expect(try Self.text(jobs).hasPrefix(#"{"ok":false,"#))
        try Data("{}\n".utf8).write(to: jobs)
        let config2 = try await run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" compile - -o "$1" --now 2026-11-22T08:00:00Z < "$1""#, TestEnvironment.remindcExecutable.path, config.path]
        )
        #expect(config2.status == 1)
        #expect(config2.standardError == "remindc: error: -o '\(config.path)' would overwrite the input 'standard input'\n")
        #expect(try Self.text(jobs) == "{}\n")
        #expect(try Self.text(config) == original)
        #expect(try Self.text(previous) == planBefore)
    }

    @Test("an output that is a symbolic link is written through it; a replaced file keeps its permissions")
    func linksAndPermissions() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("real.json")
        try "old".write(to: target, atomically: false, encoding: .utf8)
        #expect(chmod(target.path, 0o600) == 0)
        let link = folder.appendingPathComponent("plan.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.json")
        #expect(try await remindc("compile", Self.example, "--now", Self.now, "-o", link.path).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.json")
        #expect(try Self.text(target).hasPrefix("{\n  \"formatVersion\": 1"))
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // A new file gets the usual permissions (0666 less the umask), not the temporary's.
        let fresh = folder.appendingPathComponent("fresh.ics")
        #expect(try await remindc("compile", Self.example, "--now", Self.now, "-o", "/dev/null", "--ics", fresh.path).status == 0)
        let mask = umask(0)
        umask(mask)
        let freshMode = (try FileManager.default.attributesOfItem(atPath: fresh.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(freshMode == 0o666 & ~Int(mask))
        #expect(try Self.names(in: folder) == ["fresh.ics", "plan.json", "real.json"])
    }

    @Test("standard input and output are named -")
    func dash() async throws {
        let config = try Data(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent(Self.example))
        let piped = try await run(TestEnvironment.remindcExecutable, ["compile", "-", "--now", Self.now, "-o", "-"], input: config)
        let named = try await remindc("compile", Self.example, "--now", Self.now)
        #expect(piped.status == 0)
        #expect(piped.standardOutput == named.standardOutput)
        #expect(!piped.standardOutput.isEmpty)
        let checked = try await run(TestEnvironment.remindcExecutable, ["check", "-"], input: Data("<plist>".utf8))
        #expect(checked.status == 1)
        #expect(checked.standardError.hasPrefix("-:1:8: error: malformed XML"))
    }

    @Test("SIGINT, SIGTERM and SIGHUP during a write leave no temporary file", arguments: [SIGINT, SIGTERM, SIGHUP])
    func signals(signal: Int32) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Long enough to be caught writing, and under the slot cap: ten reminders every half
        // hour for ten years.
        let times = (0..<48).map { "<string>\(String(format: "%02d:%02d", $0 / 2, $0 % 2 * 30))</string>" }.joined()
        let reminders = (0..<10).map {
            "<dict><key>id</key><string>r\($0)</string><key>title</key><string>R \($0)</string><key>schedule</key><dict><key>frequency</key><string>daily</string><key>times</key><array>\(times)</array></dict></dict>"
        }.joined()
        let config = folder.appendingPathComponent("big.plist")
        try """
        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>formatVersion</key><integer>1</integer>
        <key>timeZone</key><string>UTC</string><key>horizonDays</key><integer>3660</integer><key>pendingLimit</key><integer>0</integer>
        <key>reminders</key><array>\(reminders)</array></dict></plist>
        """.write(to: config, atomically: false, encoding: .utf8)
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        // Spawned with the three signals unblocked and at their default: a test runner may
        // block or ignore them, and a child inherits both. The child is watched from a
        // thread of its own, every 5 ms, so that a busy pool cannot make the test miss it.
        let arguments = [TestEnvironment.remindcExecutable.path, "compile", config.path, "--now", Self.now,
                         "-o", output.path + "/plan.json", "--ics", output.path + "/cal.ics"]
        let outputPath = output.path
        let watched = try await onOwnThread { () -> (spawned: Bool, sawTemporary: Bool, status: Int32) in
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for caught in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, caught) }
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setsigmask(&attributes, &unblocked)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var childID: pid_t = 0
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            guard posix_spawn(&childID, arguments[0], &actions, &attributes, argv, environ) == 0 else { return (false, false, 0) }
            var sawTemporary = false
            for _ in 0..<6000 {
                if (try? FileManager.default.contentsOfDirectory(atPath: outputPath))?.contains(where: { $0.hasSuffix(".tmp") }) == true {
                    sawTemporary = true
                    break
                }
                usleep(5_000)
            }
            kill(childID, signal)
            var status: Int32 = 0
            while waitpid(childID, &status, 0) == -1 && errno == EINTR {}
            return (true, sawTemporary, status)
        }
        try #require(watched.spawned)
        #expect(watched.sawTemporary, "the compile ended before it could be interrupted")
        let status = watched.status
        // Ended by the signal itself (WIFSIGNALED, WTERMSIG), as without a handler.
        #expect(status & 0x7F == signal)
        #expect(try Self.names(in: output) == [])
    }

    @Test("temporary files of a process that no longer runs are removed by the next run in that folder; others stay")
    func staleTemporaries() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A process ID that is not running: past any pid_max Linux allows would be refused
        // by kill() the same way, so take one from the range and check.
        var deadID: Int32 = 4_000_000
        while kill(deadID, 0) == 0 || errno != ESRCH { deadID -= 1 }
        let stale = ".plan.json.remindc-\(deadID)-0.tmp"
        let alive = ".plan.json.remindc-\(getpid())-0.tmp"
        let unrelated = ".notes.tmp"
        for name in [stale, alive, unrelated] {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data("x".utf8)))
        }
        #expect(try await remindc("compile", Self.example, "--now", Self.now, "-o", folder.path + "/plan.json").status == 0)
        #expect(try Self.names(in: folder) == [alive, unrelated, "plan.json"].sorted())
    }

    /// The search for stale temporaries lists only hidden names: making every name of a
    /// crowded folder into a string cost 7.7 M instructions a compile (6 400 files).
    @Test("a hidden-only listing gives the names that start with '.', and all of them")
    func hiddenOnlyListing() throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["plan.json", ".plan.json.remindc-1-0.tmp", "..twice", "x.tmp", ".b"]
        for name in names {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
        }
        #expect(DirectoryListing.names(in: folder.path, hiddenOnly: true)?.sorted() == names.filter { $0.hasPrefix(".") }.sorted())
        #expect(DirectoryListing.names(in: folder.path)?.sorted() == names.sorted())
        #expect(DirectoryListing.names(in: folder.appendingPathComponent("missing").path, hiddenOnly: true) == nil)
    }

    @Test("a temporary file is created only where nothing stands, and never through a link")
    func exclusiveTemporaries() throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim")
        try "keep".write(to: victim, atomically: false, encoding: .utf8)
        let trap = folder.appendingPathComponent("trap.tmp")
        try FileManager.default.createSymbolicLink(at: trap, withDestinationURL: victim)
        #expect(remindc_create_temporary(trap.path, 0o666) == -1)
        #expect(errno == EEXIST)
        #expect(try Self.text(victim) == "keep")
        let fresh = folder.appendingPathComponent("fresh.tmp").path
        let descriptor = remindc_create_temporary(fresh, 0o600)
        #expect(descriptor >= 0)
        close(descriptor)
        remindc_forget_temporary(fresh)
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
