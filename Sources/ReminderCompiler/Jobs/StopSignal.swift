/// Asks a compile under way to stop: the service raises it when a request runs over its
/// time limit, so that the work ends with the answer instead of going on unseen. The
/// planning driver looks at it before each few weeks of the window it drafts, so a compile
/// stops within one such step; a stopped compile ends with the error `plan.stopped`.
@_spi(Tooling) public final class StopSignal: Sendable {
    private let raised = Locked(false)

    /// Creates a signal that is not raised.
    public init() {}

    /// Asks the compile to stop; it cannot be lowered again.
    public func raise() {
        raised.withLock { $0 = true }
    }

    /// Whether `raise` was called.
    public var isRaised: Bool {
        raised.withLock { $0 }
    }
}
