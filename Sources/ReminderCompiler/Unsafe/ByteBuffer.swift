/// A growable buffer of output bytes, written through a pointer.
///
/// The plan JSON and the calendar are written a few bytes at a time, tens of millions of
/// times for a year of notifications; an array checks uniqueness and capacity on every
/// append, which dominated the writers' profile. A class, so that the writers holding it
/// never copy it.
@safe final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written since the last `removeAll`.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        unsafe base = .allocate(capacity: self.capacity)
    }

    deinit {
        unsafe base.deallocate()
    }

    /// The bytes written, copied into an array.
    var bytes: [UInt8] { unsafe Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written, as UTF-8 text.
    var text: String { unsafe String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// Calls `body` with the bytes written, in place: how a writer hands a chunk over
    /// without copying it.
    func withSpan<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try unsafe body(UnsafeBufferPointer(start: base, count: count).span)
    }

    /// Calls `body` with the bytes written from `offset` on, in place.
    func withBytes<Result>(from offset: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        unsafe try body(UnsafeBufferPointer(start: base + offset, count: count - offset))
    }

    /// Forgets the bytes written, keeping the memory.
    func removeAll() {
        count = 0
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toAtLeast: count + extra) }
    }

    @inline(never)
    private func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        unsafe newBase.update(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = unsafe newBase
        capacity = newCapacity
    }

    /// Lets `body` write at most `maximum` bytes straight into the buffer; `body` returns
    /// how many it wrote.
    @inline(__always)
    func append(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        unsafe count += body(base + count)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        unsafe base[count] = byte
        count += 1
    }

    /// Appends two bytes, such as a CRLF.
    @inline(__always)
    func append(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        unsafe base[count] = first
        unsafe base[count + 1] = second
        count += 2
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        reserve(length)
        if (8...64).contains(length) {
            // Keys, IDs, dates and calendar lines: copied in blocks whose last overlaps the
            // one before, every block loaded before any is stored, which costs less than a
            // call to memcpy or a loop of words: W2 with both outputs 422.3 M → 419.5 M, its
            // plan JSON alone 343.3 M → 341.2 M.
            let from = unsafe UnsafeRawPointer(source)
            let to = unsafe UnsafeMutableRawPointer(base + count)
            if length < 16 {
                let head = unsafe from.loadUnaligned(as: UInt64.self)
                let tail = unsafe from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                unsafe to.storeBytes(of: head, as: UInt64.self)
                unsafe to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
            } else if length <= 32 {
                let head = unsafe from.loadUnaligned(as: SIMD16<UInt8>.self)
                let tail = unsafe from.loadUnaligned(fromByteOffset: length - 16, as: SIMD16<UInt8>.self)
                unsafe to.storeBytes(of: head, as: SIMD16<UInt8>.self)
                unsafe to.storeBytes(of: tail, toByteOffset: length - 16, as: SIMD16<UInt8>.self)
            } else {
                let first = unsafe from.loadUnaligned(as: SIMD16<UInt8>.self)
                let second = unsafe from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                let third = unsafe from.loadUnaligned(fromByteOffset: length - 32, as: SIMD16<UInt8>.self)
                let fourth = unsafe from.loadUnaligned(fromByteOffset: length - 16, as: SIMD16<UInt8>.self)
                unsafe to.storeBytes(of: first, as: SIMD16<UInt8>.self)
                unsafe to.storeBytes(of: second, toByteOffset: 16, as: SIMD16<UInt8>.self)
                unsafe to.storeBytes(of: third, toByteOffset: length - 32, as: SIMD16<UInt8>.self)
                unsafe to.storeBytes(of: fourth, toByteOffset: length - 16, as: SIMD16<UInt8>.self)
            }
        } else if length < 8 {
            // Newlines with their indentation, short keys and values: two 4-byte blocks
            // overlapping from 4 bytes, else byte by byte, instead of a call to memmove
            // (W2's plan JSON wrote a newline and indentation of 5 bytes before and after
            // each of its 70 338 notifications when this was measured).
            let from = unsafe UnsafeRawPointer(source)
            let to = unsafe UnsafeMutableRawPointer(base + count)
            if length >= 4 {
                let head = unsafe from.loadUnaligned(as: UInt32.self)
                let tail = unsafe from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                unsafe to.storeBytes(of: head, as: UInt32.self)
                unsafe to.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
            } else {
                for offset in 0..<length { unsafe to.storeBytes(of: from.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self) }
            }
        } else {
            unsafe (base + count).update(from: source, count: length)
        }
        count += length
    }

    @inline(__always)
    func append(_ text: StaticString) {
        text.withUTF8Buffer { unsafe append($0) }
    }

    func append(_ text: String) {
        let copied: Void? = unsafe text.utf8.withContiguousStorageIfAvailable { unsafe append($0) }
        if copied == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Appends `value` in decimal, zero-padded to `width` digits (after a `-` when negative).
    func appendDecimal(_ value: Int, width: Int) {
        guard value >= 0 else {
            append(UInt8(ascii: "-"))
            // Int.min has no positive counterpart; its digits are those of its magnitude.
            appendDecimal(magnitude: value.magnitude, width: width)
            return
        }
        appendDecimal(magnitude: UInt(value), width: width)
    }

    private func appendDecimal(magnitude value: UInt, width: Int) {
        // Months, days, hours and minutes: two digits; sequences: one. Written without counting.
        if width <= 2 && value < 100 {
            if width == 1 && value < 10 {
                append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            } else {
                append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10), UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
            }
            return
        }
        let length = max(width, decimalDigitCount(of: value))
        reserve(length)
        unsafe putDecimalDigits(of: value, count: length, at: base + count)
        count += length
    }
}

