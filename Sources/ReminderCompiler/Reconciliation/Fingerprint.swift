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
        var hash = FingerprintHash()
        hash.add(id)
        hash.add(String(fireAt.seconds))
        hash.add(title)
        hash.add(body)
        hash.add(category)
        hash.add(interruptionLevel.rawValue)
        hash.add(sound)
        hash.add(threadID)
        // Written for every notification of every plan: sorting only when there is order to keep.
        if userInfo.count == 1, let (key, value) = userInfo.first {
            hash.add(key)
            hash.add(value)
        } else if userInfo.count > 1 {
            for (key, value) in userInfo.sorted(by: { $0.key < $1.key }) {
                hash.add(key)
                hash.add(value)
            }
        }
        return hash.hexDigits
    }
}

/// 64-bit FNV-1a over length-prefixed fields, so that no two different field lists give
/// the same bytes ("ab" + "c" differs from "a" + "bc"; an absent field from an empty one).
struct FingerprintHash {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325

    private mutating func add(byte: UInt8) {
        state ^= UInt64(byte)
        state = state &* 0x0000_0100_0000_01B3
    }

    private mutating func add(length: Int) {
        var value = UInt64(length)
        for _ in 0..<8 {
            add(byte: UInt8(value & 0xFF))
            value >>= 8
        }
    }

    mutating func add(_ text: String?) {
        guard let text else {
            add(byte: 0)
            return
        }
        add(byte: 1)
        var native = text
        // Native strings hand out their bytes at once; others are made native first.
        native.withUTF8 { bytes in
            add(length: bytes.count)
            for byte in bytes { add(byte: byte) }
        }
    }

    var hexDigits: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: state >> UInt64(60 - 4 * index)) & 0xF
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }
}
