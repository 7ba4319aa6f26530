import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif
import Testing
@_spi(Tooling) @testable import ReminderCompiler

// The service is built only with the package trait Service (`swift test --traits Service`).
#if Service
/// `remindc serve`, started on 127.0.0.1 by each test, asked over HTTP with curl, and
/// stopped by SIGTERM, which it must answer by finishing and exiting 0.
@Suite("Service")
struct ServiceTests {
    /// A running `remindc serve`: the port it bound, and requests to it.
    struct Server: Sendable {
        let port: Int
        /// The service's process, whose CPU time a test may read.
        let processID: Int32

        /// curl's answer: the status code and the body.
        func request(_ path: String, body: Data? = nil) async throws -> (status: Int, body: String) {
            let answer = try await timedRequest(path, body: body)
            return (answer.status, answer.body)
        }

        /// curl's answer, with the time curl measured from connecting to the last byte of
        /// the answer (what the service took, without starting curl on a loaded machine).
        func timedRequest(_ path: String, body: Data? = nil) async throws -> (status: Int, body: String, seconds: Double) {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var arguments = ["-s", "-o", folder.appendingPathComponent("body").path, "-w", "%{http_code} %{time_total}"]
            if let body {
                let file = folder.appendingPathComponent("request")
                try body.write(to: file)
                // Declared as what it is: a plist is XML, everything else is sent as JSON.
                let type = body.first == UInt8(ascii: "<") ? "application/xml" : "application/json"
                arguments += ["--data-binary", "@\(file.path)", "-H", "Content-Type: \(type)"]
            }
            let result = try await run(URL(fileURLWithPath: "/usr/bin/curl"), arguments + ["http://127.0.0.1:\(port)\(path)"])
            let answer = (try? Data(contentsOf: folder.appendingPathComponent("body"))) ?? Data()
            let written = result.standardOutput.split(separator: " ")
            return (
                written.first.flatMap { Int($0) } ?? 0, String(decoding: answer, as: UTF8.self),
                written.dropFirst().first.flatMap { Double($0) } ?? .infinity
            )
        }
    }

