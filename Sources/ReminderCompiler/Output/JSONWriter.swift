/// A small JSON emitter with remindc's layout: 2-space indentation, objects and arrays of
/// objects one entry per line, arrays of strings on one line (`["a", "b"]`), empty
/// containers as `{}` and `[]`. Writes UTF-8 bytes directly; no reflection, no encoder.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var indentation = 0
    /// Whether the current container already holds an entry (one flag per open level).
    private var hasEntry: [Bool] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentation * 2))
    }

    /// Starts an entry of the current container: a comma after the previous one, a newline.
    private mutating func beginEntry() {
        if hasEntry.last == true { bytes.append(UInt8(ascii: ",")) }
        if !hasEntry.isEmpty { hasEntry[hasEntry.count - 1] = true }
        newline()
    }

    private mutating func key(_ name: String) {
        beginEntry()
        string(name)
        append(": ")
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        indentation += 1
        hasEntry.append(false)
    }

    mutating func endObject() {
        indentation -= 1
        if hasEntry.removeLast() { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        indentation += 1
        hasEntry.append(false)
    }

    mutating func endArray() {
        indentation -= 1
        if hasEntry.removeLast() { newline() }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts an array element that is an object or array.
    mutating func element() {
        beginEntry()
    }

    mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        append(String(value))
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    /// An array of strings on one line.
    mutating func field(_ name: String, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { append(", ") }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts a field whose value the caller writes (an object or an array of objects).
    mutating func fieldName(_ name: String) {
        key(name)
    }

    /// A quoted JSON string: `"` and `\` escaped, control characters as escapes, all other
    /// text as UTF-8.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
