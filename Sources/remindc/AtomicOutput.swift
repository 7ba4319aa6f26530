@_spi(Tooling) import ReminderCompiler

/// Writes several output files all-or-nothing: each is first written to a temporary file
/// in its own folder, and only when every one of them is complete are they renamed into
/// place. On any error the temporary files are removed and no output is created or changed:
///
/// - every output is checked before anything is written (`checkTargets`): its folder must
///   exist, it must not be a folder, two outputs must not name one file, and no output may
///   name an input;
/// - an output that is a symbolic link is written through to the file it names, as editors
///   do, and a replaced file keeps its permission bits;
/// - a rename that fails puts back what the earlier renames replaced (each replaced file is
///   kept under a second hard link until all renames are done);
/// - temporary files are created with `O_EXCL` without following links, removed on SIGINT,
///   SIGTERM and SIGHUP, and named `.NAME.remindc-PID-N.tmp`, so that a later run in the
///   same folder removes those a killed process left.
struct AtomicOutput {
    private struct Staged {
        let temporary: String
        let destination: String
    }

    private var staged: [Staged] = []
    private var open: [OutputFile] = []
    private let processID = SystemCall.processID

    /// Where an output path leads: standard output, a file written in place (a device or a
    /// pipe), or a file replaced by renaming.
    enum Target: Equatable {
        case standardOutput
        case inPlace(String)
        case replaced(String)
    }

    /// Checks the outputs against each other and the inputs before anything is computed or
    /// written; nil paths are absent options.
    static func checkTargets(_ outputs: [(option: String, path: String?)], inputs: [String?]) throws {
        var seen: [(option: String, path: String, destination: String, identity: FileIdentity?)] = []
        let inputIdentities = inputs.compactMap { $0 }.compactMap { path -> (String, FileIdentity)? in
            // `-` is standard input, which a shell may have opened on a file (`< jobs`).
            guard path == "-" else { return FileIdentity(path).map { (path, $0) } }
            return FileIdentity(standardInput: ()).map { ("standard input", $0) }
        }
        for (option, path) in outputs {
            guard let path else { continue }
            let target = try resolve(path)
            let destination: String
            switch target {
            case .standardOutput: destination = "-"
            case .inPlace(let file), .replaced(let file): destination = file
            }
            // Devices and pipes are written in place: two outputs may share /dev/null.
            if case .inPlace = target { continue }
            // A file that does not exist yet has no identity: its folder's own path tells
            // `q.json` and `./q.json` (or a path through a linked folder) to be one file.
            let identity = FileIdentity(destination)
            let canonicalDestination = Self.canonical(destination)
            if let other = seen.first(where: { $0.destination == canonicalDestination || (identity != nil && $0.identity == identity) }) {
                throw CommandLineError("\(option) '\(path)' names the same file as \(other.option) '\(other.path)'")
            }
            if case .replaced = target, let identity, let input = inputIdentities.first(where: { $0.1 == identity }) {
                throw CommandLineError("\(option) '\(path)' would overwrite the input '\(input.0)'")
            }
            seen.append((option, path, canonicalDestination, identity))
        }
    }

    /// `path` with its folder resolved (links, `.` and `..`), for comparing outputs that do
    /// not exist yet; `-` and paths whose folder cannot be resolved stay as they are.
    private static func canonical(_ path: String) -> String {
        guard path != "-" else { return path }
        let folder = FilePath.folder(of: path)
        guard let resolved = SystemCall.resolvedPath(folder.isEmpty ? "." : folder) else { return path }
        return FilePath.join(resolved, FilePath.lastComponent(of: path))
    }

