import COutputFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The command line's only door to the C library. Every call that passes a pointer (a path,
// a buffer, the process's arguments) is made here, behind a signature of Swift values, so
// that the rest of the target compiles under strict memory safety without one `unsafe`
// mark (a test holds it to that; see Internals, "Unsafe code").
//
// The invariants, for every function below:
// - a path goes to C as a NUL-terminated copy that lives for the call only;
// - a buffer handed to `read` or `write` is an array's own storage, used within its
//   `withUnsafe…` closure, never beyond its count;
// - a pointer the C library returns (`strerror`, `getenv`, `realpath`) is copied into a
//   String at once and, where it is ours, freed.

/// What `stat` says of a file, in the terms the command line asks about.
struct FileStatus {
    /// The kinds of file the command line tells apart.
    enum Kind {
        case regular
        case folder
        /// A device, a pipe, a socket: written in place, never replaced.
        case other
    }

    let kind: Kind
    /// The permission bits (`st_mode & 0o7777`).
    let permissions: UInt32
    let size: Int
    let device: UInt64
    let inode: UInt64

    fileprivate init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .folder
        default: kind = .other
        }
        permissions = UInt32(status.st_mode & 0o7777)
        size = Int(status.st_size)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// The C library calls of the command line, with Swift values in and out.
enum SystemCall {
    /// The standard output and error streams' descriptors.
    static let standardOutput = STDOUT_FILENO
    static let standardError = STDERR_FILENO

    /// The `errno` of the call that just failed.
    static var lastError: Int32 { errno }

    /// Whether `code` says a file does not exist.
    static func isNoSuchFile(_ code: Int32) -> Bool { code == ENOENT }

    /// The C library's words for an `errno` value.
    static func errorText(_ code: Int32) -> String {
        unsafe String(cString: strerror(code))
    }

    /// `path`'s status, its symbolic links followed; nil when it cannot be read.
    static func status(of path: String) -> FileStatus? {
        var status = stat()
        return unsafe stat(path, &status) == 0 ? FileStatus(status) : nil
    }

    /// `path`'s own status, a symbolic link not followed.
    static func statusOfLink(_ path: String) -> FileStatus? {
        var status = stat()
        return unsafe lstat(path, &status) == 0 ? FileStatus(status) : nil
    }

    /// An open file's status.
    static func status(ofDescriptor descriptor: Int32) -> FileStatus? {
        var status = stat()
        return unsafe fstat(descriptor, &status) == 0 ? FileStatus(status) : nil
    }

    /// Whether this process may create files in `folder`.
    static func canWrite(inFolder folder: String) -> Bool {
        unsafe access(folder, W_OK) == 0
    }

    /// Whether this process may run `path`.
    static func canExecute(_ path: String) -> Bool {
        unsafe access(path, X_OK) == 0
    }

    /// What the symbolic link `path` holds; nil when `path` is not a link.
    static func linkTarget(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = unsafe readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with every symbolic link and `.`/`..` resolved; nil when it cannot be.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = unsafe realpath(path, nil) else { return nil }
        defer { unsafe free(resolved) }
        return unsafe String(cString: resolved)
    }

    /// Removes the name `path`; false when it could not be.
    @discardableResult
    static func removeFile(_ path: String) -> Bool {
        unsafe unlink(path) == 0
    }

    /// Gives the file `existing` the second name `newName`.
    static func addLink(to existing: String, named newName: String) -> Bool {
        unsafe link(existing, newName) == 0
    }

    /// Renames `from` to `to`, replacing what `to` named.
    @discardableResult
    static func renameFile(_ from: String, to: String) -> Bool {
        unsafe rename(from, to) == 0
    }

    /// Opens `path` for reading (`-`: a copy of standard input); -1 with `errno` set when
    /// it cannot be.
    static func openForReading(_ path: String) -> Int32 {
        path == "-" ? dup(STDIN_FILENO) : unsafe open(path, O_RDONLY | O_CLOEXEC)
    }

    /// Opens an existing file for writing, without creating it: -1 when it cannot be.
    static func openForWriting(_ path: String) -> Int32 {
        unsafe open(path, O_WRONLY | O_CLOEXEC)
    }

