import Foundation

/// Runs a program as a child process and measures it from spawn to exit.
enum WholeProcess {
    /// Runs `executable` with `arguments`, its output discarded; returns the wall time in
    /// milliseconds and the child's peak resident memory in KiB.
    static func run(_ executable: String, _ arguments: [String]) -> (milliseconds: Double, peakKiB: Int) {
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            print("cannot run \(executable)")
            exit(1)
        }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let milliseconds = (monotonicSeconds() - start) * 1000
        return (milliseconds, Int(usage.ru_maxrss))
    }
}
