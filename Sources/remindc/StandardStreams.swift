#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error, written with the C library: the command line
/// links no more of Foundation than its essentials (see README, "Performance").
enum StandardStream {
    case output
    case error

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

    /// Writes `text` whole.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` whole.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes `bytes` whole. Output that cannot be written (a full disk, a closed pipe
    /// with SIGPIPE ignored) ends the command with status 1, so that a script never takes
    /// a cut result for a whole one; a failing standard error is passed over.
    private func write(_ bytes: UnsafeRawBufferPointer) {
        let failure = FileDescriptorWriter.writeAll(bytes, to: descriptor)
        guard failure != 0, self == .output else { return }
        StandardStream.error.write("remindc: error: cannot write standard output: \(String(cString: strerror(failure)))\n")
        exitProcess(1)
    }

    /// Whether the stream is a terminal where colour may be used: not when `NO_COLOR` is
    /// set (https://no-color.org).
    var allowsColour: Bool {
        isatty(descriptor) == 1 && getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true
    }
}

/// `write(2)` until every byte is written.
enum FileDescriptorWriter {
    /// Writes all of `bytes` to `descriptor`, retrying after signals and short writes.
    /// - Returns: 0, or the `errno` of the write that failed.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard var next = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            let count = write(descriptor, next, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += count
            remaining -= count
        }
        return 0
    }
}

/// Ends the process with `status`; a function of its own because inside a command
/// `exit` names ArgumentParser's `exit(withError:)`.
func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
