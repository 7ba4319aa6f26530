/// A small JSON emitter with remindc's layout: 2-space indentation, objects and arrays of
/// objects one entry per line, arrays of strings on one line (`["a", "b"]`), empty
/// containers as `{}` and `[]`. Writes UTF-8 bytes directly; no reflection, no encoder.
struct JSONWriter {
    private let buffer: ByteBuffer
    private var indentation = 0
    /// Bit n: whether the container open at depth n already holds an entry. Plans nest
    /// four levels deep; 64 is far more than any output needs.
    private var hasEntry: UInt64 = 0
    /// The instant and the slot written last, with their bytes: notifications in a row
    /// mostly share both.
    private var lastInstant = RepeatedText()
    /// The digits of the instant the last notification's fingerprint hashed.
    var lastFingerprintInstant = RepeatedInstantDigits()
    private var lastSlot = RepeatedText()
    /// A newline and enough spaces for 32 levels of indentation, in static memory so that
    /// writing it touches no reference count.
    private static let newlineAndSpaces: StaticString = "\n                                                                "

    init(reservingCapacity capacity: Int = 0) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// A writer for fields written ahead of time (`PreparedContent`): as though inside
    /// containers `depth` deep whose innermost already holds an entry.
    init(fragmentAtDepth depth: Int) {
        buffer = ByteBuffer()
        indentation = depth
        hasEntry = currentBit
    }

    /// How many containers are open.
    var depth: Int { indentation }

    /// Appends fields written ahead by a writer made with `init(fragmentAtDepth:)` at this
    /// writer's depth, after this container's first entry.
    mutating func appendFragment(_ bytes: UnsafeBufferPointer<UInt8>) {
        unsafe buffer.append(bytes)
    }

    /// Appends a key written out in full by the caller, its comma, newline and indentation
    /// included (`,\n      "kind": `), as an entry of the current container: for layouts
    /// written millions of times at one known depth.
    mutating func literalKey(_ text: StaticString) {
        hasEntry |= currentBit
        buffer.append(text)
    }

    /// Opens an object as the next element of the current array and writes its first key,
    /// in one literal written out in full for this depth: `first` for the array's first
    /// element (a newline, indentation, `{` and the key with its own newline and
    /// indentation), `later` for the others (the same after a comma). For the objects of a
    /// plan's notifications, tens of thousands of them.
    mutating func openObjectElement(withFirstKey first: StaticString, orAfterAnother later: StaticString) {
        let isLater = hasEntry & currentBit != 0
        hasEntry |= currentBit
        buffer.append(isLater ? later : first)
        indentation += 1
        hasEntry |= currentBit
    }

    /// Closes an object that holds entries with `literal`, its newline and indentation
    /// written out in full for this depth.
    mutating func closeObject(literal: StaticString) {
        hasEntry &= ~currentBit
        indentation -= 1
        buffer.append(literal)
    }

    /// Lets `body` write at most `maximum` bytes in place, keys written out in full included,
    /// as entries of the current container; `body` returns how many it wrote. For the last
    /// fields of a plan's notification, which are written tens of thousands of times.
    mutating func literalFields(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        hasEntry |= currentBit
        unsafe buffer.append(atMost: maximum, body)
    }

    /// The bytes written since the last flush.
    var bytes: [UInt8] { buffer.bytes }

    /// How many bytes were written since the last flush.
    var byteCount: Int { buffer.count }

    /// Hands the bytes written so far to `sink` and starts an empty buffer, keeping its
    /// capacity: long outputs are written in chunks instead of held whole in memory.
    mutating func flush(to sink: (Span<UInt8>) throws -> Void) rethrows {
        try buffer.withSpan(sink)
        buffer.removeAll()
    }

    mutating func append(_ text: String) {
        buffer.append(text)
    }

    private mutating func newline() {
        let length = 1 + min(indentation * 2, 64)
        Self.newlineAndSpaces.withUTF8Buffer { unsafe buffer.append(UnsafeBufferPointer(rebasing: $0[..<length])) }
    }

    // Inlined: a call would copy the whole writer, its remembered texts included.
    @inline(__always)
    private var currentBit: UInt64 { indentation > 0 ? 1 << UInt64(indentation - 1) : 0 }

    /// Starts an entry of the current container: a comma after the previous one, a newline.
    private mutating func beginEntry() {
        if hasEntry & currentBit != 0 { buffer.append(UInt8(ascii: ",")) }
        hasEntry |= currentBit
        newline()
    }

    private mutating func open(_ bracket: UInt8) {
        buffer.append(bracket)
        indentation += 1
        hasEntry &= ~currentBit
    }

    private mutating func close(_ bracket: UInt8) {
        let hadEntries = hasEntry & currentBit != 0
        hasEntry &= ~currentBit
        indentation -= 1
        if hadEntries { newline() }
        buffer.append(bracket)
    }

    private mutating func key(_ name: String) {
        beginEntry()
        string(name)
        buffer.append(UInt8(ascii: ":"), UInt8(ascii: " "))
    }

