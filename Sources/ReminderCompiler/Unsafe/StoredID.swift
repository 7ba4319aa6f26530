/// A notification ID as a plan keeps it: as text, or as the parts the planner makes it of
/// — its notifications' key (`NotificationContent.idKey`) and what follows the key. Parts
/// are joined where they are read, on the stack: a year of notifications makes no ID
/// strings on its way to the files.
enum StoredID: Sendable {
    case text(String)
    case occurrence(OccurrenceTail)

    /// The ID as text, given the key an `occurrence` starts with.
    func text(key: UnsafeBufferPointer<UInt8>) -> String {
        switch self {
        case .text(let text): return text
        case .occurrence: return unsafe withBytes(key: key) { unsafe String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Calls `body` with the ID's UTF-8 bytes: a text's own, or an occurrence's joined on
    /// the stack.
    func withBytes<Result>(key: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .text(var text):
            // Native strings hand out their bytes at once; others are made native first.
            return text.withUTF8(body)
        case .occurrence(let tail):
            return unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: key.count + OccurrenceTail.maximumLength) { buffer in
                let start = buffer.baseAddress!
                return unsafe body(UnsafeBufferPointer(start: start, count: tail.write(after: key, at: start)))
            }
        }
    }

    /// The ID as text, its key being `content`'s.
    func text(in content: NotificationContent) -> String {
        unsafe text(key: content.idKeyBytes)
    }

    /// The ID as text, given its key as a string.
    func text(keyText key: String) -> String {
        unsafe withBytes(key: key) { unsafe String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the ID's UTF-8 bytes, its key being `content`'s.
    func withSpan<Result>(in content: NotificationContent, _ body: (Span<UInt8>) -> Result) -> Result {
        unsafe withBytes(key: content.idKeyBytes) { unsafe body($0.span) }
    }

    /// Calls `body` with the ID's UTF-8 bytes, given its key as a string.
    func withSpan<Result>(key: String, _ body: (Span<UInt8>) -> Result) -> Result {
        unsafe withBytes(key: key) { unsafe body($0.span) }
    }

    /// The ID's `numericId`, its key being `content`'s: the key's share of the hash was
    /// taken once, with the content, for an occurrence.
    func numericID(in content: NotificationContent) -> UInt32 {
        if case .occurrence(let tail) = self, let keyHash = content.idKeyHash {
            return unsafe tail.withBytes { unsafe NotificationID.numericID(ofBytes: $0.span, continuing: keyHash) }
        }
        return withSpan(in: content) { NotificationID.numericID(ofBytes: $0) }
    }

    /// `withBytes` with the key as a string.
    func withBytes<Result>(key: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var key = key
        return key.withUTF8 { unsafe withBytes(key: $0, body) }
    }
}

/// What follows the key in an occurrence's ID (Planning rules, "Stable IDs"):
/// `-{yyyyMMdd}-{HHmm}`, then `-followup` for chain member 1 and `-followup-{n}` for the
/// later ones. The slot's digits are written once, when the notification is made, and
/// copied as two words.
struct OccurrenceTail: Sendable {
    /// `-yyyyMMdd-HHmm` and two spare bytes, as stored in memory.
    private let slotBytes: (UInt64, UInt64)
    /// The member of the follow-up chain; 0 for the occurrence itself.
    let followUp: Int

    /// The longest tail: the slot's 14 bytes and the two spare ones, `-followup-` and
    /// the digits and sign of any `Int`.
    static let maximumLength = 16 + 10 + 21

    init(slot: LocalDateTime, followUp: Int) {
        self.init(dateBytes: Self.dateBytes(of: slot.date), time: slot.time, followUp: followUp)
    }

    /// A tail from `dateBytes(of:)` of the slot's date, which a day's notifications share.
    init(dateBytes: (UInt64, UInt64), time: LocalTime, followUp: Int) {
        var bytes = dateBytes
        unsafe withUnsafeMutableBytes(of: &bytes) { raw in
            let digits = unsafe raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            unsafe putDigitPair(time.hour, at: digits + 10)
            unsafe putDigitPair(time.minute, at: digits + 12)
        }
        slotBytes = bytes
        self.followUp = followUp
    }

    /// `-yyyyMMdd-` of a date, as the first bytes of a tail's `slotBytes`.
    static func dateBytes(of date: CivilDate) -> (UInt64, UInt64) {
        var bytes: (UInt64, UInt64) = (0, 0)
        unsafe withUnsafeMutableBytes(of: &bytes) { raw in
            let digits = unsafe raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            // A year beyond 9999 keeps its last four digits.
            let (year, month, day) = date.components
            unsafe digits[0] = UInt8(ascii: "-")
            unsafe putDigitPair(year / 100 % 100, at: digits + 1)
            unsafe putDigitPair(year % 100, at: digits + 3)
            unsafe putDigitPair(month, at: digits + 5)
            unsafe putDigitPair(day, at: digits + 7)
            unsafe digits[9] = UInt8(ascii: "-")
        }
        return bytes
    }

    /// Calls `body` with the tail's bytes, written on the stack.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumLength) { buffer in
            unsafe body(UnsafeBufferPointer(start: buffer.baseAddress!, count: write(at: buffer.baseAddress!)))
        }
    }

    /// Writes the ID `key` and this tail make at `destination`, which has room for the key
    /// and `maximumLength` bytes; returns its length.
    func write(after key: UnsafeBufferPointer<UInt8>, at destination: UnsafeMutablePointer<UInt8>) -> Int {
        if let keyStart = key.baseAddress { unsafe destination.update(from: keyStart, count: key.count) }
        return unsafe key.count + write(at: destination + key.count)
    }

    /// How many bytes `write(at:)` writes: known before writing, so that a calendar can
    /// tell whether a UID line fits unfolded.
    var length: Int {
        switch followUp {
        case 0: 14
        case 1: 23
        // `-followup-` and the number as `withDecimalDigits` writes it.
        default: 24 + (followUp < 0 ? 1 : 0) + decimalDigitCount(of: followUp.magnitude)
        }
    }

    /// Writes the tail at `destination`, which has room for `maximumLength` bytes; returns
    /// its length.
    func write(at destination: UnsafeMutablePointer<UInt8>) -> Int {
        unsafe UnsafeMutableRawPointer(destination).storeBytes(of: slotBytes.0, as: UInt64.self)
        unsafe UnsafeMutableRawPointer(destination + 8).storeBytes(of: slotBytes.1, as: UInt64.self)
        var count = 14
        guard followUp != 0 else { return count }
        let suffix: StaticString = "-followup"
        unsafe (destination + count).update(from: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        count += suffix.utf8CodeUnitCount
        guard followUp != 1 else { return count }
        unsafe destination[count] = UInt8(ascii: "-")
        count += 1
        unsafe withDecimalDigits(of: Int64(followUp)) { digits in
            unsafe (destination + count).update(from: digits.baseAddress!, count: digits.count)
            count += digits.count
        }
        return count
    }
}

extension NotificationContent {
    /// `idKey`'s bytes (empty without it): valid while this content lives, as long as the
    /// notifications holding it.
    var idKeyBytes: UnsafeBufferPointer<UInt8> {
        unsafe identity?.idKey ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// `FingerprintHash.fields(of:)` of the texts, when written ahead (`identity`): valid
    /// while this content lives.
    var fingerprintFields: UnsafeBufferPointer<UInt8>? {
        unsafe identity?.fingerprintFields
    }
}

/// A planner-made content's ID key and fingerprint fields, at one address for the object's
/// life, read through pointers made once: looked up part by part for every notification
/// written, they cost a W2 plan four million instructions.
@safe final class ContentIdentity: @unchecked Sendable {
    private let bytes: PackedBytes
    /// The key that IDs kept as parts start with, in place: valid while this object lives.
    let idKey: UnsafeBufferPointer<UInt8>
    /// The bytes the fingerprint hashes after the ID and the instant, in place.
    let fingerprintFields: UnsafeBufferPointer<UInt8>

    init(idKey: String, fingerprintFields: [UInt8]) {
        bytes = PackedBytes([Array(idKey.utf8), fingerprintFields])
        unsafe self.idKey = bytes.part(0)
        unsafe self.fingerprintFields = bytes.part(1)
    }
}
