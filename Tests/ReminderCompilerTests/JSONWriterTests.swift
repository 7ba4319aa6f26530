import Foundation
import Testing
@testable import ReminderCompiler

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("any Unicode text, control characters included, reads back unchanged with JSONSerialization")
    func stringsRoundTrip() throws {
        let pieces = [
            "a", "é", "漢字", "💊", "👩‍👩‍👧", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", " ",
            "a plain run longer than eight bytes", "\u{2028}", "ß",
        ]
        var generator = SeededGenerator(seed: 8)
        for length in 0..<400 {
            var text = ""
            for _ in 0..<(length % 40) { text += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("text", text)
            writer.endObject()
            let object = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: String]
            #expect(object?["text"] == text, "\(text.debugDescription)")
        }
    }
}