    /// A fixed field name of remindc's own: ASCII that needs no escaping. Written in one
    /// piece, comma, newline and indentation included: plans have millions of keys.
    private mutating func key(_ name: StaticString) {
        let comma = hasEntry & currentBit != 0
        hasEntry |= currentBit
        let spaces = min(indentation * 2, 64)
        let nameLength = name.utf8CodeUnitCount
        unsafe buffer.append(atMost: 1 + 1 + spaces + nameLength + 4) { destination in
            var position = 0
            if comma {
                unsafe destination[0] = UInt8(ascii: ",")
                position = 1
            }
            unsafe destination[position] = UInt8(ascii: "\n")
            unsafe (destination + position + 1).initialize(repeating: UInt8(ascii: " "), count: spaces)
            position += 1 + spaces
            unsafe destination[position] = UInt8(ascii: "\"")
            unsafe (destination + position + 1).update(from: name.utf8Start, count: nameLength)
            position += 1 + nameLength
            unsafe destination[position] = UInt8(ascii: "\"")
            unsafe destination[position + 1] = UInt8(ascii: ":")
            unsafe destination[position + 2] = UInt8(ascii: " ")
            return position + 3
        }
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts an array element that is an object or array.
    mutating func element() {
        beginEntry()
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// A field whose name comes from the input (a `userInfo` key), escaped as needed.
    mutating func field(named name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        number(value)
    }

    /// A number, after a key written by the caller.
    mutating func number(_ value: Int) {
        buffer.appendDecimal(value, width: 1)
    }

    /// A number field whose name comes from the input (a series ID).
    mutating func field(named name: String, _ value: Int) {
        key(name)
        buffer.appendDecimal(value, width: 1)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    /// An array of strings on one line.
    mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        strings(values)
    }

    /// An array of strings on one line, after a key written by the caller.
    mutating func strings(_ values: [String]) {
        buffer.append(UInt8(ascii: "["))
        for index in values.indices {
            if index > 0 { buffer.append(UInt8(ascii: ","), UInt8(ascii: " ")) }
            string(values[index])
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Starts a field whose value the caller writes (an object or an array of objects).
    mutating func fieldName(_ name: StaticString) {
        key(name)
    }

    /// Starts a field named by input (a category id) whose value the caller writes.
    mutating func fieldName(named name: String) {
        key(name)
    }

    /// A quoted JSON string: `"` and `\` escaped, control characters as escapes, all other
    /// text as UTF-8.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { unsafe string(utf8: $0) }
    }

    /// `string` of UTF-8 bytes.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        // Most texts need no escape: copy them whole.
        let plainEnd = unsafe PlainRun.end(of: utf8, from: 0, limit: utf8.count, wordHasSpecial: { word in
            PlainRun.hasByte(in: word, below: 0x20) || PlainRun.hasByte(in: word, equalTo: UInt8(ascii: "\""))
                || PlainRun.hasByte(in: word, equalTo: UInt8(ascii: "\\"))
        }, isSpecial: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
        if plainEnd == utf8.count {
            unsafe buffer.append(utf8)
        } else {
            for unsafe byte in unsafe utf8 {
                switch byte {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
                case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "t"))
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    buffer.append("\\u00" as StaticString)
                    unsafe buffer.append(hex.utf8Start[Int(byte >> 4)])
                    unsafe buffer.append(hex.utf8Start[Int(byte & 0xF)])
                default:
                    buffer.append(byte)
                }
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// A field holding a 64-bit value as sixteen lowercase hex digits in quotes.
    mutating func field(hexDigitsOf value: UInt64, named name: StaticString) {
        key(name)
        hexDigits(of: value)
    }

    /// A 64-bit value as sixteen lowercase hex digits in quotes, after a key written by the
    /// caller.
    mutating func hexDigits(of value: UInt64) {
        unsafe buffer.append(atMost: 18) { destination in
            unsafe destination[0] = UInt8(ascii: "\"")
            unsafe FingerprintHash.putHexDigits(of: value, at: destination + 1)
            unsafe destination[17] = UInt8(ascii: "\"")
            return 18
        }
    }

    /// A field holding an RFC 3339 instant, written without intermediate strings.
    mutating func field(_ name: StaticString, _ instant: ZonedInstant) {
        key(name)
        instantValue(instant)
    }

    /// An RFC 3339 instant in quotes, after a key written by the caller.
    mutating func instantValue(_ instant: ZonedInstant) {
        lastInstant.append((instant.seconds, Int64(instant.offsetSeconds)), to: buffer) { buffer in
            buffer.append(UInt8(ascii: "\""))
            instant.appendRFC3339(to: buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// A field holding a local slot `YYYY-MM-DDTHH:MM`.
    mutating func field(_ name: StaticString, _ slot: LocalDateTime) {
        key(name)
        slotValue(slot)
    }

    /// A local slot in quotes, after a key written by the caller.
    mutating func slotValue(_ slot: LocalDateTime) {
        lastSlot.append((Int64(slot.date.dayNumber), Int64(slot.time.minuteOfDay)), to: buffer) { buffer in
            buffer.append(UInt8(ascii: "\""))
            slot.appendISO8601(to: buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }
}

extension LocalDateTime {
    /// Appends `YYYY-MM-DDTHH:MM`.
    func appendISO8601(to bytes: ByteBuffer) {
        date.appendISO8601(to: bytes)
        unsafe bytes.append(atMost: 6) { destination in
            unsafe destination[0] = UInt8(ascii: "T")
            unsafe putDigits(time.hour, width: 2, at: destination + 1)
            unsafe destination[3] = UInt8(ascii: ":")
            unsafe putDigits(time.minute, width: 2, at: destination + 4)
            return 6
        }
    }
}

extension CivilDate {
    /// Appends `YYYY-MM-DD`.
    func appendISO8601(to bytes: ByteBuffer) {
        let (year, month, day) = components
        // The year through `appendDecimal`, which also writes years beyond four digits.
        bytes.appendDecimal(year, width: 4)
        unsafe bytes.append(atMost: 6) { destination in
            unsafe destination[0] = UInt8(ascii: "-")
            unsafe putDigits(month, width: 2, at: destination + 1)
            unsafe destination[3] = UInt8(ascii: "-")
            unsafe putDigits(day, width: 2, at: destination + 4)
            return 6
        }
    }
}