    /// Where `path` leads, or an error saying why it cannot be written.
    static func resolve(_ path: String) throws -> Target {
        if path == "-" { return .standardOutput }
        if path.hasSuffix("/") { throw CommandLineError("cannot write '\(path)': it names a folder") }
        guard let destination = followLinks(path) else {
            throw CommandLineError("cannot write '\(path)': its symbolic links go round in a loop, or more than 40 deep")
        }
        if let status = SystemCall.status(of: destination) {
            switch status.kind {
            case .folder: throw CommandLineError("cannot write '\(path)': it is a folder")
            case .regular: break
            case .other: return .inPlace(destination)
            }
        }
        let folder = FilePath.folder(of: destination)
        let folderPath = folder.isEmpty ? "." : folder
        guard SystemCall.status(of: folderPath)?.kind == .folder else {
            throw CommandLineError("cannot write '\(path)': the folder '\(folderPath)' does not exist")
        }
        guard SystemCall.canWrite(inFolder: folderPath) else {
            throw CommandLineError("cannot write '\(path)': the folder '\(folderPath)' is not writable")
        }
        return .replaced(destination)
    }

    /// The file a chain of symbolic links ends at (which need not exist yet).
    /// Where `path`'s symbolic links lead; nil when they go round in a loop or past 40
    /// links, as the system's own limit would say (ELOOP): then nothing is written.
    private static func followLinks(_ path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            guard let target = SystemCall.linkTarget(of: current) else { return current }
            current = target.hasPrefix("/") ? target : FilePath.join(FilePath.folder(of: current), target)
        }
        return nil
    }

    /// Writes `bytes` beside `path` under a temporary name.
    mutating func stage(_ bytes: [UInt8], at path: String) throws {
        try stage(at: path) { file in try file.write(contentsOf: bytes) }
    }

    /// Creates a temporary file beside `path` and lets `write` fill it.
    mutating func stage(at path: String, maximumBytes: Int? = nil, _ write: (OutputFile) throws -> Void) throws {
        let file = try open(path, maximumBytes: maximumBytes)
        do {
            try write(file)
        } catch {
            discard()
            throw CommandLineError("cannot write '\(path)': \(OutputFile.describe(error))")
        }
    }

    /// Creates a temporary file beside `path` for the caller to fill; `commit` closes it
    /// and renames it into place. `maximumBytes` caps what may be written.
    ///
    /// A destination that exists and is not a regular file (`/dev/stdout`, `/dev/null`, a
    /// named pipe) is written directly: renaming over it would replace the device or pipe
    /// with a file, and what went into a pipe cannot be taken back anyway.
    mutating func open(_ path: String, maximumBytes: Int? = nil) throws -> OutputFile {
        let target: Target
        do {
            target = try Self.resolve(path)
        } catch {
            discard()
            throw error
        }
        switch target {
        case .standardOutput:
            let file = OutputFile(SystemCall.standardOutput, ownsDescriptor: false, reservesSpace: false, maximumBytes: maximumBytes)
            return file
        case .inPlace(let device):
            let descriptor = SystemCall.openForWriting(device)
            guard descriptor >= 0 else {
                discard()
                throw CommandLineError("cannot write '\(path)': it is not a regular file and cannot be opened for writing")
            }
            let file = OutputFile(descriptor, ownsDescriptor: true, reservesSpace: false, maximumBytes: maximumBytes)
            open.append(file)
            return file
        case .replaced(let destination):
            let folder = FilePath.folder(of: destination)
            let name = FilePath.lastComponent(of: destination)
            Self.removeStaleTemporaries(in: folder.isEmpty ? "." : folder)
            let temporary = FilePath.join(folder, ".\(name).remindc-\(processID)-\(staged.count).tmp")
            // A replaced file keeps its permission bits; a new one gets 0666 less the umask.
            let existing = SystemCall.status(of: destination)
            let descriptor = SystemCall.createTemporary(temporary, permissions: 0o666)
            guard descriptor >= 0 else {
                let reason = SystemCall.errorText(SystemCall.lastError)
                discard()
                throw CommandLineError("cannot write '\(path)': \(reason)")
            }
            if let existing { SystemCall.setPermissions(descriptor, existing.permissions) }
            staged.append(Staged(temporary: temporary, destination: destination))
            let file = OutputFile(descriptor, ownsDescriptor: true, reservesSpace: true, maximumBytes: maximumBytes)
            open.append(file)
            return file
        }
    }

    /// Removes temporary files of processes that no longer run (killed with SIGKILL, say).
    private static func removeStaleTemporaries(in folder: String) {
        guard let names = DirectoryListing.names(in: folder, hiddenOnly: true) else { return }
        for name in names where name.hasPrefix(".") && (name.hasSuffix(".tmp") || name.hasSuffix(".bak")) {
            // .NAME.remindc-PID-N.tmp (or .bak): the process ID is the second field from the end.
            guard let fields = Self.textAfterLastMarker(in: name)?.split(separator: "-") else { continue }
            guard fields.count == 2, let pid = Int32(fields[0]), pid > 0, pid != SystemCall.processID,
                  SystemCall.processHasEnded(pid)
            else { continue }
            SystemCall.removeFile(FilePath.join(folder, name))
        }
    }

    /// What follows the last `.remindc-` in a file name, or nil without one.
    private static func textAfterLastMarker(in name: String) -> String? {
        let bytes = Array(name.utf8)
        let marker = Array(".remindc-".utf8)
        var start = bytes.count - marker.count
        while start >= 0 {
            if bytes[start..<start + marker.count].elementsEqual(marker) {
                return String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
            }
            start -= 1
        }
        return nil
    }

    /// Closes and renames every staged file into place; if a rename fails, the files the
    /// earlier ones replaced are put back.
    ///
    /// The diagnostics file, when the command has one, is one of the command's outputs:
    /// `carryingDiagnostics` stages its document with the others, so that a diagnostics
    /// file that cannot be written (on a full disk, say) leaves every output as it was.
    mutating func commit(carryingDiagnostics: Bool = true) throws {
        guard carryingDiagnostics, let document = DiagnosticPrinter.takeDocument() else { return try commitStaged() }
        do {
            try stage(document.bytes, at: document.path)
        } catch {
            DiagnosticPrinter.documentFailed()
            throw error
        }
        do {
            try commitStaged()
        } catch {
            // Another output failed: the document is written at the end, as usual.
            DiagnosticPrinter.documentNotTaken()
            throw error
        }
    }

    private mutating func commitStaged() throws {
        for file in open {
            do {
                try file.finish()
            } catch {
                discard()
                throw CommandLineError("cannot write the output: \(OutputFile.describe(error))")
            }
        }
        open.removeAll()
        // Each file about to be replaced gets a second name, to restore it from.
        var backups: [String?] = []
        for (index, file) in staged.enumerated() {
            let backup = FilePath.join(
                FilePath.folder(of: file.destination), ".\(FilePath.lastComponent(of: file.destination)).remindc-\(processID)-\(index).bak"
            )
            if SystemCall.statusOfLink(file.destination) != nil, SystemCall.rememberTemporary(backup) {
                if SystemCall.addLink(to: file.destination, named: backup) {
                    backups.append(backup)
                    continue
                }
                SystemCall.forgetTemporary(backup)
            }
            backups.append(nil)
        }
        defer {
            for backup in backups.compactMap({ $0 }) {
                SystemCall.removeFile(backup)
                SystemCall.forgetTemporary(backup)
            }
        }
        for (index, file) in staged.enumerated() {
            if !SystemCall.renameFile(file.temporary, to: file.destination) {
                let reason = SystemCall.errorText(SystemCall.lastError)
                for earlier in staged[..<index].indices.reversed() {
                    if let backup = backups[earlier] {
                        SystemCall.renameFile(backup, to: staged[earlier].destination)
                    } else {
                        SystemCall.removeFile(staged[earlier].destination)
                    }
                }
                discard()
                throw CommandLineError("cannot write '\(file.destination)': \(reason); no output was changed")
            }
            SystemCall.forgetTemporary(file.temporary)
        }
        staged.removeAll()
    }

    /// Removes the staged files.
    mutating func discard() {
        for file in open { file.close() }
        open.removeAll()
        for file in staged {
            SystemCall.removeFile(file.temporary)
            SystemCall.forgetTemporary(file.temporary)
        }
        staged.removeAll()
    }
}

