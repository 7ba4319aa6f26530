import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Text of the input inside a diagnostic line, a tool error or a generated comment goes
/// through one escaper: no value or file name can start a line of its own.
@Suite("Text of the input shown on one line")
struct VisibleTextTests {
    /// The characters that end a line or hide, as the escaper is documented to treat them.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Reads the escapes back (text without backslashes of its own).
    static func unescaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let kind = scalars.popFirst() else {
                result.append(scalar)
                continue
            }
            switch kind {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            default:
                // u{HEX}
                let digits = scalars.dropFirst().prefix { $0 != "}" }
                scalars = scalars.dropFirst(digits.count + 2)
                result.append(Unicode.Scalar(UInt32(String(String.UnicodeScalarView(digits)), radix: 16)!)!)
            }
        }
        return String(result)
    }

    @Test("every hidden character is escaped, everything else kept, and a second pass changes nothing")
    func escaping() {
        #expect(VisibleText.escaped("a\nb\r\tc") == "a\\nb\\r\\tc")
        #expect(VisibleText.escaped("\u{1B}[31m\u{7F}\u{85}\u{2028}\u{2029}") == "\\u{1b}[31m\\u{7f}\\u{85}\\u{2028}\\u{2029}")
        #expect(VisibleText.escaped("Müsli \\ 08:00 ☕️") == "Müsli \\ 08:00 ☕️")
        #expect(VisibleText.quoted(String(repeating: "é", count: 61)) == "'" + String(repeating: "é", count: 60) + "...'")
        var generator = SeededGenerator(seed: 0x7E57)
        // No backslash, so that the escapes can be read back.
        let alphabet: [Unicode.Scalar] = ["a", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{2028}", "\u{2029}", "\u{1F600}"]
        for _ in 0..<2_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 12) { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            let once = VisibleText.escaped(String(text))
            #expect(!once.unicodeScalars.contains(where: Self.isHidden), "\(once.debugDescription)")
            #expect(VisibleText.escaped(once) == once)
            #expect(Self.unescaped(once) == String(text), "\(once.debugDescription)")
        }
    }

    @Test("a value or a file name with a line break gives one diagnostic line; a megabyte value is cut short")
    func diagnosticsStayOnTheirLine() throws {
        let id = "a\nerror: injected\u{2028}"
        let huge = String(repeating: "x", count: 1 << 20)
        let config = """
            {"formatVersion": 1, "timeZone": "Europe/Berlin", "reminders": [
              {"id": "\(id.replacingOccurrences(of: "\n", with: "\\n"))", "title": "t",
               "schedule": {"frequency": "daily", "times": ["08:00"]}},
              {"id": "\(huge)", "title": "t", "schedule": {"frequency": "daily", "times": ["09:00"]}}]}
            """
        let result = ReminderCompiler.check(Array(config.utf8), path: "dir/c\nerror: y.json", )
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2, "\(errors)")
        for diagnostic in result.diagnostics {
            let line = diagnostic.formatted
            #expect(!line.unicodeScalars.contains(where: Self.isHidden), "\(line.debugDescription)")
            #expect(line.hasPrefix("dir/c\\nerror: y.json:"), "\(line)")
            #expect(line.utf8.count < 400, "\(line.prefix(200))")
        }
        #expect(errors.contains { $0.message.text.hasPrefix("'a\\nerror: injected\\u{2028}' is not a valid reminder id") })
        // The JSON formats carry the name itself, escaped by JSON.
        #expect(errors.allSatisfy { $0.location.path == "dir/c\nerror: y.json" })
    }
}
