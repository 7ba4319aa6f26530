import Foundation

// The benchmark's calls into the C library that pass pointers, behind signatures of Swift
// values: the rest of the target compiles under strict memory safety without an `unsafe`
// mark. Each argument string goes to C as a copy freed after the call; a chunk written to
// /dev/null is read within its span's lifetime.

/// Runs a program as a child process and measures it from spawn to exit.
enum WholeProcess {
    /// Runs `executable` with `arguments`, its output discarded; returns the wall time in
    /// milliseconds and the child's peak resident memory in KiB, or nil when it cannot run.
    static func run(_ executable: String, _ arguments: [String]) -> (milliseconds: Double, peakKiB: Int)? {
        var actions = unsafe posix_spawn_file_actions_t()
        unsafe posix_spawn_file_actions_init(&actions)
        defer { unsafe posix_spawn_file_actions_destroy(&actions) }
        unsafe posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        unsafe posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = unsafe ([executable] + arguments).map { unsafe strdup($0) } + [nil]
        defer { for unsafe pointer in unsafe argv { unsafe free(pointer) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        guard unsafe posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        unsafe wait4(pid, &status, 0, &usage)
        let milliseconds = (monotonicSeconds() - start) * 1000
        return (milliseconds, Int(usage.ru_maxrss))
    }
}

/// Monotonic time in seconds.
func monotonicSeconds() -> Double {
    var time = timespec()
    unsafe clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// /dev/null, written as the command line writes a file: the bytes go through `write(2)`.
final class NullDevice {
    private let descriptor = unsafe open("/dev/null", O_WRONLY | O_CLOEXEC)

    deinit { close(descriptor) }

    /// Writes a chunk whole.
    func write(_ bytes: Span<UInt8>) {
        unsafe bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = unsafe Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count <= 0 { return }
                offset += count
            }
        }
    }
}
