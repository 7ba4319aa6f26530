import ArgumentParser

/// `remindc serve [--host 127.0.0.1] [--port N] …`: the compiler as an HTTP service. The
/// service is the executable `remindc-server` beside `remindc`, which this command becomes
/// (exec) with its arguments as given: its options and their checks live there alone, and
/// signals and the exit status are the service's own.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve check, plan and ics over HTTP (POST /v1/check, /v1/plan, /v1/ics; GET /healthz, /metrics).",
        discussion: "Stateless: every request carries its config, events, now and previous plan. Stops on SIGTERM or SIGINT after the answers under way (--grace-period, 10 s). Runs remindc-server from remindc's folder; `remindc serve --help` lists its options (--host, --port, --max-body-bytes, --time-limit, --idle-timeout, --grace-period, --body-timeout, --max-connections). See schema/remindc-service.openapi.json."
    )

    @Argument(parsing: .captureForPassthrough, help: "remindc-server's options.")
    var options: [String] = []

    func run() throws {
        // remindc's own file, links resolved (`swift run` and installs link to it).
        let invoked = CommandLine.arguments[0]
        let own = SystemCall.resolvedPath(invoked) ?? invoked
        let server = FilePath.join(FilePath.folder(of: own), "remindc-server")
        guard SystemCall.canExecute(server) else {
            // Help works without the service: this command's own, and how to get the rest.
            if options.contains("--help") || options.contains("-h") {
                StandardStream.output.write(Remindc.helpMessage(for: Self.self) + "\n\n" + """
                    The service's options (--host, --port, --max-body-bytes, --time-limit, \
                    --idle-timeout, --grace-period, --body-timeout, --max-connections) are listed by remindc-server, which is not built here: \
                    build it with the package's Service trait (swift build --traits Service).

                    """)
                return
            }
            throw CommandLineError("cannot serve: '\(server)' is missing; build it with the package's Service trait (swift build --traits Service)")
        }
        let failure = SystemCall.replaceProcess(with: server, arguments: [server] + options)
        throw CommandLineError("cannot run '\(server)': \(SystemCall.errorText(failure))")
    }
}
