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

extension FingerprintHash {
    /// The value whose `hexDigits` are `text`: sixteen lowercase hex digits, else nil (any
    /// other text is no fingerprint remindc wrote, and matches none). Comparing values
    /// spares making the plan's digits as a string for each pending notification.
    static func value(ofHexDigits text: String) -> UInt64? {
        var text = text
        text.makeContiguousUTF8()
        let bytes = text.utf8.span
        guard bytes.count == 16 else { return nil }
        var value: UInt64 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
