import ArgumentParser
import Foundation

/// `remindc serve [--host 127.0.0.1] [--port N]`: the compiler as an HTTP service. The
/// service is the executable `remindc-server` beside `remindc`, which this command becomes
/// (exec): signals and the exit status are the service's own.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve check, plan and ics over HTTP (POST /v1/check, /v1/plan, /v1/ics; GET /healthz, /metrics).",
        discussion: "Stateless: every request carries its config, events, now and previous plan. Stops on SIGTERM or SIGINT after the requests under way. Runs remindc-server from remindc's folder. See schema/remindc-service.openapi.json."
    )

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one (printed on standard output).")
    var port: Int = 8080

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body (413 above it).")
    var maximumBodyBytes: Int = 16 << 20

    @Option(name: .customLong("time-limit"), help: "Seconds one request may compute (503 above it).")
    var timeLimit: Double = 10

    func run() throws {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let server = own.deletingLastPathComponent().appendingPathComponent("remindc-server").path
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw CommandLineError("cannot serve: '\(server)' is missing; it is built with remindc (swift build --product remindc-server)")
        }
        let arguments = [server, "--host", host, "--port", String(port), "--max-body-bytes", String(maximumBodyBytes), "--time-limit", String(timeLimit)]
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(server, pointers)
        throw CommandLineError("cannot run '\(server)': \(String(cString: strerror(errno)))")
    }
}
