#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock on the C library's mutex, for state shared between threads.
///
/// Foundation's `NSLock` would link all of Foundation into the command line, and the
/// standard library's `Mutex` needs macOS 15 and iOS 18, later than apps that embed the
/// library run on.
@safe package final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        unsafe mutex = .allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        unsafe pthread_mutex_init(mutex, nil)
    }

    deinit {
        unsafe pthread_mutex_destroy(mutex)
        unsafe mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        unsafe pthread_mutex_lock(mutex)
        defer { unsafe pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value that threads share, read and changed only while holding its lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Touched only inside `lock`: that is what makes the class `Sendable`.
    private var value: Value

    /// Shares `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
