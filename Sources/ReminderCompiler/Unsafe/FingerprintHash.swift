/// The fingerprint's hash over bytes: IDs joined on the stack, prepared fields read in
/// place (the invariants of the `Unsafe` folder, in Internals).

extension PlannedNotification {
    /// The fingerprint as a number.
    var fingerprintValue: UInt64 {
        if let fields = unsafe content.fingerprintFields { return unsafe fingerprintValue(fields: fields) }
        return unsafe FingerprintHash.fields(of: content.texts).withUnsafeBufferPointer { unsafe fingerprintValue(fields: $0) }
    }

    /// The fingerprint, given the bytes `FingerprintHash.fields(of:)` makes of the content.
    func fingerprintValue(fields: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let instant = fireAt.seconds
        return unsafe storedID.withBytes(key: content.idKeyBytes) { unsafe FingerprintHash.value(id: $0, instant: instant, fields: fields) }
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
    @inline(__always)
    static func value(id: UnsafeBufferPointer<UInt8>, instant: Int64, fields: UnsafeBufferPointer<UInt8>) -> UInt64 {
        unsafe withDecimalDigits(of: instant) { unsafe value(id: id, instantDigits: $0, fields: fields) }
    }

    /// `value(id:instant:fields:)` with the instant's decimal digits made already.
    @inline(__always)
    static func value(id: UnsafeBufferPointer<UInt8>, instantDigits: UnsafeBufferPointer<UInt8>, fields: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = FingerprintHash()
        unsafe hash.add(field: id)
        unsafe hash.add(field: instantDigits)
        unsafe hash.add(serialized: fields)
        return hash.value
    }

    /// Fields already serialized by `fields(of:)`.
    mutating func add(serialized bytes: UnsafeBufferPointer<UInt8>) {
        var state = value
        for unsafe byte in unsafe bytes {
            state ^= UInt64(byte)
            state = state &* 0x0000_0100_0000_01B3
        }
        value = state
    }

    mutating func add(_ text: String) {
        var native = text
        // Native strings hand out their bytes at once; others are made native first.
        native.withUTF8 { unsafe add(field: $0) }
    }

    /// A number as its decimal text (`String(number)`) would be added.
    mutating func add(decimal number: Int64) {
        unsafe withDecimalDigits(of: number) { unsafe add(field: $0) }
    }

    /// A present field: a 1 byte, its length, its bytes.
    mutating func add(field bytes: UnsafeBufferPointer<UInt8>) {
        add(byte: 1)
        add(length: UInt64(bytes.count))
        unsafe add(serialized: bytes)
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

    /// The sixteen lowercase hex digits of `value`.
    static func hexDigits(of value: UInt64) -> String {
        unsafe String(unsafeUninitializedCapacity: 16) { buffer in
            unsafe putHexDigits(of: value, at: buffer.baseAddress!)
            return 16
        }
    }

    /// Writes the sixteen lowercase hex digits of `value` at `destination`: two digits a
    /// byte, copied from a table, instead of one digit a step with a choice between digit
    /// and letter: 38 instructions a fingerprint instead of 69 (W2's plan writes 70 338).
    static func putHexDigits(of value: UInt64, at destination: UnsafeMutablePointer<UInt8>) {
        let pairs = unsafe hexPairs.utf8Start
        for index in 0..<8 {
            let byte = Int(truncatingIfNeeded: value >> UInt64(56 - 8 * index)) & 0xFF
            unsafe destination[2 * index] = pairs[2 * byte]
            unsafe destination[2 * index + 1] = pairs[2 * byte + 1]
        }
    }

    /// The two lowercase hex digits of each byte 0–255, in order, in static memory.
    private static let hexPairs: StaticString = """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
        202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
        404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
        808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f\
        a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\
        e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """
}

/// The decimal digits of the instant hashed last, kept for the next fingerprint: a plan's
/// notifications mostly share their instant with the one before (W2's 70 338 come in
/// 2 539 runs), and making the digits was half the cost of hashing an instant.
struct RepeatedInstantDigits {
    private var instant: Int64?
    private var count = 0
    /// At most 20 bytes: 19 digits and a sign (`Int64.min`); 24 are kept.
    private var bytes: (UInt64, UInt64, UInt64) = (0, 0, 0)

    /// Calls `body` with the digits of `instant` (`withDecimalDigits(of:_:)`), made only when
    /// the instant differs from the last one asked for.
    @inline(__always)
    mutating func withDigits<Result>(of instant: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if self.instant != instant {
            unsafe withDecimalDigits(of: instant) { digits in
                self.count = digits.count
                unsafe withUnsafeMutableBytes(of: &self.bytes) { unsafe $0.copyMemory(from: UnsafeRawBufferPointer(digits)) }
            }
            self.instant = instant
        }
        let length = count
        return unsafe withUnsafeBytes(of: &bytes) { raw in
            unsafe body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length))
        }
    }
}
