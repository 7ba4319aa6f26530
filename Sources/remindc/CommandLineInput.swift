import ArgumentParser
import Foundation
import ReminderCompiler

/// Reading what the command line names: files, instants, zones. The CLI is the only
/// place that touches the file system and the clock.
enum CommandLineInput {
    /// The file's bytes, or nil after printing why it cannot be read. At most `limit`
    /// bytes and one more are read, so that an oversized file is reported, not loaded.
    static func readFile(_ path: String, limit: Int = PlistReader.defaultMaximumInputBytes) -> [UInt8]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            DiagnosticPrinter.printToolError("cannot read '\(path)': no such file")
            return nil
        }
        guard !isDirectory.boolValue else {
            DiagnosticPrinter.printToolError("cannot read '\(path)': it is a directory")
            return nil
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            DiagnosticPrinter.printToolError("cannot read '\(path)': permission denied")
            return nil
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            return [UInt8](data)
        } catch {
            DiagnosticPrinter.printToolError("cannot read '\(path)': \(error.localizedDescription)")
            return nil
        }
    }

    /// The instant given by `--now`, or the current time.
    static func instant(_ text: String?) throws -> Int64 {
        guard let text else { return Int64(Date().timeIntervalSince1970.rounded(.down)) }
        guard let instant = InstantParsing.rfc3339(text) else {
            throw ValidationError("--now '\(text)' is not an RFC 3339 instant such as 2026-11-22T08:00:00Z")
        }
        return instant
    }

    fileprivate static func unknownTimeZone(_ name: String) -> ValidationError {
        let suggestion = TimeZoneDatabase.system.suggestion(for: name).map { "; did you mean '\($0)'?" } ?? ""
        return ValidationError("--time-zone '\(name)' is not a zone of the tz database\(suggestion)")
    }
}

/// Prints diagnostics to standard error in the `path:line:column: severity: message` form.
enum DiagnosticPrinter {
    static func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        writeToStandardError(diagnostics.map { $0.formatted + "\n" }.joined())
    }

    static func printToolError(_ message: String) {
        writeToStandardError("remindc: error: \(message)\n")
    }

    private static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// `--time-zone`, shared by the commands that read configs.
struct ZoneOption: ParsableArguments {
    @Option(name: .customLong("time-zone"), help: "An IANA zone that overrides the config's timeZone.")
    var timeZone: String?

    func validate() throws {
        if let timeZone, !TimeZoneDatabase.system.contains(timeZone) {
            throw CommandLineInput.unknownTimeZone(timeZone)
        }
    }
}
