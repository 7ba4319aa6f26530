import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A JSON tree holds at most `maximumValues` values at once; the elements of a streamed
/// array count only while they are read.
@Suite("JSON values held at once")
struct JSONValueLimitTests {
    static func read(_ text: String, limit: Int, streaming key: String?? = nil) -> (node: PlistNode?, diagnostics: [Diagnostic], handed: Int) {
        var reader = JSONReader()
        reader.maximumValues = limit
        var diagnostics = DiagnosticCollector()
        var handed = 0
        let node: PlistNode?
        if let key {
            var elements = DiagnosticCollector()
            node = reader.read(Array(text.utf8), path: "f.json", diagnostics: &diagnostics, streamingArrayUnder: key, elementDiagnostics: &elements) { _ in
                handed += 1
            }
            diagnostics.absorb(elements)
        } else {
            node = reader.read(Array(text.utf8), path: "f.json", diagnostics: &diagnostics)
        }
        return (node, diagnostics.diagnostics, handed)
    }

    @Test("a document of exactly the limit is read; one value more is refused where that value starts")
    func limit() {
        // The root object, the array and eight numbers: ten values.
        let ten = #"{"x": [1, 2, 3, 4, 5, 6, 7, 8]}"#
        #expect(Self.read(ten, limit: 10).node != nil)
        let refused = Self.read(ten, limit: 9)
        #expect(refused.node == nil)
        #expect(refused.diagnostics.map(\.message.id) == ["input.too-many-values"])
        // The eighth number, the tenth value.
        #expect(refused.diagnostics.first?.location.column == ten.distance(from: ten.startIndex, to: ten.firstIndex(of: "8")!) + 1)
        #expect(refused.diagnostics.first?.message.text.contains("more than 9 values") == true)
    }

    @Test("a streamed array's elements are let go once handed over, under a key or at the root")
    func streamedElements() {
        let elements = (0..<1_000).map { #"{"a": [\#($0), \#($0)]}"# }.joined(separator: ",")
        let underKey = Self.read(#"{"events": ["# + elements + "]}", limit: 10, streaming: "events")
        #expect(underKey.node != nil && underKey.handed == 1_000 && underKey.diagnostics.isEmpty)
        let atRoot = Self.read("[" + elements + "]", limit: 10, streaming: .some(nil))
        #expect(atRoot.node != nil && atRoot.handed == 1_000 && atRoot.diagnostics.isEmpty)
        // Not streamed, the same list passes the limit.
        #expect(Self.read(#"{"events": ["# + elements + "]}", limit: 10).diagnostics.map(\.message.id) == ["input.too-many-values"])
        // One element larger than the limit is refused even when streamed.
        let large = Self.read(#"{"events": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]}"#, limit: 10, streaming: "events")
        #expect(large.diagnostics.map(\.message.id) == ["input.too-many-values"])
    }
}
