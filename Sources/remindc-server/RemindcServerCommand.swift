import ArgumentParser
import Foundation
import RemindcServer

/// The service's own executable, which `remindc serve` runs in its place: the command line
/// stays free of the HTTP stack, whose libraries would otherwise cost every `remindc`
/// command at start-up (measured: `--version` 31.0 M instructions without them, 38.9 M
/// with them linked).
@main
struct RemindcServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remindc-server",
        abstract: "The remindc HTTP service; run it as `remindc serve`."
    )

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one (printed on standard output).")
    var port: Int = 8080

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body (413 above it).")
    var maximumBodyBytes: Int = 16 << 20

    @Option(name: .customLong("time-limit"), help: "Seconds one request may compute (503 above it).")
    var timeLimit: Double = 10

    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds a connection may go without a complete request head: a client that sends its headers slowly, or stays idle between requests, is then disconnected."
    )
    var idleTimeout: Double = 30

    @Option(
        name: .customLong("grace-period"),
        help: "Seconds the service goes on after SIGTERM or SIGINT to finish the answers under way; it exits 1 if any was cut."
    )
    var gracePeriod: Double = 10

    @Option(
        name: .customLong("body-timeout"),
        help: "Seconds a request's body may take to arrive once its head has; a slower one is answered 408 and disconnected."
    )
    var bodyTimeout: Double = 30

    @Option(
        name: .customLong("max-connections"),
        help: "The most connections open at once; at the cap the one idle longest is closed to make room, and when all have requests under way further ones wait to be accepted."
    )
    var maximumConnections: Int = 512

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0–65535, not \(port)") }
        if maximumBodyBytes < 1 { throw ValidationError("--max-body-bytes must be 1 or more") }
        if !(timeLimit > 0 && timeLimit <= 3600) { throw ValidationError("--time-limit must be more than 0 and at most 3600 seconds") }
        if !(idleTimeout > 0 && idleTimeout <= 3600) { throw ValidationError("--idle-timeout must be more than 0 and at most 3600 seconds") }
        if !(gracePeriod >= 0 && gracePeriod <= 3600) { throw ValidationError("--grace-period must be 0–3600 seconds") }
        if !(bodyTimeout > 0 && bodyTimeout <= 3600) { throw ValidationError("--body-timeout must be more than 0 and at most 3600 seconds") }
        if !(1...65536).contains(maximumConnections) { throw ValidationError("--max-connections must be 1–65536, not \(maximumConnections)") }
    }

    func run() async throws {
        #if Service
        let server = RemindcServer(
            host: host, port: port,
            limits: .init(
                maximumBodyBytes: maximumBodyBytes, timeLimit: .milliseconds(Int64(timeLimit * 1000)),
                idleTimeout: .milliseconds(Int64(idleTimeout * 1000)), gracePeriod: .milliseconds(Int64(gracePeriod * 1000)),
                bodyTimeout: .milliseconds(Int64(bodyTimeout * 1000)), maximumConnections: maximumConnections
            )
        )
        let host = self.host
        do {
            try await server.run { port in
                // Written at once, so that a test or a supervisor can read the port.
                FileHandle.standardOutput.write(Data("remindc serving on http://\(host):\(port)\n".utf8))
            }
        } catch let cut as AnswersCut {
            // In remindc's own error style: a supervisor sees status 1 and one line.
            FileHandle.standardError.write(Data("remindc: error: \(cut)\n".utf8))
            throw ExitCode.failure
        }
        #else
        throw ServiceNotBuilt()
        #endif
    }
}

/// The package was built without its Service trait, which the HTTP stack needs.
struct ServiceNotBuilt: Error, CustomStringConvertible {
    var description: String {
        "remindc-server was built without the service; build it with `swift build --traits Service`"
    }
}
