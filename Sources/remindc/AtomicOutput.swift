import Foundation

/// Writes several output files all-or-nothing: each is first written to a temporary file
/// in its own folder, and only when every one of them is complete are they renamed into
/// place. On any error the temporary files are removed and no output is created or changed.
struct AtomicOutput {
    private var staged: [(temporary: String, destination: String)] = []
    private var open: [FileHandle] = []

    /// Writes `bytes` beside `path` under a temporary name.
    mutating func stage(_ bytes: [UInt8], at path: String) throws {
        try stage(at: path) { file in try file.write(contentsOf: bytes) }
    }

    /// Creates a temporary file beside `path` and lets `write` fill it.
    mutating func stage(at path: String, _ write: (FileHandle) throws -> Void) throws {
        let file = try open(path)
        do {
            try write(file)
        } catch {
            discard()
            throw CommandLineError("cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    /// Creates a temporary file beside `path` for the caller to fill; `commit` closes it
    /// and renames it into place.
    ///
    /// A destination that exists and is not a regular file (`/dev/stdout`, `/dev/null`, a
    /// named pipe) is written directly: renaming over it would replace the device or pipe
    /// with a file, and what went into a pipe cannot be taken back anyway.
    mutating func open(_ path: String) throws -> FileHandle {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard let file = FileHandle(forWritingAtPath: path) else {
                discard()
                throw CommandLineError("cannot write '\(path)': it is not a regular file and cannot be opened for writing")
            }
            open.append(file)
            return file
        }
        let destination = URL(fileURLWithPath: path)
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            ".\(destination.lastPathComponent).remindc-\(ProcessInfo.processInfo.processIdentifier)-\(staged.count).tmp"
        ).path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let file = FileHandle(forWritingAtPath: temporary)
        else {
            discard()
            throw CommandLineError("cannot write '\(path)': the folder does not exist or is not writable")
        }
        staged.append((temporary, path))
        open.append(file)
        return file
    }

    /// Closes and renames every staged file into place.
    mutating func commit() throws {
        for file in open {
            do {
                try file.close()
            } catch {
                discard()
                throw CommandLineError("cannot write the output: \(error.localizedDescription)")
            }
        }
        open.removeAll()
        for (temporary, destination) in staged where rename(temporary, destination) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw CommandLineError("cannot write '\(destination)': \(reason)")
        }
        staged.removeAll()
    }

    /// Removes the staged files.
    mutating func discard() {
        for file in open { try? file.close() }
        open.removeAll()
        for (temporary, _) in staged { unlink(temporary) }
        staged.removeAll()
    }
}

/// An error the CLI reports as `remindc: error: …` with exit status 1.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