    /// Closes a descriptor: 0, or -1 with `errno` set.
    @discardableResult
    static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        close(descriptor)
    }

    /// Reads at most `count` bytes, retrying after signals: the bytes (empty at the end of
    /// the file), or the `errno` of the read that failed.
    static func readBytes(from descriptor: Int32, upTo count: Int) -> Result<[UInt8], ReadFailure> {
        var failure: Int32 = 0
        while true {
            let bytes = unsafe [UInt8](unsafeUninitializedCapacity: max(0, count)) { buffer, initialized in
                let count = unsafe read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 { failure = errno }
                initialized = max(0, count)
            }
            if failure == EINTR {
                failure = 0
                continue
            }
            return failure == 0 ? .success(bytes) : .failure(ReadFailure(code: failure))
        }
    }

    /// A read that failed, with its `errno`.
    struct ReadFailure: Error {
        let code: Int32
    }

    /// Writes all of `bytes`, retrying after signals and short writes.
    /// - Returns: 0, or the `errno` of the write that failed.
    static func writeAll(_ bytes: Span<UInt8>, to descriptor: Int32) -> Int32 {
        unsafe bytes.withUnsafeBytes { buffer in
            guard var next = buffer.baseAddress else { return 0 }
            var remaining = buffer.count
            while remaining > 0 {
                let count = unsafe write(descriptor, next, remaining)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                unsafe next += count
                remaining -= count
            }
            return 0
        }
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// An environment variable's value; nil when it is not set.
    static func environmentValue(_ name: String) -> String? {
        unsafe getenv(name).map { unsafe String(cString: $0) }
    }

    /// A clock that only moves forward, in milliseconds: the command line may read the
    /// clock, the library never does.
    static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        unsafe clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// The current time, in whole seconds since 1970 UTC.
    static func wallClockSeconds() -> Int64 {
        Int64(time(nil))
    }

    /// The processors online, at least 1.
    static var onlineProcessors: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// This process's ID.
    static var processID: Int32 { getpid() }

    /// Whether no process `id` runs any more.
    static func processHasEnded(_ id: Int32) -> Bool {
        kill(id, 0) != 0 && errno == ESRCH
    }

    /// Runs `executable` in place of this process with `arguments` (the first being its
    /// name); returns only when it cannot, with the `errno`.
    static func replaceProcess(with executable: String, arguments: [String]) -> Int32 {
        var pointers = unsafe arguments.map { unsafe strdup($0) }
        unsafe pointers.append(nil)
        unsafe execv(executable, pointers)
        let failure = errno
        for unsafe pointer in unsafe pointers { unsafe free(pointer) }
        return failure
    }

    /// The process's arguments as the bytes it was given (Swift's `CommandLine.arguments`
    /// replaces what is not UTF-8), the program's name first.
    static func argumentBytes() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = unsafe CommandLine.unsafeArgv[index] else { return [] }
            let count = unsafe strlen(argument)
            return unsafe argument.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                unsafe Array(UnsafeBufferPointer(start: bytes, count: count))
            }
        }
    }

    // MARK: Output files (COutputFiles)

    /// Creates `path` with `permissions` only where nothing stands, never through a link,
    /// and removes it on SIGINT, SIGTERM and SIGHUP until it is forgotten: the descriptor,
    /// or -1 with `errno` set.
    static func createTemporary(_ path: String, permissions: UInt32) -> Int32 {
        unsafe remindc_create_temporary(path, permissions)
    }

    /// Removes `path` too on those signals; false when too many paths are held already.
    static func rememberTemporary(_ path: String) -> Bool {
        unsafe remindc_remember_temporary(path) == 0
    }

    /// No longer removes `path` on signals: it was renamed into place or removed.
    static func forgetTemporary(_ path: String) {
        unsafe remindc_forget_temporary(path)
    }

    /// Reserves disk space for the first `length` bytes of an open file; false when the
    /// system or file system cannot.
    static func reserveSpace(_ descriptor: Int32, length: Int) -> Bool {
        remindc_reserve_file_space(descriptor, Int64(length)) == 0
    }

    /// Cuts an open file to `length` bytes.
    static func truncate(_ descriptor: Int32, length: Int) -> Bool {
        ftruncate(descriptor, off_t(length)) == 0
    }

    /// Sets an open file's permission bits.
    static func setPermissions(_ descriptor: Int32, _ permissions: UInt32) {
        fchmod(descriptor, mode_t(permissions))
    }
}

/// Ends the process with `status`; a function of its own because inside a command `exit`
/// names ArgumentParser's `exit(withError:)`.
func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
