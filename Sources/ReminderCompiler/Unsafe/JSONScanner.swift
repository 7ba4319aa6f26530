/// The one JSON scanner (RFC 8259) of remindc. Every JSON it reads — configs, events,
/// plans, pending lists, batch jobs and service requests — goes through these tokens, so
/// every reader accepts exactly the same documents, nests as deep and fails with the same
/// words at the same byte.
///
/// The scanner knows the grammar and nothing of what a document means. Its readers are
/// thin: `JSONReader` builds the located tree that configs and events are decoded from,
/// `FastPlanReader` reads a plan straight into its values, and `members(of:)` lists the
/// members of a job's object without reading their values.
///
/// What it refuses: anything outside the grammar (comments, trailing commas, single
/// quotes, `NaN`, leading zeros), control characters and invalid UTF-8 inside strings,
/// unpaired surrogates in `\u` escapes, and nesting deeper than `maximumDepth`. A UTF-8
/// byte order mark before the document is skipped. Numbers are checked against the
/// grammar here; what range they must fit is up to the reader.
@safe struct JSONScanner {
    /// Why the document was refused, and the byte offset to report it at.
    struct Failure: Error {
        let reason: String
        let offset: Int
        /// Set when the document nests deeper than `maximumDepth`, which readers report
        /// as the nesting limit that plists share rather than as malformed JSON.
        var nestingLimit: Int?
    }

    /// How many objects and arrays may be open at once: the nesting limit of plists too.
    /// Readers recurse per level, so this also bounds their stack.
    static let maximumDepth = PlistReader.defaultMaximumDepth

    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var position: Int
    /// Objects and arrays open around `position`.
    private(set) var depth = 0

    /// A scanner at the start of the document in `bytes`, past a byte order mark.
    init(document bytes: UnsafeBufferPointer<UInt8>) {
        unsafe self.bytes = unsafe bytes
        self.position = unsafe ByteOrderMark.length(of: bytes)
    }

