extension PlannedNotification {
    /// A short stable hash of everything the OS shows or fires on: the ID, the fire
    /// instant, title, body, category, interruption level, sound, thread and user info.
    ///
    /// The contract: store it in the OS notification's user info under `fingerprint` when
    /// scheduling. A pending notification whose stored fingerprint equals the plan's shows
    /// and fires exactly as the plan says; any other value means it is stale (a group kept
    /// its ID while its text changed, a time moved) and must be replaced. Sixteen lowercase
    /// hex digits (64-bit FNV-1a); the same notification gives the same fingerprint on
    /// every platform and in every release of plan `formatVersion` 1.
    public var fingerprint: String {
        FingerprintHash.hexDigits(of: fingerprintValue)
    }
}