    /// Starts `remindc serve` on 127.0.0.1 with a free port, runs `body` with it, then stops
    /// it with SIGTERM (also when `body` throws) and returns its exit status. The service is
    /// awaited, never waited for on a thread of the pool.
    @discardableResult
    static func withServer(_ extra: [String] = [], _ body: (Server) async throws -> Void) async throws -> Int32 {
        let execution = try await Subprocess.run(
            .path(FilePath(TestEnvironment.remindcExecutable.path)),
            arguments: Arguments(["serve", "--port", "0"] + extra),
            input: .none, output: .sequence, error: .discarded
        ) { execution -> Result<Void, any Error> in
            // The first line names the port the service bound.
            var firstLine = ""
            for try await line in execution.standardOutput.strings() {
                firstLine = line
                break
            }
            let outcome: Result<Void, any Error>
            if let port = firstLine.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                do {
                    try await body(Server(port: port, processID: Int32(execution.processIdentifier.value)))
                    outcome = .success(())
                } catch {
                    outcome = .failure(error)
                }
            } else {
                outcome = .failure(ServiceTestError(message: "no port in '\(firstLine)'"))
            }
            try execution.send(signal: .terminate)
            return outcome
        }
        try execution.closureResult.get()
        switch execution.terminationStatus {
        case .exited(let code): return Int32(code)
        case .signaled(let signal): return 128 + Int32(signal)
        }
    }

    struct ServiceTestError: Error { let message: String }

    /// The CPU time (user and system) the service has used, from /proc.
    static func cpuSeconds(of server: Server) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(server.processID)/stat", encoding: .utf8)
        // The fields after the command name, which ends with the last ')'; utime and stime
        // are the 14th and 15th fields of the line.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = try #require(Double(fields[11])) + (try #require(Double(fields[12])))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func job(_ config: String, now: String = "2026-11-22T08:00:00Z", extra: [String: Any] = [:]) throws -> Data {
        let text = String(decoding: try Data(contentsOf: TestEnvironment.examples.appendingPathComponent(config)), as: UTF8.self)
        return try JSONSerialization.data(withJSONObject: ["config": text, "now": now].merging(extra) { $1 })
    }

    @Test("every endpoint: health, check, plan (as compile writes it), ics (as compile --ics writes it), metrics; graceful stop")
    func endpoints() async throws {
        let status = try await Self.withServer { server in
            #expect(try await server.request("/healthz") == (200, "ok\n"))
            let config = try Data(contentsOf: TestEnvironment.examples.appendingPathComponent("medication.plist"))
            let checked = try await server.request("/v1/check", body: config)
            #expect(checked.status == 200)
            #expect(checked.body == "{\"ok\":true,\"diagnostics\":[]}\n")
            let broken = try await server.request("/v1/check", body: Data("<plist version=\"1.0\"><dict><key>formatVersion</key><integer>x</integer></dict></plist>".utf8))
            #expect(broken.status == 422)
            // The <integer> holding "x" starts at column 52.
            #expect(broken.body.contains("\"message\": \"'x' is not an integer\",\"file\": \"config\",\"line\": 1,\"column\": 52"), "\(broken.body)")

            let planned = try await server.request("/v1/plan", body: try Self.job("medication.plist"))
            #expect(planned.status == 200)
            let result = try #require(try JSONSerialization.jsonObject(with: Data(planned.body.utf8)) as? [String: Any])
            let compiled = try JSONSerialization.jsonObject(with: Data(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z").standardOutput.utf8))
            #expect(NSDictionary(dictionary: try #require(result["plan"] as? [String: Any])).isEqual(to: try #require(compiled as? [String: Any])))

            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            for style in ["expanded", "recurring"] {
                let ics = folder.appendingPathComponent("\(style).ics").path
                #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", "/dev/null", "--ics", ics, "--ics-style", style).status == 0)
                let calendar = try await server.request("/v1/ics?style=\(style)", body: try Self.job("medication.plist"))
                #expect(calendar.status == 200)
                #expect(calendar.body == String(decoding: try Data(contentsOf: URL(fileURLWithPath: ics)), as: UTF8.self), "\(style)")
        }
        let metrics = try await server.request("/metrics")
        #expect(metrics.body.contains("remindc_requests_total{endpoint=\"plan\",status=\"200\"} 1"), "\(metrics.body)")
        #expect(metrics.body.contains("remindc_requests_total{endpoint=\"check\",status=\"422\"} 1"))
        }
        #expect(status == 0)
    }

    @Test("malformed, incomplete, erroneous and oversized requests get clear 4xx answers with diagnostics")
    func badRequests() async throws {
        try await Self.withServer(["--max-body-bytes", "100000"]) { server in
            let notJSON = try await server.request("/v1/plan", body: Data("{\"config\": ".utf8))
            #expect(notJSON.status == 400)
            #expect(notJSON.body.contains("not a JSON object"))
            let noNow = try await server.request("/v1/plan", body: Data(#"{"config": "<plist/>"}"#.utf8))
            #expect(noNow.status == 400)
            #expect(noNow.body.contains("the job has no 'now'"))
            let invalid = try await server.request("/v1/plan", body: Data(#"{"id": "u", "config": "<plist version=\"1.0\"><dict></dict></plist>", "now": "2026-11-22T08:00:00Z"}"#.utf8))
            #expect(invalid.status == 422)
            #expect(invalid.body.contains("\"file\": \"u/config\""), "\(invalid.body)")
            let style = try await server.request("/v1/ics?style=weekly", body: try Self.job("medication.plist"))
            #expect(style.status == 400)
            let large = try await server.request("/v1/check", body: Data(repeating: 0x20, count: 200_000))
            #expect(large.status == 413)
            #expect(large.body.contains("larger than the limit of 100000 bytes"))
            let deep = try await server.request("/v1/check", body: Data((String(repeating: "[", count: 5000)).utf8))
            #expect(deep.status == 422)
            #expect(try await server.request("/v1/unknown").status == 404)
        }
    }

    @Test("a request over the time limit is answered 503, and the service goes on")
    func timeLimit() async throws {
        try await Self.withServer(["--time-limit", "0.05"]) { server in
            // Every five minutes for ten years: far more than 50 ms of work.
            let heavy = #"<plist version="1.0"><dict><key>formatVersion</key><integer>1</integer><key>timeZone</key><string>UTC</string><key>horizonDays</key><integer>3650</integer><key>pendingLimit</key><integer>0</integer><key>reminders</key><array><dict><key>id</key><string>r</string><key>title</key><string>R</string><key>schedule</key><dict><key>frequency</key><string>daily</string><key>everyMinutes</key><integer>30</integer><key>window</key><dict><key>from</key><string>00:00</string><key>until</key><string>23:30</string></dict></dict></dict></array></dict></plist>"#
            let answer = try await server.request("/v1/plan", body: try JSONSerialization.data(withJSONObject: ["config": heavy, "now": "2026-11-22T08:00:00Z"]))
            #expect(answer.status == 503)
            #expect(answer.body.contains("time limit"))
            #expect(try await server.request("/healthz").status == 200)
        }
    }

    /// Every five minutes for ten years, without a budget: seconds of work in a debug build.
    static let heavyJob: Data = {
        let config = #"<plist version="1.0"><dict><key>formatVersion</key><integer>1</integer><key>timeZone</key><string>UTC</string><key>horizonDays</key><integer>3650</integer><key>pendingLimit</key><integer>0</integer><key>reminders</key><array><dict><key>id</key><string>r</string><key>title</key><string>R</string><key>schedule</key><dict><key>frequency</key><string>daily</string><key>everyMinutes</key><integer>5</integer><key>window</key><dict><key>from</key><string>00:00</string><key>until</key><string>23:55</string></dict></dict></dict></array></dict></plist>"#
        return try! JSONSerialization.data(withJSONObject: ["config": config, "now": "2026-11-22T08:00:00Z"])
    }()

    @Test("four heavy requests over a 1 s limit are all answered 503 soon after it, /healthz answers meanwhile, and the work stops")
    func timeLimitUnderLoad() async throws {
        try await Self.withServer(["--time-limit", "1"]) { server in
            try await withThrowingTaskGroup(of: (status: Int, seconds: Double).self) { group in
                for path in ["/v1/plan", "/v1/plan", "/v1/ics", "/v1/ics?style=expanded"] {
                    group.addTask {
                        let answer = try await server.timedRequest(path, body: Self.heavyJob)
                        return (answer.status, answer.seconds)
                    }
                }
                // While the four run, the service still answers at once (as curl times it:
                // on a machine that also runs the other tests, starting curl takes longer).
                try await Task.sleep(for: .milliseconds(300))
                let health = try await server.timedRequest("/healthz")
                #expect(health.status == 200)
                #expect(health.seconds < 0.5, "healthz took \(health.seconds) s")
                for try await answer in group {
                    #expect(answer.status == 503)
                    // The limit and a margin for a loaded 2-core machine; before the compile
                    // threads, none of the four was answered within 8 s.
                    #expect(answer.seconds < 5, "answered after \(answer.seconds) s")
                }
            }
            // The stopped compiles end: the service's CPU time hardly grows afterwards.
            try await Task.sleep(for: .milliseconds(500))
            let before = try Self.cpuSeconds(of: server)
            try await Task.sleep(for: .seconds(2))
            let after = try Self.cpuSeconds(of: server)
            #expect(after - before < 0.5, "the service used \(after - before) s of CPU in 2 s after its answers")
        }
    }

    @Test("another method on a known path is 405 with Allow, HEAD reads what GET reads; a body declared as anything but the route's JSON or XML is 415; an undeclared body is read")
    func methodsAndMediaTypes() async throws {
        try await Self.withServer { server in
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let headers = folder.appendingPathComponent("headers")
            let answerBody = folder.appendingPathComponent("body")
            func curl(_ arguments: [String]) async throws -> (status: Int, headers: String, body: String) {
                let result = try await run(
                    URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", answerBody.path, "-D", headers.path, "-w", "%{http_code}"] + arguments
                )
                return (
                    Int(result.standardOutput) ?? 0, (try? String(contentsOf: headers, encoding: .utf8)) ?? "",
                    (try? String(contentsOf: answerBody, encoding: .utf8)) ?? ""
                )
            }
            let base = "http://127.0.0.1:\(server.port)"
            // Any method, also one HTTP does not name, and the paths the routes match with
            // empty segments.
            for (method, path, allowed) in [
                ("GET", "/v1/plan", "POST"), ("PUT", "/v1/check", "POST"), ("DELETE", "/v1/ics", "POST"), ("POST", "/healthz", "GET"),
                ("PATCH", "/metrics", "GET"), ("TRACE", "/v1/plan", "POST"), ("OPTIONS", "/healthz", "GET"), ("QUERY", "/v1/ics", "POST"),
                ("PUT", "/v1/plan/", "POST"), ("GET", "//v1//check", "POST"),
            ] {
                let answer = try await curl(["-X", method, base + path])
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.headers.lowercased().contains("allow: \(allowed.lowercased())"), "\(method) \(path): \(answer.headers)")
            }
            // HEAD answers what GET answers, with GET's length; elsewhere it is 405.
            for path in ["/healthz", "/metrics"] {
                let head = try await curl(["-I", base + path])
                #expect(head.status == 200, "HEAD \(path): \(head)")
                #expect(head.headers.lowercased().contains("content-type: text/plain"), "\(head.headers)")
            }
            let healthHead = try await curl(["-I", base + "/healthz"])
            #expect(healthHead.headers.lowercased().contains("content-length: 3"), "\(healthHead.headers)")
            #expect(try await curl([base + "/healthz"]).body == "ok\n")
            // Without its body: a GET sent behind the HEAD on one connection is answered right after its headers.
            let pipelined = try await Python.script(["-c", """
                import socket, sys
                s = socket.create_connection(("127.0.0.1", \(server.port)))
                s.sendall(b"HEAD /healthz HTTP/1.1\\r\\nHost: t\\r\\n\\r\\nGET /healthz HTTP/1.1\\r\\nHost: t\\r\\nConnection: close\\r\\n\\r\\n")
                data = b""
                while chunk := s.recv(4096): data += chunk
                sys.stdout.write(repr([part.split(b"\\r\\n")[0] for part in data.split(b"\\r\\n\\r\\n")]))
                """])
            #expect(pipelined.standardOutput == "[b'HTTP/1.1 200 OK', b'HTTP/1.1 200 OK', b'ok\\n']", "\(pipelined.standardOutput)\(pipelined.standardError)")
            let headPlan = try await curl(["-I", base + "/v1/plan"])
            #expect(headPlan.status == 405 && headPlan.headers.lowercased().contains("allow: post"), "\(headPlan.headers)")
            let postHealth = try await curl(["-X", "POST", base + "/healthz"])
            #expect(postHealth.headers.lowercased().contains("allow: get, head"), "\(postHealth.headers)")
            let config = TestEnvironment.examples.appendingPathComponent("daily-facts.plist").path
            // A config is JSON or XML; a job is JSON. Anything else is refused before it is
            // read, also plain text and curl's own default for --data-binary.
            let job = try Self.job("daily-facts.plist")
            let jobFile = folder.appendingPathComponent("job.json")
            try job.write(to: jobFile)
            for (type, path, body, status) in [
                ("image/png", "/v1/check", config, 415), ("text/plain", "/v1/check", config, 415),
                ("text/plain; charset=utf-8", "/v1/plan", jobFile.path, 415), ("application/octet-stream", "/v1/ics", jobFile.path, 415),
                ("multipart/form-data", "/v1/plan", jobFile.path, 415), ("application/xml", "/v1/plan", jobFile.path, 415),
                ("+json", "/v1/plan", jobFile.path, 415),
                ("application/xml", "/v1/check", config, 200), ("application/x-plist", "/v1/check", config, 200),
                ("TEXT/XML; charset=utf-8", "/v1/check", config, 200), ("application/vnd.remindc+xml", "/v1/check", config, 200),
                ("application/json", "/v1/plan", jobFile.path, 200), ("application/vnd.remindc+json; charset=utf-8", "/v1/ics", jobFile.path, 200),
            ] {
                let answer = try await curl(["-H", "Content-Type: \(type)", "--data-binary", "@" + body, base + path])
                #expect(answer.status == status, "\(type) to \(path)")
                if status == 415 { #expect(answer.body.contains("is not read here"), "\(answer.body)") }
            }
            #expect(try await curl(["--data-binary", "@" + config, base + "/v1/check"]).status == 415)
            // A body without a declared type is read.
            #expect(try await curl(["-H", "Content-Type:", "--data-binary", "@" + config, base + "/v1/check"]).status == 200)
            #expect(try await curl(["-H", "Content-Type:", "--data-binary", "@" + jobFile.path, base + "/v1/plan"]).status == 200)
            // A byte-order mark before a body is passed over, as the readers of files do;
            // a JSON parser that knows no mark had refused the job with 400.
            let markedJob = folder.appendingPathComponent("marked-job.json"), markedConfig = folder.appendingPathComponent("marked.plist")
            try (Data([0xEF, 0xBB, 0xBF]) + job).write(to: markedJob)
            try (Data([0xEF, 0xBB, 0xBF]) + Data(contentsOf: URL(fileURLWithPath: config))).write(to: markedConfig)
            let plain = try await curl(["-H", "Content-Type: application/json", "--data-binary", "@" + jobFile.path, base + "/v1/plan"])
            let markedPlan = try await curl(["-H", "Content-Type: application/json", "--data-binary", "@" + markedJob.path, base + "/v1/plan"])
            #expect(markedPlan.status == 200 && markedPlan.body == plain.body, "\(markedPlan.status) \(markedPlan.body.prefix(300))")
            let markedCheck = try await curl(["-H", "Content-Type: application/xml", "--data-binary", "@" + markedConfig.path, base + "/v1/check"])
            #expect(markedCheck.status == 200 && markedCheck.body.contains(#""ok":true"#), "\(markedCheck.status) \(markedCheck.body.prefix(300))")
        }
    }

    /// The options' defaults are the values the service runs with when none is given.
    @Test("serve's defaults: 10 s to compute a request, 30 s for a body, 30 s idle, 10 s of grace at shutdown, 512 connections, 127.0.0.1")
    func defaultLimits() async throws {
        let help = try await remindc("serve", "--help")
        #expect(help.status == 0, "\(help.standardError)")
        // Each option's help under OPTIONS (the usage line names them too), its lines
        // joined, up to the next option.
        let options = try #require(help.standardOutput.range(of: "OPTIONS:"), "\(help.standardOutput)")
        let text = help.standardOutput[options.upperBound...].split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func defaultValue(of option: String) -> String? {
            guard let start = text.range(of: "\(option) <") else { return nil }
            let rest = text[start.upperBound...]
            let section = rest.range(of: " --").map { rest[..<$0.lowerBound] } ?? rest
            guard let value = section.range(of: "(default: ") else { return nil }
            return section[value.upperBound...].prefix { $0 != ")" }.description
        }
        #expect(defaultValue(of: "--time-limit") == "10.0")
        #expect(defaultValue(of: "--body-timeout") == "30.0")
        #expect(defaultValue(of: "--idle-timeout") == "30.0")
        #expect(defaultValue(of: "--grace-period") == "10.0")
        #expect(defaultValue(of: "--max-connections") == "512")
        #expect(defaultValue(of: "--host") == "127.0.0.1")
    }

    /// Before, SIGTERM cut a large calendar after about 3.9 MB (what the socket could not
    /// take yet was dropped when the connection closed) and the service still exited 0.
    @Test("SIGTERM: an answer under way is sent whole within the grace period; one cut by it makes the exit status 1, one its client gave up before does not; stalled clients do not hold the shutdown", .timeLimit(.minutes(3)))
    func shutdownDrain() async throws {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Service/shutdown_drain.py")
        let result = try await Python.script([script.path, TestEnvironment.remindcExecutable.path])
        let lines = Dictionary(uniqueKeysWithValues: result.standardOutput.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            return (fields[0], Array(fields.dropFirst()))
        })
        #expect(lines.count == 5, "\(result.standardOutput)\(result.standardError)")
        let drain = try #require(lines["drain"])
        #expect(drain[0] == "0", "exit status")
        #expect(drain[1] == drain[2] && (Int(drain[1]) ?? 0) > 20_000_000, "received \(drain[1]) of \(drain[2]) bytes")
        #expect(drain[3] == "True")
        // Draining, the service takes no new request.
        #expect(drain.count > 4 && ["refused", "closed"].contains(drain[4]), "a new client after SIGTERM: \(drain)")
        let cut = try #require(lines["cut"])
        #expect(cut[0] == "1")
        #expect((Double(cut[1]) ?? .infinity) < 6, "exited \(cut[1]) s after SIGTERM with a grace period of 1 s")
        for stalled in ["stalled-headers", "stalled-body"] {
            let fields = try #require(lines[stalled])
            #expect(fields[0] == "0", "\(stalled)")
            #expect((Double(fields[1]) ?? .infinity) < 6, "\(stalled): exited \(fields[1]) s after SIGTERM with a grace period of 2 s")
        }
        // A client that went away mid-answer, before the signal: the service ran on and
        // stops cleanly (it once counted that answer as cut and exited 1).
        let abandoned = try #require(lines["abandoned"])
        #expect(abandoned == ["0", "answered"], "exit status and /healthz after the client left: \(abandoned)")
    }

    /// Before, a body sent a byte at a time held its connection as long as the client
    /// liked, and every connection was accepted until descriptors ran out; then connections
    /// stalled in their heads held the cap, and `/healthz` with it, until their idle timeout.
    @Test("a body slower than --body-timeout is answered 408; past --max-connections a new client takes an idle connection's place, and waits only when all are busy")
    func connectionLimits() async throws {
        try await Self.withServer(["--max-connections", "3", "--body-timeout", "1"]) { server in
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Service/connection_limits.py")
            let result = try await Python.script([script.path, String(server.port), String(server.processID)])
            let lines = Dictionary(uniqueKeysWithValues: result.standardOutput.split(separator: "\n").map { line in
                let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (fields[0], fields.count > 1 ? fields[1] : "")
            })
            let body = try #require(lines["body"], "\(result.standardOutput)\(result.standardError)")
            let seconds = Double(body.split(separator: " ").first ?? "") ?? .infinity
            #expect(seconds >= 0.9 && seconds < 5, "\(body)")
            #expect(body.hasSuffix("HTTP/1.1 408 Request Timeout"), "\(body)")
            let cap = try #require(lines["cap"]).split(separator: " ").map(String.init)
            #expect(cap.count == 5)
            let before = Int(cap[0]) ?? 0, during = Int(cap[1]) ?? .max
            // Three connections open (four for a moment), not forty.
            #expect(during - before <= 5, "descriptors \(before) → \(during) with 40 clients and a cap of 3")
            #expect(cap[2] == "True", "a request past the cap was answered")
            #expect((Double(cap[3]) ?? .infinity) < 1, "within \(cap[3]) s")
            #expect((Int(cap[4]) ?? 0) >= 36, "\(cap[4]) of 40 stalled connections closed")
            let busy = try #require(lines["busy"]).split(separator: " ").map(String.init)
            #expect(busy.count == 6)
            #expect(busy.first == "True", "a request past four busy connections was answered")
            // It waited for the 408s after the 1 s body timeout, and not for its own idle timeout.
            let waited = Double(busy.count > 1 ? busy[1] : "") ?? 0
            #expect(waited > 0.5 && waited < 5, "after \(waited) s")
            #expect(busy.dropFirst(2).allSatisfy { $0 == "HTTP/1.1_408_Request_Timeout" }, "\(busy)")
            #expect(try await server.request("/healthz").status == 200)
        }
    }

    @Test("a client that sends its headers a byte at a time, or stays idle, is disconnected after --idle-timeout; others are answered meanwhile")
    func slowClients() async throws {
        try await Self.withServer(["--idle-timeout", "1"]) { server in
            let script = """
                import socket, sys, time
                port = int(sys.argv[1])
                def trickle():
                    s = socket.create_connection(("127.0.0.1", port))
                    start = time.time()
                    s.settimeout(0.2)
                    for byte in b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\nX-Slow: " + b"a" * 200:
                        try:
                            s.send(bytes([byte]))
                            if s.recv(100) == b"":
                                return time.time() - start
                        except socket.timeout:
                            pass
                        except OSError:
                            return time.time() - start
                    return None
                def idle():
                    s = socket.create_connection(("127.0.0.1", port))
                    s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
                    s.settimeout(10)
                    first = s.recv(1000)
                    start = time.time()
                    rest = s.recv(1000)
                    return first.startswith(b"HTTP/1.1 200"), rest, time.time() - start
                print(trickle())
                ok, rest, after = idle()
                print(ok, rest == b"", after)
                """
            let result = try await Python.script(["-c", script, String(server.port)])
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(result.standardOutput) \(result.standardError)")
            // Disconnected after the timeout (a second), not after the 44 s the trickle would take.
            let trickled = Double(lines.first ?? "") ?? .infinity
            #expect(trickled >= 0.9 && trickled < 5, "closed after \(lines.first ?? "-")")
            let idle = (lines.last ?? "").split(separator: " ")
            #expect(idle.count == 3 && idle[0] == "True" && idle[1] == "True", "\(lines.last ?? "-")")
            #expect((Double(idle.last ?? "") ?? .infinity) < 5)
            #expect(try await server.request("/healthz").status == 200)
        }
    }

    @Test("bodies over the limit are refused with 413 and their connections closed, leaking no descriptor; a broken-off upload is no 413")
    func oversizedBodies() async throws {
        try await Self.withServer(["--max-body-bytes", "1000"]) { server in
            func descriptors() throws -> Int {
                try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.processID)/fd").count
            }
            #expect(try await server.request("/healthz").status == 200)
            let before = try descriptors()
            let big = Data(count: 200_000)
            for index in 0..<20 {
                let answer = try await server.request(index.isMultiple(of: 2) ? "/v1/check" : "/v1/plan", body: big)
                #expect(answer.status == 413)
            }
            let script = """
                import socket, sys
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s.sendall(b"POST /v1/check HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 900\\r\\n\\r\\n" + b"<" * 100)
                s.close()
                """
            _ = try await Python.script(["-c", script, String(server.port)])
            try await Task.sleep(for: .milliseconds(500))
            let after = try descriptors()
            #expect(after <= before + 1, "\(before) descriptors before, \(after) after")
            let metrics = try await server.request("/metrics").body
            let refused = metrics.split(separator: "\n").filter { $0.hasPrefix("remindc_requests_total") && $0.contains("status=\"413\"") }
            let count = refused.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
            #expect(count == 20, "\(refused)")
        }
    }

    @Test("concurrent clients all get their own, right answers")
    func concurrentClients() async throws {
        let names = ["medication.plist", "daily-facts.plist", "quiet-hours.plist", "home-time-zone.plist"]
        var answers: [String: [(status: Int, body: String)?]] = [:]
        try await Self.withServer { server in
                try await withThrowingTaskGroup(of: (String, (status: Int, body: String)?).self) { group in
                    for index in 0..<16 {
                        let name = names[index % names.count]
                        let job = try Self.job(name)
                        group.addTask { (name, try? await server.request("/v1/plan", body: job)) }
                    }
                    for try await (name, answer) in group { answers[name, default: []].append(answer) }
                }
        }
        for name in names {
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(try await remindc("compile", "examples/\(name)", "--now", "2026-11-22T08:00:00Z").standardOutput.utf8)) as? [String: Any])
            let got = answers[name] ?? []
            #expect(got.count == 4)
            for answer in got {
                #expect(answer?.status == 200)
                let result = try #require(try JSONSerialization.jsonObject(with: Data((answer?.body ?? "").utf8)) as? [String: Any])
                #expect(NSDictionary(dictionary: try #require(result["plan"] as? [String: Any])).isEqual(to: expected), "\(name)")
            }
        }
    }
}

extension ServiceTests {
    @Test("the OpenAPI document is valid OpenAPI 3.1, and the service answers each of its paths")
    func openAPI() async throws {
        let document = TestEnvironment.repositoryRoot.appendingPathComponent("schema/remindc-service.openapi.json")
        let validated = try await Python.script([
            "-c", "import json, sys; from openapi_spec_validator import validate; validate(json.load(open(sys.argv[1]))); print('valid')", document.path,
        ])
        #expect(validated.standardOutput == "valid\n", "\(validated.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: document)) as? [String: Any])
        // A job's `now` is an RFC 3339 date-time or a local date and time, never any string.
        let schemas = (root["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let now = ((schemas?["Job"] as? [String: Any])?["properties"] as? [String: Any])?["now"] as? [String: Any]
        let forms = try #require(now?["oneOf"] as? [[String: Any]])
        #expect(forms.contains { $0["format"] as? String == "date-time" })
        #expect(forms.allSatisfy { $0["format"] as? String == "date-time" || $0["pattern"] is String }, "\(forms)")
        let paths = try #require(root["paths"] as? [String: [String: Any]])
        try await Self.withServer { server in
                for (path, operations) in paths.sorted(by: { $0.key < $1.key }) {
                    let answer = try await server.request(path, body: operations["post"] != nil ? try Self.job("daily-facts.plist") : nil)
                    #expect([200, 422].contains(answer.status), "\(path): \(answer.status)")
                }
        }
    }

    /// The server is written by hand, so an independent tester keeps it and the document in
    /// step: schemathesis makes requests from the document (its examples, its edge cases
    /// and random ones) and checks every answer's status, type, headers and body against
    /// it, and that a method the document does not list gets 405 with `Allow`. A request
    /// the schema allows may still be refused with 422 (a config string that is no
    /// config), so the check that such requests succeed is left out.
    @Test("schemathesis finds no answer that strays from the OpenAPI document", .timeLimit(.minutes(3)))
    func openAPIConformance() async throws {
        let document = TestEnvironment.repositoryRoot.appendingPathComponent("schema/remindc-service.openapi.json")
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withServer { server in
            let result = try await Python.script([
                "-c", "from schemathesis.cli import schemathesis; schemathesis(prog_name='schemathesis')",
                "run", document.path, "--url", "http://127.0.0.1:\(server.port)", "--checks", "all",
                "--exclude-checks", "positive_data_acceptance", "--max-examples", "60", "--workers", "1", "--seed", "2026",
                "--generation-database", "none",
            ], in: folder)
            #expect(result.status == 0, "\(result.standardOutput.suffix(4000))\(result.standardError.suffix(2000))")
            #expect(result.standardOutput.contains("7/7"), "every operation of the document was tried")
        }
    }
}
#endif
