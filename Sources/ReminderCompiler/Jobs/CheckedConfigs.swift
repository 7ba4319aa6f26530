/// Configs already read and checked, kept by their bytes, for a service or a batch that is
/// sent the same config again and again: a job whose config, name and options are those of
/// one kept takes its checked config and diagnostics instead of reading and checking the
/// config again. A job's answer is the same bytes either way.
///
/// Reading and checking W1's config is about half of what a W1 job costs. Only checks
/// that passed are kept (one that failed may have failed on a zone file that could not be
/// read just then). The configs kept are bounded in number and each in size; when full,
/// one not asked for since it was last passed over makes room (a clock of "used" marks,
/// close to letting the least recently used go). Safe to share between threads.
@_spi(Tooling) public final class CheckedConfigs: Sendable {
    /// What a check depends on besides the zone database: the config's bytes, the name its
    /// diagnostics give it, and the options.
    private struct Key: Hashable {
        let bytes: [UInt8]
        let path: String
        let options: ConfigOptions

        func hash(into hasher: inout Hasher) {
            bytes.hashContents(into: &hasher)
            hasher.combine(path)
            hasher.combine(options)
        }
    }

    private struct Kept {
        /// Each kept check, with its place in `order`.
        var checks: [Key: (check: (result: CheckResult, validated: ValidatedConfig?), place: Int)] = [:]
        /// The keys in the order they were kept, as a ring, with whether each was asked for
        /// since the hand last passed it; `hand` is where the search for room starts.
        var order: [(key: Key, used: Bool)] = []
        var hand = 0
        /// How many jobs took a kept check.
        var hits = 0
    }

    /// The most configs kept.
    public let capacity: Int
    /// The largest config kept, in bytes, its name and zone override counted in (both come
    /// from the job, a job's id without a bound of its own); larger ones are checked every
    /// time.
    public let largestConfigBytes: Int
    /// The zone database the configs are checked against; a job asking for another is
    /// checked without the kept configs.
    private let zones: TimeZoneDatabase
    private let kept = Locked(Kept())

    /// Keeps up to `capacity` checked configs of at most `largestConfigBytes` each, checked
    /// against `zones`. By default 32 of up to 8 KiB (W1's config is 2.8 KB); see Service
    /// and batch, "Configs checked once", for the memory they take.
    public init(capacity: Int = 32, largestConfigBytes: Int = 8 << 10, zones: TimeZoneDatabase = .system) {
        self.capacity = max(0, capacity)
        self.largestConfigBytes = largestConfigBytes
        self.zones = zones
    }

    /// How many checked configs are kept.
    var count: Int { kept.withLock { $0.checks.count } }

    /// How many jobs took a kept check.
    var hits: Int { kept.withLock { $0.hits } }

    /// `ReminderCompiler.checkValidated` of the config, kept or made and, when it passed,
    /// kept.
    func checkValidated(
        _ bytes: [UInt8], path: String, options: ConfigOptions, zones: TimeZoneDatabase
    ) -> (result: CheckResult, validated: ValidatedConfig?) {
        let size = bytes.count + path.utf8.count + (options.timeZoneOverride?.utf8.count ?? 0)
        guard capacity > 0, size <= largestConfigBytes, zones.isSame(as: self.zones) else {
            return ReminderCompiler.checkValidated(bytes, path: path, options: options, zones: zones)
        }
        let key = Key(bytes: bytes, path: path, options: options)
        let found = kept.withLock { kept -> (result: CheckResult, validated: ValidatedConfig?)? in
            guard let entry = kept.checks[key] else { return nil }
            kept.order[entry.place].used = true
            kept.hits += 1
            return entry.check
        }
        if let found { return found }
        // Checked outside the lock: other jobs go on meanwhile. Two jobs of one new config
        // at once both check it, and the second finds it kept.
        let check = ReminderCompiler.checkValidated(bytes, path: path, options: options, zones: zones)
        guard check.validated != nil else { return check }
        kept.withLock { kept in
            guard kept.checks[key] == nil else { return }
            if kept.order.count < capacity {
                kept.checks[key] = (check, kept.order.count)
                kept.order.append((key, false))
                return
            }
            // The first not used since the hand last passed it; each one passed over loses
            // its mark, so a full turn at most.
            while kept.order[kept.hand].used {
                kept.order[kept.hand].used = false
                kept.hand = (kept.hand + 1) % capacity
            }
            kept.checks[kept.order[kept.hand].key] = nil
            kept.checks[key] = (check, kept.hand)
            kept.order[kept.hand] = (key, false)
            kept.hand = (kept.hand + 1) % capacity
        }
        return check
    }
}
