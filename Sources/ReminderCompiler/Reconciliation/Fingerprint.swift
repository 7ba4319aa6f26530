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
        let value = fingerprintValue
        return String(unsafeUninitializedCapacity: 16) { buffer in
            FingerprintHash.putHexDigits(of: value, at: buffer.baseAddress!)
            return 16
        }
    }

    /// The fingerprint as a number.
    var fingerprintValue: UInt64 {
        if let prepared = content.prepared { return fingerprintValue(fields: prepared.parts.fingerprintFields) }
        return FingerprintHash.fields(of: content.texts).withUnsafeBufferPointer { fingerprintValue(fields: $0) }
    }

    /// The fingerprint, given the bytes `FingerprintHash.fields(of:)` makes of the content.
    func fingerprintValue(fields: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let instant = fireAt.seconds
        return withIDBytes { FingerprintHash.value(id: $0, instant: instant, fields: fields) }
    }
}

/// 64-bit FNV-1a over length-prefixed fields, so that no two different field lists give
/// the same bytes ("ab" + "c" differs from "a" + "bc"; an absent field from an empty one).
struct FingerprintHash {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    private static let prime: UInt64 = 0x0000_0100_0000_01B3
    /// The prime to the eighth power: hashing a byte under 256 and seven 0 bytes, the
    /// eight bytes of a short length, is one xor and this product, since `x ^ 0 == x`.
    private static let primeToTheEighth: UInt64 = 0x1EFA_C709_0AEF_4A21

    private mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* Self.prime
    }

    /// The fingerprint of a notification with this ID and fire instant, given the bytes
    /// `fields(of:)` makes of its content.
    static func value(id: UnsafeBufferPointer<UInt8>, instant: Int64, fields: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = FingerprintHash()
        hash.add(field: id)
        hash.add(decimal: instant)
        hash.add(serialized: fields)
        return hash.value
    }

    /// Fields already serialized by `fields(of:)`.
    mutating func add(serialized bytes: UnsafeBufferPointer<UInt8>) {
        var state = value
        for byte in bytes {
            state ^= UInt64(byte)
            state = state &* 0x0000_0100_0000_01B3
        }
        value = state
    }

    mutating func add(_ text: String) {
        var native = text
        // Native strings hand out their bytes at once; others are made native first.
        native.withUTF8 { add(field: $0) }
    }

    /// A number as its decimal text (`String(number)`) would be added.
    mutating func add(decimal number: Int64) {
        withDecimalDigits(of: number) { add(field: $0) }
    }

    /// A present field: a 1 byte, its length, its bytes.
    mutating func add(field bytes: UnsafeBufferPointer<UInt8>) {
        add(byte: 1)
        add(length: UInt64(bytes.count))
        add(serialized: bytes)
    }

    private mutating func add(length: UInt64) {
        var rest = length
        guard rest >= 256 else {
            value = (value ^ rest) &* Self.primeToTheEighth
            return
        }
        for _ in 0..<8 {
            add(byte: UInt8(rest & 0xFF))
            rest >>= 8
        }
    }

    /// The fields of a notification's content that its fingerprint hashes, in order, each
    /// absent one as a 0 byte and each present one as a 1 byte, its length (eight bytes,
    /// least significant first) and its UTF-8 bytes.
    static func fields(of texts: NotificationTexts) -> [UInt8] {
        var bytes: [UInt8] = []
        func add(_ text: String?) {
            guard let text else {
                bytes.append(0)
                return
            }
            bytes.append(1)
            var length = UInt64(text.utf8.count)
            for _ in 0..<8 {
                bytes.append(UInt8(length & 0xFF))
                length >>= 8
            }
            bytes += text.utf8
        }
        add(texts.title)
        add(texts.body)
        add(texts.category)
        add(texts.interruptionLevel.rawValue)
        add(texts.sound)
        add(texts.threadID)
        for (key, value) in texts.userInfo.sorted(by: { $0.key < $1.key }) {
            add(key)
            add(value)
        }
        return bytes
    }

    /// Writes the sixteen lowercase hex digits of `value` at `destination`.
    static func putHexDigits(of value: UInt64, at destination: UnsafeMutablePointer<UInt8>) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
            destination[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }
}
