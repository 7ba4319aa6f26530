@_spi(Tooling) import ReminderCompiler

/// A notification centre that behaves as iOS does for one-time requests: at most
/// `capacity` pending, and when more are added the **last** `capacity` added are kept
/// (the earliest added are dropped silently, whatever their fire dates); a request added
/// under a pending identifier replaces it; each fires once, at its instant, and is then no
/// longer pending.
struct NotificationCenterSimulator {
    struct Request: Equatable {
        let notification: PlannedNotification
        /// The fingerprint stored in the request's user info.
        let fingerprint: String
        var id: String { notification.id }
    }

    /// A delivered request and when it fired.
    struct Delivery: Equatable {
        let at: Int64
        let notification: PlannedNotification
    }

    let capacity: Int
    /// Pending requests, oldest added first.
    private(set) var pending: [Request] = []
    private(set) var delivered: [Delivery] = []
    /// Requests the OS dropped because more than `capacity` were pending.
    private(set) var dropped: [Request] = []
    /// The simulated clock.
    private(set) var now: Int64

    init(capacity: Int = 64, now: Int64) {
        self.capacity = capacity
        self.now = now
    }

    mutating func add(_ notification: PlannedNotification) {
        pending.removeAll { $0.id == notification.id }
        pending.append(Request(notification: notification, fingerprint: notification.fingerprint))
        if pending.count > capacity {
            dropped += pending.prefix(pending.count - capacity)
            pending.removeFirst(pending.count - capacity)
        }
    }

    mutating func remove(_ ids: [String]) {
        let removed = Set(ids)
        pending.removeAll { removed.contains($0.id) }
    }

    /// What an app reads back: identifiers and the fingerprints in their user info.
    var pendingNotifications: [PendingNotification] {
        pending.map { PendingNotification(id: $0.id, fingerprint: $0.fingerprint) }
    }

    /// Moves the clock to `time`, delivering every request due by then in fire order.
    mutating func advance(to time: Int64) {
        let due = pending.filter { $0.notification.fireAt.seconds <= time }
            .sorted { ($0.notification.fireAt.seconds, $0.id) < ($1.notification.fireAt.seconds, $1.id) }
        for request in due { delivered.append(Delivery(at: request.notification.fireAt.seconds, notification: request.notification)) }
        pending.removeAll { $0.notification.fireAt.seconds <= time }
        now = max(now, time)
    }
}
