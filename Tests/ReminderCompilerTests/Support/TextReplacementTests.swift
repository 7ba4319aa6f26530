import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("Text replacement")
struct TextReplacementTests {
    /// Replacement over Unicode scalars, left to right, the obvious way.
    static func reference(_ text: String, _ target: String, _ replacement: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let pattern = Array(target.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if !pattern.isEmpty, index + pattern.count <= scalars.count, Array(scalars[index..<index + pattern.count]) == pattern {
                result.append(contentsOf: replacement.unicodeScalars)
                index += pattern.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    @Test("replacingEvery replaces every occurrence, scalar by scalar, and agrees with Foundation's on text without combining marks")
    func againstReferences() {
        var generator = SeededGenerator(seed: 77)
        for withCombiningMarks in [true, false] {
            let alphabet: [Character] = ["a", "b", "-", "%", "é", "🙂"] + (withCombiningMarks ? ["\u{301}"] : [])
            func randomText(_ length: ClosedRange<Int>) -> String {
                String((0..<Int.random(in: length, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            }
            for _ in 0..<3000 {
                let text = randomText(0...12)
                let target = randomText(1...3)
                let replacement = randomText(0...3)
                let replaced = text.replacingEvery(target, with: replacement)
                #expect(replaced == Self.reference(text, target, replacement), "\(text) \(target) \(replacement)")
                if !withCombiningMarks {
                    #expect(replaced == text.replacingOccurrences(of: target, with: replacement), "\(text) \(target) \(replacement)")
                }
            }
        }
        #expect("abc".replacingEvery("", with: "x") == "abc")
        // A `%` before a combining mark is escaped too (Foundation's grapheme matching
        // would leave it, and a workflow command would read it as an escape).
        #expect("100%\u{301}".replacingEvery("%", with: "%25") == "100%25\u{301}")
    }
}
