import Foundation

/// Python 3 with the independent reference libraries the interoperability tests use:
/// `jsonschema`, `icalendar`, `ical` and `recurring-ical-events`. When they are missing,
/// they are installed once into `.build/python-packages` (ignored by git).
enum Python {
    static let packages = [
        "jsonschema", "icalendar", "ical", "recurring-ical-events", "vobject", "radicale", "check-jsonschema", "openapi-spec-validator",
    ]
    static let modules = "jsonschema, icalendar, ical, recurring_ical_events, vobject, radicale, check_jsonschema, openapi_spec_validator"
    static let packageFolder = TestEnvironment.repositoryRoot.appendingPathComponent(".build/python-packages")

    /// The first `python3` on the PATH.
    static let executable: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        .split(separator: ":")
        .map { URL(fileURLWithPath: "\($0)/python3") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// PYTHONPATH with the local package folder, set up once per test run.
    static let environment: Result<[String: String], PythonUnavailable> = {
        guard let executable else { return .failure(PythonUnavailable(reason: "python3 is not on the PATH")) }
        let environment = ["PYTHONPATH": packageFolder.path]
        if (try? run(executable, ["-c", "import \(modules)"], environment: environment))?.status == 0 {
            return .success(environment)
        }
        let install = try? run(
            executable, ["-m", "pip", "install", "--quiet", "--target", packageFolder.path] + packages, environment: environment
        )
        guard install?.status == 0,
              (try? run(executable, ["-c", "import \(modules)"], environment: environment))?.status == 0
        else {
            return .failure(PythonUnavailable(reason: "cannot install \(packages.joined(separator: ", ")): \(install?.standardError ?? "")"))
        }
        return .success(environment)
    }()

    struct PythonUnavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Runs a Python script (a file or `-c` code) with the reference libraries available.
    static func script(_ arguments: [String]) throws -> ProcessResult {
        guard let executable else { throw PythonUnavailable(reason: "python3 is not on the PATH") }
        return try ReminderCompilerTests.run(executable, arguments, environment: try environment.get())
    }
}