/// A file's device and inode: two paths name one file when these agree.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(_ path: String) {
        guard let status = SystemCall.status(of: path) else { return nil }
        self.init(status)
    }

    /// Standard input's file, when it is a regular file; nil for a terminal or a pipe.
    init?(standardInput: Void) {
        guard let status = SystemCall.status(ofDescriptor: 0), status.kind == .regular else { return nil }
        self.init(status)
    }

    private init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
    }
}

/// An output file being written.
///
/// A staged file reserves its disk space ahead of the writes, in growing steps, and is
/// cut to its length when finished. On ext4, renaming a file over an existing one first
/// writes out the new file's blocks that are not allocated yet (`auto_da_alloc`); with
/// the space reserved there are none, which made replacing W2's plan and calendar about
/// 35 ms faster. Where space cannot be reserved, files are written as they come.
final class OutputFile {
    private let descriptor: Int32
    /// Whether closing is this file's to do (not for standard output).
    private var ownsDescriptor: Bool
    private var reservesSpace: Bool
    private let maximumBytes: Int?
    private var written = 0
    private var reserved = 0

    init(_ descriptor: Int32, ownsDescriptor: Bool, reservesSpace: Bool, maximumBytes: Int? = nil) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.reservesSpace = reservesSpace
        self.maximumBytes = maximumBytes
    }

    deinit { close() }

    /// Raised when a write would pass `maximumBytes`.
    struct TooLarge: Error, CustomStringConvertible {
        let limit: Int
        var description: String {
            "the output would pass \(limit) bytes, the most remindc reads back; shorten horizonDays or set a pendingLimit"
        }
    }

    /// What went wrong, in words for the user.
    static func describe(_ error: Error) -> String {
        (error as? TooLarge)?.description ?? (error as? CommandLineError)?.description ?? String(describing: error)
    }

    /// Writes `bytes` whole.
    func write(contentsOf bytes: [UInt8]) throws {
        try write(contentsOf: bytes.span)
    }

    /// Writes `bytes` whole; also a chunk the library's writers hand over.
    func write(contentsOf bytes: Span<UInt8>) throws {
        if let maximumBytes, written + bytes.count > maximumBytes { throw TooLarge(limit: maximumBytes) }
        reserve(bytes.count)
        let failure = SystemCall.writeAll(bytes, to: descriptor)
        guard failure == 0 else { throw CommandLineError(SystemCall.errorText(failure)) }
        written += bytes.count
    }

    private func reserve(_ count: Int) {
        guard reservesSpace, written + count > reserved else { return }
        // Steps from 1 MiB, doubling up to 32 MiB: small outputs reserve little.
        let step = min(max(1 << 20, reserved), 32 << 20)
        let target = max(written + count, reserved + step)
        if SystemCall.reserveSpace(descriptor, length: target) {
            reserved = target
        } else {
            reservesSpace = false
        }
    }

    /// Cuts the file to what was written and closes it.
    func finish() throws {
        if reserved > written, !SystemCall.truncate(descriptor, length: written) {
            throw CommandLineError(SystemCall.errorText(SystemCall.lastError))
        }
        guard ownsDescriptor else { return }
        ownsDescriptor = false
        // A file system that reports a failed write only at close (NFS) fails the output.
        guard SystemCall.closeDescriptor(descriptor) == 0 else { throw CommandLineError(SystemCall.errorText(SystemCall.lastError)) }
    }

    /// Closes the file without finishing it (once; standard output stays open).
    func close() {
        guard ownsDescriptor else { return }
        ownsDescriptor = false
        SystemCall.closeDescriptor(descriptor)
    }
}

/// An error the CLI reports as `remindc: error: …` with exit status 1.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
