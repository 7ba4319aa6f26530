import Dispatch

/// The chunked driver's shared state between the planning thread and its writer threads.
/// Each type is `@unchecked Sendable` because a thread hands it over rather than shares it,
/// or guards it with a lock; why, each says.

/// How many bytes one output may still take; the writer thread of that output is the only
/// one that takes.
final class ByteAllowance: @unchecked Sendable {
    /// Thrown by the chunk that would pass the limit.
    struct Exceeded: Error {
        let output: String
        let limit: Int
    }

    let limit: Int
    let output: String
    private var taken = 0

    init(limit: Int, output: String) {
        self.limit = limit
        self.output = output
    }

    func take(_ count: Int) throws {
        taken += count
        if taken > limit { throw Exceeded(output: output, limit: limit) }
    }
}

/// A value shared by the closures that a `BackgroundWriter` runs.
final class Box<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs writing jobs one after another on a thread of its own while the caller goes on.
/// At most two jobs wait, so that memory stays flat; the first error stops the rest and
/// is thrown to the caller at its next call.
final class BackgroundWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "remindc.writer")
    private let room = DispatchSemaphore(value: 2)
    private let failureLock = ThreadLock()
    private var storedFailure: Error?

    /// Set on `queue`, read on the caller's thread too.
    private var failure: Error? {
        get { failureLock.withLock { storedFailure } }
        set { failureLock.withLock { storedFailure = newValue } }
    }

    /// A job handed to the queue: the caller hands over state that only this writer's
    /// jobs touch from then on.
    private struct Job: @unchecked Sendable {
        let run: () throws -> Void
    }

    /// Queues `job`; throws when an earlier job failed.
    func submit(_ job: @escaping () throws -> Void) throws {
        if let failure { throw failure }
        room.wait()
        let handed = Job(run: job)
        queue.async { [self] in
            defer { room.signal() }
            guard failure == nil else { return }
            do {
                try handed.run()
            } catch {
                failure = error
            }
        }
    }

    /// Runs `job` after every queued one and waits for it; throws the first error.
    func finish(_ job: () throws -> Void) throws {
        try queue.sync {
            if let failure { throw failure }
            try job()
        }
    }

    /// Waits until every queued job has run.
    func waitUntilDone() {
        queue.sync {}
    }
}

/// Bytes appended by one writer thread at a time (the driver's guarantee) and read after
/// the write returned.
final class CollectedBytes: @unchecked Sendable {
    var bytes: [UInt8] = []

    func append(_ chunk: Span<UInt8>) {
        bytes.append(span: chunk)
    }
}