/// How many decimal digits `value` has (1 for 0).
@inline(__always)
func decimalDigitCount(of value: UInt) -> Int {
    var digits = 1
    var limit: UInt = 10
    // Twenty digits at most: ten to the twentieth is beyond UInt.
    while value >= limit && digits < 20 {
        digits += 1
        limit &*= 10
    }
    return digits
}

/// Writes the lowest `count` decimal digits of `value` at `destination`, zero-padded on the
/// left: two at a time, from a table of the hundred pairs.
@inline(__always)
func putDecimalDigits(of value: UInt, count: Int, at destination: UnsafeMutablePointer<UInt8>) {
    var rest = value
    var position = count - 1
    decimalDigitPairs.withUTF8Buffer { pairs in
        while rest >= 100 && position >= 1 {
            let pair = Int(rest % 100) * 2
            rest /= 100
            unsafe destination[position] = unsafe pairs[pair + 1]
            unsafe destination[position - 1] = unsafe pairs[pair]
            position -= 2
        }
    }
    while position >= 0 {
        unsafe destination[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        position -= 1
    }
}

/// Writes `value` in decimal at `destination`, after a `-` when it is negative, and
/// returns how many bytes it wrote (at most 20): the bytes of `String(value)`.
@inline(__always)
func putDecimal(_ value: Int, at destination: UnsafeMutablePointer<UInt8>) -> Int {
    let sign = value < 0 ? 1 : 0
    if sign == 1 { unsafe destination[0] = UInt8(ascii: "-") }
    // Int.min has no positive counterpart; its digits are those of its magnitude.
    let digits = decimalDigitCount(of: value.magnitude)
    unsafe putDecimalDigits(of: value.magnitude, count: digits, at: destination + sign)
    return sign + digits
}

/// Copies `text` to `destination` and returns its length: a literal whose length the
/// compiler knows, so the copy is a few moves.
@inline(__always)
func putLiteral(_ text: StaticString, at destination: UnsafeMutablePointer<UInt8>) -> Int {
    unsafe destination.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return text.utf8CodeUnitCount
}

private let decimalDigitPairs: StaticString = """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
    """

/// Finds the end of a run of bytes that need no escape, eight bytes at a time: most text
/// written is plain, and a word-wide test costs about what one byte's test does.
enum PlainRun {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is below `bound` (at most 128). The test never misses
    /// and never reports a byte that is not there; which byte it is, it does not say.
    @inline(__always)
    static func hasByte(in word: UInt64, below bound: UInt8) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highBits != 0
    }

    /// Whether some byte of `word` equals `byte`.
    @inline(__always)
    static func hasByte(in word: UInt64, equalTo byte: UInt8) -> Bool {
        hasByte(in: word ^ (ones &* UInt64(byte)), below: 1)
    }

    /// The first index in `start..<limit` whose byte `isSpecial` says needs escaping, or
    /// `limit`. `wordHasSpecial` must be true for every word holding such a byte.
    @inline(__always)
    static func end(
        of utf8: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
        wordHasSpecial: (UInt64) -> Bool, isSpecial: (UInt8) -> Bool
    ) -> Int {
        var end = start
        if let base = utf8.baseAddress {
            let raw = unsafe UnsafeRawPointer(base)
            while end + 8 <= limit, unsafe !wordHasSpecial(raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)) {
                end += 8
            }
        }
        while end < limit, unsafe !isSpecial(utf8[end]) { end += 1 }
        return end
    }
}

/// Writes `value` (0–99) as two decimal digits at `destination`.
@inline(__always)
func putDigitPair(_ value: Int, at destination: UnsafeMutablePointer<UInt8>) {
    let pair = UInt8(truncatingIfNeeded: value)
    unsafe destination[0] = UInt8(ascii: "0") &+ pair / 10
    unsafe destination[1] = UInt8(ascii: "0") &+ pair % 10
}

/// Writes `value` (≥ 0) as exactly `width` decimal digits at `destination`, keeping the
/// lowest digits of a longer number.
@inline(__always)
func putDigits(_ value: Int, width: Int, at destination: UnsafeMutablePointer<UInt8>) {
    var rest = value
    var position = width - 1
    while position >= 0 {
        unsafe destination[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        position -= 1
    }
}

/// Calls `body` with the decimal digits of `number`, after a `-` when it is negative: the
/// bytes of `String(number)`, without making the string. The digits are written from the
/// end two at a time, from the table of pairs, and the function is inlined (positions
/// below 20 need no overflow checks): every fingerprint hashes its instant's ten digits,
/// which one at a time cost W2 9.8 M instructions.
@inline(__always)
func withDecimalDigits<Result>(of number: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var rest = number.magnitude
        var start = 20
        decimalDigitPairs.withUTF8Buffer { pairs in
            while rest >= 100 {
                let pair = Int(truncatingIfNeeded: rest % 100) &* 2
                rest /= 100
                start &-= 2
                unsafe digits[start] = unsafe pairs[pair]
                unsafe digits[start &+ 1] = unsafe pairs[pair &+ 1]
            }
            if rest >= 10 {
                let pair = Int(truncatingIfNeeded: rest) &* 2
                start &-= 2
                unsafe digits[start] = unsafe pairs[pair]
                unsafe digits[start &+ 1] = unsafe pairs[pair &+ 1]
            } else {
                start &-= 1
                unsafe digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
        }
        if number < 0 {
            start &-= 1
            unsafe digits[start] = UInt8(ascii: "-")
        }
        return unsafe body(UnsafeBufferPointer(rebasing: digits[start...]))
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of a chunk a writer handed over, in one copy.
    mutating func append(span: Span<UInt8>) {
        unsafe span.withUnsafeBufferPointer { unsafe append(contentsOf: $0) }
    }
}
