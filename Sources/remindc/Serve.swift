import ArgumentParser
import Dispatch
import Foundation
import RemindcServer

/// `remindc serve [--host 127.0.0.1] [--port N]`: the compiler as an HTTP service.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve check, plan and ics over HTTP (POST /v1/check, /v1/plan, /v1/ics; GET /healthz, /metrics).",
        discussion: "Stateless: every request carries its config, events, now and previous plan. Stops on SIGTERM or SIGINT after the requests under way. See schema/remindc-service.openapi.json."
    )

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one (printed on standard output).")
    var port: Int = 8080

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body (413 above it).")
    var maximumBodyBytes: Int = 16 << 20

    @Option(name: .customLong("time-limit"), help: "Seconds one request may compute (503 above it).")
    var timeLimit: Double = 10

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0–65535, not \(port)") }
        if maximumBodyBytes < 1 { throw ValidationError("--max-body-bytes must be 1 or more") }
        if !(timeLimit > 0) { throw ValidationError("--time-limit must be more than 0 seconds") }
    }

    func run() throws {
        let server = RemindcServer(
            host: host, port: port,
            limits: .init(maximumBodyBytes: maximumBodyBytes, timeLimit: .milliseconds(Int64(timeLimit * 1000)))
        )
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        // The command line runs synchronously; the service runs on Swift concurrency until
        // it is told to stop.
        Task {
            do {
                try await server.run { port in
                    // Written at once, so that a test or a supervisor can read the port.
                    FileHandle.standardOutput.write(Data("remindc serving on http://\(host):\(port)\n".utf8))
                }
            } catch {
                failure.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw CommandLineError("the service stopped: \(error)") }
    }
}

/// The service's error, handed from its task to the command.
final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}