    /// A scanner at `position`, for a value inside a document already scanned, or for a
    /// document read a window at a time, `depth` containers deep.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, depth: Int = 0) {
        unsafe self.bytes = unsafe bytes
        self.position = position
        self.depth = depth
    }

    /// Calls `body` with a scanner at the start of `document`, past a byte order mark. The
    /// scanner reads `document`'s storage in place: neither it nor a copy may outlive `body`.
    static func scanning<Result>(_ document: [UInt8], _ body: (JSONScanner) -> Result) -> Result {
        unsafe document.withUnsafeBufferPointer { unsafe body(JSONScanner(document: $0)) }
    }

    /// The bytes in `range` (a token the scanner returned) as UTF-8 text.
    func text(of range: Range<Int>) -> String {
        unsafe String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The value of a number token (from `number()`) that is an integer of at most
    /// `maximumDigits` digits, read from its bytes without a string; nil for any other
    /// number, which a caller reads otherwise. 18 digits always fit 64 bits.
    func smallInteger(of number: (text: Range<Int>, isInteger: Bool), maximumDigits: Int = 18) -> Int64? {
        var index = number.text.lowerBound
        let negative = unsafe number.isInteger && index < number.text.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard number.isInteger, number.text.upperBound - index <= min(maximumDigits, 18) else { return nil }
        var value: Int64 = 0
        while index < number.text.upperBound {
            // The grammar let only digits through.
            value = unsafe value * 10 + Int64(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        return negative ? -value : value
    }

    func failure(_ reason: String, at offset: Int? = nil) -> Failure {
        Failure(reason: reason, offset: offset ?? position)
    }

    // MARK: Structure

    /// The byte at `position`, if any.
    var current: UInt8? { unsafe position < bytes.count ? bytes[position] : nil }

    /// The next byte after whitespace, not consumed.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return current
    }

    @inline(__always)
    mutating func skipWhitespace() {
        // Most calls find none: that is told here, and a run is stepped over out of line.
        guard unsafe position < bytes.count, unsafe bytes[position] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        position = unsafe Self.endOfWhitespace(in: bytes, from: position)
    }

    /// Where the run of whitespace at `start` in `bytes` ends. Spaces are stepped over
    /// eight at a time: a pretty-printed plan indents each member by six, and byte by byte
    /// that was 45 M instructions of a `diff` of two W2 plans.
    @inline(__always)
    static func endOfWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = unsafe bytes[index]
            if byte == 0x20 {
                #if _endian(little)
                if index &+ 8 <= bytes.count, let base = bytes.baseAddress {
                    let others = unsafe UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x2020_2020_2020_2020
                    // The lowest byte that is not a space ends the run (the first is one).
                    index &+= others == 0 ? 8 : others.trailingZeroBitCount / 8
                    continue
                }
                #endif
                index += 1
            } else if byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
            } else {
                break
            }
        }
        return index
    }

    /// A non-negative integer of at most `maximumDigits` digits, read in one pass; nil,
    /// with nothing consumed, for any other number or a number that may go on past the
    /// bytes held, which the caller reads with `number()`.
    mutating func plainInteger(maximumDigits: Int) -> Int? {
        skipWhitespace()
        var index = position
        var value = 0
        while unsafe index < bytes.count, index - position < maximumDigits, unsafe bytes[index] &- UInt8(ascii: "0") < 10 {
            value = unsafe value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        guard index > position, unsafe index < bytes.count else { return nil }
        let next = unsafe bytes[index]
        guard next &- UInt8(ascii: "0") >= 10, next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E"),
              unsafe index - position == 1 || bytes[position] != UInt8(ascii: "0")
        else { return nil }
        position = index
        return value
    }

    /// Whether the next byte after whitespace is `byte`, consuming it if so.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard unsafe position < bytes.count, unsafe bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Consumes `byte` after whitespace, or fails saying what was expected.
    mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws(Failure) {
        guard take(byte) else {
            throw unsafe failure(position < bytes.count ? "expected \(what())" : "unexpected end of input; expected \(what())")
        }
    }

    /// Opens an object or an array (its bracket is the next byte) within `maximumDepth`,
    /// and tells whether it has members or items: when not, it is already closed.
    mutating func open(_ bracket: UInt8) throws(Failure) -> Bool {
        try expect(bracket, bracket == UInt8(ascii: "{") ? "'{'" : "'['")
        guard depth < Self.maximumDepth else {
            throw Failure(reason: "nesting deeper than \(Self.maximumDepth) levels", offset: position - 1, nestingLimit: Self.maximumDepth)
        }
        if take(bracket == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return false }
        depth += 1
        return true
    }

    /// After an object's member or an array's item: true when another follows (its comma
    /// consumed), false when `closing` ended the container.
    mutating func continues(closing: UInt8) throws(Failure) -> Bool {
        if take(UInt8(ascii: ",")) { return true }
        let name = closing == UInt8(ascii: "}") ? "'}'" : "']'"
        try expect(closing, "',' or \(name)")
        depth -= 1
        return false
    }

    /// Opens an object and tells whether it has members (when not, it is already closed).
    mutating func openObject() throws(Failure) -> Bool { try open(UInt8(ascii: "{")) }

    /// Opens an array and tells whether it has items (when not, it is already closed).
    mutating func openArray() throws(Failure) -> Bool { try open(UInt8(ascii: "[")) }

    /// A member's name and its colon.
    mutating func memberName() throws(Failure) -> String {
        guard peek() == UInt8(ascii: "\"") else {
            throw failure(current == nil ? "unexpected end of input; expected a member name in quotes" : "expected a member name in quotes")
        }
        let name = try string()
        try expect(UInt8(ascii: ":"), "':' after the member name")
        return name
    }

    /// Fails unless only whitespace is left.
    mutating func finish() throws(Failure) {
        skipWhitespace()
        guard unsafe position == bytes.count else { throw failure("unexpected content after the JSON value") }
    }

    // MARK: Scalars

    /// Consumes `word` (`true`, `false` or `null`) at `position`.
    mutating func literal(_ word: StaticString) throws(Failure) {
        let length = word.utf8CodeUnitCount
        let matches = unsafe position + length <= bytes.count && word.withUTF8Buffer { expected in
            (0..<length).allSatisfy { unsafe bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw failure("expected '\(word)'") }
        position += length
    }

    /// A number's text, checked against the grammar: an optional minus, an integer part
    /// without leading zeros, then an optional fraction and exponent. `isInteger` when it
    /// has neither.
    mutating func number() throws(Failure) -> (text: Range<Int>, isInteger: Bool) {
        skipWhitespace()
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        skipDigits()
        guard position > digitsStart else { throw failure("expected digits", at: start) }
        if unsafe bytes[digitsStart] == UInt8(ascii: "0"), position - digitsStart > 1 {
            throw failure("leading zeros are not allowed", at: start)
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            skipDigits()
            guard position > fractionStart else { throw failure("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            skipDigits()
            guard position > exponentStart else { throw failure("expected digits in the exponent") }
        }
        return (start..<position, isInteger)
    }

    private mutating func skipDigits() {
        while unsafe position < bytes.count, unsafe bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
    }

    // MARK: Strings

    /// The string at `position`, decoded.
    mutating func string() throws(Failure) -> String {
        if let plain = unsafe try plainString() {
            return unsafe String(decoding: plain, as: UTF8.self)
        }
        return String(decoding: try escapedString(), as: UTF8.self)
    }

    /// The bytes between the quotes of the string at `position` when it has no escapes
    /// (checked: no control characters, valid UTF-8), without copying them. When it has
    /// escapes: nil, with nothing consumed, for `string()` or `escapedString()`.
    mutating func plainString() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else {
            throw failure(current == nil ? "unexpected end of input; expected a string" : "expected a string")
        }
        let start = position + 1
        let end = try endOfPlainText(from: start)
        guard unsafe bytes[end] == UInt8(ascii: "\"") else { return nil }
        position = end + 1
        return unsafe UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Steps over a string's text from `index` up to its next quote or backslash, checking
    /// it (no control characters, valid UTF-8), and returns that byte's index; throws when
    /// the input ends first. Printable ASCII is stepped over a run at a time, which is most
    /// of any text. Inlined: a plan's strings are short and many, and a call for each cost
    /// a `diff` of two W2 plans 27 M instructions.
    @inline(__always)
    private func endOfPlainText(from start: Int) throws(Failure) -> Int {
        var index = start
        while unsafe index < bytes.count {
            index = unsafe Self.endOfPrintableRun(in: bytes, from: index)
            guard unsafe index < bytes.count else { break }
            let byte = unsafe bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            if byte &- 0x20 < 0x60 {
                index += 1
                continue
            }
            try checkStringByte(at: &index)
        }
        throw failure("unterminated string", at: index)
    }

    /// Where the run of printable ASCII other than `"` and `\\` that starts at `index` ends:
    /// the index of the first other byte, or a little before it (the caller's byte loop
    /// goes on from there), or `bytes.count`. Eight bytes are tested at once, with the
    /// borrow tricks that find a zero byte in a word; the lowest flagged byte of a word is
    /// always a true one, since a borrow only carries towards higher bytes, so on a
    /// little-endian machine the run ends exactly there. Strings are most of a plan's
    /// bytes: byte by byte, this loop was a third of a `diff`'s instructions.
    private static func endOfPrintableRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        #if _endian(little)
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index &+ 8 <= bytes.count {
            let word = unsafe UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            // A byte ≥ 0x80, a byte < 0x20, a quote, a backslash.
            let flagged = (word & highs)
                | ((word &- ones &* 0x20) & ~word & highs)
                | ((quotes &- ones) & ~quotes & highs)
                | ((backslashes &- ones) & ~backslashes & highs)
            if flagged != 0 { return index &+ flagged.trailingZeroBitCount / 8 }
            index &+= 8
        }
        return index
        #else
        return start
        #endif
    }

    /// The decoded bytes of the string at `position`, escapes and all.
    mutating func escapedString() throws(Failure) -> [UInt8] {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw failure("expected a string") }
        var index = position + 1
        var decoded: [UInt8] = []
        // The text between escapes is copied a run at a time: a config sent inside a job
        // is a string of thousands of bytes, and copied byte by byte its decoding was a
        // tenth of a service request's instructions.
        while true {
            let end = try endOfPlainText(from: index)
            unsafe decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            index = end
            if unsafe bytes[index] == UInt8(ascii: "\"") {
                position = index + 1
                return decoded
            }
            try decodeEscape(at: &index, into: &decoded)
        }
    }

    /// Steps over one character of a string's text that is not an escape or the closing
    /// quote: a printable ASCII byte or one whole, valid UTF-8 sequence. Inlined: a call
    /// for each character past ASCII cost a diff of two W2 plans 12 M instructions.
    @inline(__always)
    private func checkStringByte(at index: inout Int) throws(Failure) {
        let lead = unsafe bytes[index]
        if lead >= 0x20 && lead < 0x80 {
            index += 1
            return
        }
        if lead < 0x20 { throw failure("control character inside a string", at: index) }
        // RFC 3629's table: the second byte's range depends on the lead (no overlong
        // forms, no surrogates, nothing past U+10FFFF); the rest are 80...BF.
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw failure("invalid UTF-8 inside a string", at: index)
        }
        guard unsafe index + length <= bytes.count, unsafe second.contains(bytes[index + 1]),
              (2..<length).allSatisfy({ unsafe bytes[index + $0] & 0xC0 == 0x80 })
        else { throw failure("invalid UTF-8 inside a string", at: index) }
        index += length
    }

    /// Decodes the escape whose backslash is at `index`, `\u` escapes with their surrogate
    /// pairs, and steps past it.
    private func decodeEscape(at index: inout Int, into decoded: inout [UInt8]) throws(Failure) {
        let backslash = index
        guard unsafe index + 1 < bytes.count else { throw failure("unterminated escape", at: index + 1) }
        let escape = unsafe bytes[index + 1]
        index += 2
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hexQuad(at: &index)
            if (0xD800..<0xDC00).contains(code) {
                guard unsafe index + 1 < bytes.count, unsafe bytes[index] == UInt8(ascii: "\\"), unsafe bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired surrogate in \\u escape", at: index) }
                index += 2
                let low = try hexQuad(at: &index)
                guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate in \\u escape", at: index) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw failure("unpaired surrogate in \\u escape", at: index)
            }
            // Surrogates were paired or refused above, so `code` is a scalar.
            if let scalar = Unicode.Scalar(code), let units = Unicode.UTF8.encode(scalar) {
                decoded.append(contentsOf: units)
            }
        default:
            let shown = escape >= 0x20 && escape < 0x7F ? String(UnicodeScalar(escape)) : "\\u{\(String(escape, radix: 16))}"
            throw failure("invalid escape '\\\(shown)'", at: backslash)
        }
    }

    private func hexQuad(at index: inout Int) throws(Failure) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard unsafe index < bytes.count, let digit = unsafe Self.hexValue(bytes[index]) else {
                throw failure("expected four hex digits in \\u escape", at: index)
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: Whole values

    /// Steps over one value of any kind, checking it as fully as a reader would.
    mutating func skipValue() throws(Failure) {
        guard let byte = peek() else { throw failure("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "\""):
            if unsafe try plainString() == nil { _ = try escapedString() }
        case UInt8(ascii: "{"):
            if try openObject() {
                repeat {
                    _ = try memberName()
                    try skipValue()
                } while try continues(closing: UInt8(ascii: "}"))
            }
        case UInt8(ascii: "["):
            if try openArray() {
                repeat { try skipValue() } while try continues(closing: UInt8(ascii: "]"))
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: throw failure("unexpected character; expected a value")
        }
    }

    /// The members of the JSON object that is the whole of `bytes`, each as the byte range
    /// of its value, so that a nested config, events file or plan can be handed to its own
    /// reader as it is. Every value is checked here; each nests within `maximumDepth` on
    /// its own, as the reader it goes to would have it.
    static func members(of bytes: [UInt8]) -> Result<[(key: String, value: Range<Int>)], Failure> {
        unsafe bytes.withUnsafeBufferPointer { buffer in
            var scanner = unsafe JSONScanner(document: buffer)
            var members: [(key: String, value: Range<Int>)] = []
            do throws(Failure) {
                guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.failure("expected a JSON object '{'") }
                if try scanner.openObject() {
                    repeat {
                        let key = try scanner.memberName()
                        scanner.skipWhitespace()
                        let start = scanner.position
                        var value = unsafe JSONScanner(buffer, at: start)
                        try value.skipValue()
                        scanner.position = value.position
                        members.append((key, start..<scanner.position))
                    } while try scanner.continues(closing: UInt8(ascii: "}"))
                }
                try scanner.finish()
                return .success(members)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The decoded bytes of `raw` when it is exactly one JSON string, quotes included.
    static func decodedString(_ raw: [UInt8]) -> [UInt8]? {
        unsafe raw.withUnsafeBufferPointer { buffer in
            var scanner = unsafe JSONScanner(buffer, at: 0)
            guard let decoded = try? scanner.escapedString(), scanner.position == buffer.count else { return nil }
            return decoded
        }
    }
}
