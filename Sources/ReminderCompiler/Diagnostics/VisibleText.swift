/// The one way text of an input is shown inside another format's line: a diagnostic, a tool
/// error, a comment of generated Swift. Characters that would end the line or hide from a
/// reader — the C0 controls, DEL, the C1 controls, and the line and paragraph separators
/// U+2028 and U+2029 — are written as escapes (`\n`, `\r`, `\t`, else `\u{…}` in hex); every
/// other character, backslashes included, is kept. Applying it twice changes nothing more.
@_spi(Tooling) public enum VisibleText {
    /// `text` with its line-breaking and invisible control characters escaped; with
    /// `limit`, at most that many characters (Unicode scalars) of it, then `...`.
    public static func escaped(_ text: String, limit: Int? = nil) -> String {
        // Most text is short printable ASCII, returned as it is.
        if limit.map({ text.utf8.count <= $0 }) ?? true, text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return text
        }
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if let limit, count == limit {
                shown += "..."
                break
            }
            count += 1
            switch scalar.value {
            case 0x0A: shown += "\\n"
            case 0x0D: shown += "\\r"
            case 0x09: shown += "\\t"
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029: shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// A value of the input as a diagnostic quotes it: in single quotes, escaped, and cut
    /// after 60 characters.
    public static func quoted(_ text: String) -> String {
        "'" + escaped(text, limit: 60) + "'"
    }
}
