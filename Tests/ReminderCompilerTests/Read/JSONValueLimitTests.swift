import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A JSON tree holds at most `maximumValues` values at once; the elements of a streamed
/// array count only while they are read.
@Suite("JSON values held at once")
struct JSONValueLimitTests {
    static func read(
        _ text: String, limit: Int, streaming arrays: JSONReader.StreamedArrays? = nil
    ) -> (node: PlistNode?, diagnostics: [Diagnostic], handed: Int, keys: [String?]) {
        var reader = JSONReader()
        reader.maximumValues = limit
        var diagnostics = DiagnosticCollector()
        var handed = 0
        var keys: [String?] = []
        let node: PlistNode?
        if let arrays {
            var elements = DiagnosticCollector()
            node = reader.read(Array(text.utf8), path: "f.json", diagnostics: &diagnostics, streaming: arrays, elementDiagnostics: &elements) { key, _ in
                handed += 1
                if keys.last != key { keys.append(key) }
            }
            diagnostics.absorb(elements)
        } else {
            node = reader.read(Array(text.utf8), path: "f.json", diagnostics: &diagnostics)
        }
        return (node, diagnostics.diagnostics, handed, keys)
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
        let underKey = Self.read(#"{"events": ["# + elements + "]}", limit: 10, streaming: .under(["events"]))
        #expect(underKey.node != nil && underKey.handed == 1_000 && underKey.diagnostics.isEmpty && underKey.keys == ["events"])
        let atRoot = Self.read("[" + elements + "]", limit: 10, streaming: .root)
        #expect(atRoot.node != nil && atRoot.handed == 1_000 && atRoot.diagnostics.isEmpty && atRoot.keys == [nil])
        // Two keys, each with its own elements; an array under another key is a tree.
        let twoKeys = Self.read(#"{"a": ["# + elements + #"], "x": [1], "b": ["# + elements + "]}", limit: 10, streaming: .under(["a", "b"]))
        #expect(twoKeys.node != nil && twoKeys.handed == 2_000 && twoKeys.diagnostics.isEmpty && twoKeys.keys == ["a", "b"])
        // Under a nested object, the same key is not streamed.
        let nested = Self.read(#"{"n": {"a": ["# + elements + "]}}", limit: 10, streaming: .under(["a"]))
        #expect(nested.handed == 0 && nested.diagnostics.map(\.message.id) == ["input.too-many-values"])
        // Not streamed, the same list passes the limit.
        #expect(Self.read(#"{"events": ["# + elements + "]}", limit: 10).diagnostics.map(\.message.id) == ["input.too-many-values"])
        // One element larger than the limit is refused even when streamed.
        let large = Self.read(#"{"events": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]}"#, limit: 10, streaming: .under(["events"]))
        #expect(large.diagnostics.map(\.message.id) == ["input.too-many-values"])
    }
}

/// A plan's `suppressed` list is streamed like its `notifications`: a plan with an error
/// gets its own errors, however long the list.
@Suite("Plan lists past the value limit")
struct PlanListStreamingTests {
    @Test("2.1 million wrong suppressed entries give their capped errors and the plan's own, not the value limit")
    func suppressedStreamed() {
        let count = JSONReader.defaultMaximumValues + 100_000
        let bytes = MemoryBoundTests.ones(count, between: #"{"formatVersion":1,"notifications":[],"suppressed":["#, and: "]}")
        var diagnostics = DiagnosticCollector()
        #expect(ReminderCompiler.readPlan(bytes, path: "plan.json", diagnostics: &diagnostics) == nil)
        let ids = diagnostics.diagnostics.map(\.message.id)
        #expect(!ids.contains("input.too-many-values"))
        #expect(diagnostics.diagnostics.contains { $0.message.text.contains("missing the required key 'timeZone'") })
        // Every entry is an error besides the missing keys; the collector keeps the first
        // thousand and counts the rest.
        let missing = diagnostics.diagnostics.filter { $0.message.text.contains("missing the required key") }.count
        #expect(diagnostics.diagnostics.filter { $0.severity == .error }.count == DiagnosticCollector.defaultMaximumErrors)
        #expect(diagnostics.errorCount == count + missing, "\(diagnostics.errorCount)")
    }
}
