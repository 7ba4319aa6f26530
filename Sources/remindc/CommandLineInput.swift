import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// Reading what the command line names: files, instants, zones. The CLI is the only
/// place that touches the file system and the clock.
enum CommandLineInput {
    /// The file's bytes, or nil after printing why it cannot be read; `-` is standard
    /// input. Reading stops one byte past `limit`, so that an oversized input (`/dev/zero`
    /// among them) is refused after `limit` bytes at most, never loaded whole; a regular
    /// file's size is known before any read.
    ///
    /// With `opening`, a file whose first byte that is not whitespace is another is read no
    /// further: it cannot be a plan (`{`), and what was read is enough for the reader's
    /// located error. So `diff /dev/zero` answers at once rather than at the plan limit.
    static func readFile(_ path: String, limit: Int = PlistReader.defaultMaximumInputBytes, opening: UInt8? = nil) -> [UInt8]? {
        let descriptor = SystemCall.openForReading(path)
        guard descriptor >= 0 else {
            let failure = SystemCall.lastError
            let reason = SystemCall.isNoSuchFile(failure) ? "no such file" : SystemCall.errorText(failure)
            DiagnosticPrinter.printToolError("cannot read '\(path)': \(reason)")
            return nil
        }
        defer { SystemCall.closeDescriptor(descriptor) }
        guard let status = SystemCall.status(ofDescriptor: descriptor) else {
            DiagnosticPrinter.printToolError("cannot read '\(path)': \(SystemCall.errorText(SystemCall.lastError))")
            return nil
        }
        guard status.kind != .folder else {
            DiagnosticPrinter.printToolError("cannot read '\(path)': it is a directory")
            return nil
        }
        let isRegular = status.kind == .regular
        if isRegular, status.size > limit {
            DiagnosticPrinter.print([ReminderCompiler.inputTooLarge(path: path, limit: limit)])
            return nil
        }
        // Chunks are joined once at the end: an input refused at the limit never costs
        // more memory than the limit, as a growing array's copies would.
        var chunks: [[UInt8]] = []
        var total = 0
        let chunkSize = isRegular ? max(1, status.size + 1) : 1 << 20
        while total <= limit {
            let chunk: [UInt8]
            switch SystemCall.readBytes(from: descriptor, upTo: min(chunkSize, limit + 1 - total)) {
            case .success(let bytes): chunk = bytes
            case .failure(let failure):
                DiagnosticPrinter.printToolError("cannot read '\(path)': \(SystemCall.errorText(failure.code))")
                return nil
            }
            if chunk.isEmpty { break }
            chunks.append(chunk)
            total += chunk.count
            if let opening, total == chunk.count,
               let first = chunk.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), first != opening {
                break
            }
        }
        if total > limit {
            DiagnosticPrinter.print([ReminderCompiler.inputTooLarge(path: path, limit: limit)])
            return nil
        }
        if chunks.count == 1 { return chunks[0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for chunk in chunks { bytes.append(contentsOf: chunk) }
        return bytes
    }

    /// The `--events` file with its path, nil when none was given; a file that cannot be
    /// read was reported, and ends the command.
    static func readEvents(_ path: String?) throws -> (bytes: [UInt8], path: String)? {
        guard let path else { return nil }
        guard let bytes = readFile(path) else { throw ExitCode.failure }
        return (bytes, path)
    }

    /// The current time, in whole seconds since 1970 UTC: the one place the CLI reads the
    /// clock.
    static func currentInstant() -> Int64 {
        SystemCall.wallClockSeconds()
    }

    /// Refuses a `--time-zone` that the tz database does not have, with the closest name.
    static func checkTimeZone(_ name: String?) throws {
        guard let name, !TimeZoneDatabase.system.contains(name) else { return }
        let suggestion = TimeZoneDatabase.system.suggestion(for: name).map { "; did you mean '\($0)'?" } ?? ""
        throw ValidationError("--time-zone '\(name)' is not a zone of the tz database\(suggestion)")
    }
}

/// The help of the options that several commands declare each for itself rather than in an
/// option group: every group type costs each run of a command about 0.8 M instructions of
/// the argument parser's reflection (see Performance, "Option groups, and the parser's
/// floor"), so only options that travel together are grouped.
enum SharedOptionHelp {
    /// `--time-zone`, checked with `CommandLineInput.checkTimeZone`.
    static let timeZone = "An IANA zone that overrides the config's timeZone."
    /// `--events`.
    static let events = "An events file (plist or JSON): activities logged, occurrences done, skipped or snoozed."
}
