/// Configs already read and checked, kept by their bytes, for a service or a batch that is
/// sent the same config again and again: a job whose config, name and options are those of
/// one kept takes its checked config and diagnostics instead of reading and checking the
/// config again. A job's answer is the same bytes either way.
///
/// Reading and checking W1's config is about half of what a W1 job costs. The configs kept
/// are bounded in number and each in size; when full, the one kept longest makes room.
/// Safe to share between threads.
@_spi(Tooling) public final class CheckedConfigs: Sendable {
    /// What a check depends on besides the zone database: the config's bytes, the name its
    /// diagnostics give it, and the options.
    private struct Key: Hashable {
        let bytes: [UInt8]
        let path: String
        let timeZoneOverride: String?
        let now: Int64?
    }

    private struct Kept {
        var checks: [Key: (result: CheckResult, validated: ValidatedConfig?)] = [:]
        /// The keys in the order they were kept, as a ring: `oldest` is the next to go.
        var order: [Key] = []
        var oldest = 0
    }

    /// The most configs kept.
    public let capacity: Int
    /// The largest config kept, in bytes; larger ones are checked every time.
    public let largestConfigBytes: Int
    /// The zone database the configs are checked against; a job asking for another is
    /// checked without the kept configs.
    private let zones: TimeZoneDatabase
    private let kept = Locked(Kept())

    /// Keeps up to `capacity` checked configs of at most `largestConfigBytes` each, checked
    /// against `zones`. By default 64 of up to 32 KiB (W1's config is 2.8 KB): a check
    /// takes at most about fifteen times its config's bytes (a config of 1 000 reminders,
    /// 401 KB, raised a process's peak memory by 6 MB), so the kept checks stay within
    /// about 30 MB whatever clients send.
    public init(capacity: Int = 64, largestConfigBytes: Int = 32 << 10, zones: TimeZoneDatabase = .system) {
        self.capacity = max(0, capacity)
        self.largestConfigBytes = largestConfigBytes
        self.zones = zones
    }

    /// How many checked configs are kept.
    var count: Int { kept.withLock { $0.checks.count } }

    /// `ReminderCompiler.checkValidated` of the config, kept or made and kept.
    func checkValidated(
        _ bytes: [UInt8], path: String, options: ConfigOptions, zones: TimeZoneDatabase
    ) -> (result: CheckResult, validated: ValidatedConfig?) {
        guard capacity > 0, bytes.count <= largestConfigBytes, zones.isSame(as: self.zones) else {
            return ReminderCompiler.checkValidated(bytes, path: path, options: options, zones: zones)
        }
        let key = Key(bytes: bytes, path: path, timeZoneOverride: options.timeZoneOverride, now: options.now)
        if let check = kept.withLock({ $0.checks[key] }) { return check }
        // Checked outside the lock: other jobs go on meanwhile. Two jobs of one new config
        // at once both check it, and the second keeps the same result again.
        let check = ReminderCompiler.checkValidated(bytes, path: path, options: options, zones: zones)
        kept.withLock { kept in
            guard kept.checks.updateValue(check, forKey: key) == nil else { return }
            if kept.order.count < capacity {
                kept.order.append(key)
            } else {
                kept.checks[kept.order[kept.oldest]] = nil
                kept.order[kept.oldest] = key
                kept.oldest = (kept.oldest + 1) % capacity
            }
        }
        return check
    }
}
