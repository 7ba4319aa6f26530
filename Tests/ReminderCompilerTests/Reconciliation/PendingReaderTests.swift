import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The pending-list reader without a tree (`FastPendingReader`) against the located one:
/// whatever the fast reader accepts, the located reader reads the same, and it accepts
/// nothing the located reader reports an error for.
@Suite("Pending lists read without a tree")
struct PendingReaderTests {
    /// A random pending list in either shape, with the things the readers must agree on:
    /// IDs under `id` or `identifier` (or both), fingerprints at the top or nested in
    /// `content`, `userInfo` or `data`, values of other kinds, nulls, escapes and numbers.
    static func randomList(_ generator: inout SeededGenerator) -> String {
        func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &generator)] }
        func text() -> String {
            pick(["\"med-20261122-0900\"", "\"a\\u00e9\\n\"", "\"\"", "\"0123456789abcdef\"", "\"x\\\"y\""])
        }
        func scalar() -> String { pick([text(), "12", "-0", "1.5e3", "true", "null", "[]", "{}", "[1, \"a\"]"]) }
        func fingerprintHolder(_ depth: Int) -> String {
            var members: [String] = []
            if Bool.random(using: &generator) { members.append("\"fingerprint\": \(pick([text(), scalar()]))") }
            if depth < 3, Bool.random(using: &generator) {
                members.append("\"\(pick(["content", "userInfo", "data", "other"]))\": \(fingerprintHolder(depth + 1))")
            }
            if Bool.random(using: &generator) { members.append("\"\(pick(["title", "trigger", "sound"]))\": \(scalar())") }
            return "{" + members.shuffled(using: &generator).joined(separator: ", ") + "}"
        }
        let entries = (0..<Int.random(in: 0...6, using: &generator)).map { _ -> String in
            var members: [String] = []
            if Int.random(in: 0..<10, using: &generator) > 0 { members.append("\"\(pick(["id", "identifier"]))\": \(pick([text(), text(), scalar()]))") }
            if Bool.random(using: &generator) { members.append("\"identifier\": \(text())") }
            let holder = fingerprintHolder(0)
            if holder.count > 2 { members.append(String(holder.dropFirst().dropLast())) }
            return "{" + members.shuffled(using: &generator).joined(separator: ", ") + "}"
        }
        return "[" + entries.joined(separator: ", ") + "]"
    }

    /// The list with one byte changed, inserted or removed, or a number out of range.
    static func damaged(_ text: String, _ generator: inout SeededGenerator) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return bytes }
        let place = Int.random(in: 0..<bytes.count, using: &generator)
        let replacements = Array("{}[],:\"\\ 0a-".utf8), insertions = Array("{}[],:\" 9".utf8)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes[place] = replacements[Int.random(in: 0..<replacements.count, using: &generator)]
        case 1: bytes.insert(insertions[Int.random(in: 0..<insertions.count, using: &generator)], at: place)
        case 2: bytes.remove(at: place)
        default: bytes = Array(text.replacingOccurrences(of: "12", with: "99999999999999999999").replacingOccurrences(of: "1.5e3", with: "1e999").utf8)
        }
        return bytes
    }

    @Test("over 6 000 random and damaged lists, the fast reader reads what the located reader reads, and refuses the rest")
    func agreesWithTheLocatedReader() {
        var generator = SeededGenerator(seed: 2026)
        var accepted = 0, refused = 0, entries = 0
        for round in 0..<6_000 {
            let list = Self.randomList(&generator)
            let bytes = round % 2 == 0 ? Array(list.utf8) : Self.damaged(list, &generator)
            var diagnostics = DiagnosticCollector()
            let located = PendingReader.readLocated(bytes, path: "p.json", diagnostics: &diagnostics)
            let fast = FastPendingReader.read(bytes)
            if let fast {
                #expect(located == fast, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(!diagnostics.hasErrors)
                accepted += 1
                entries += fast.count
            } else {
                refused += 1
            }
            // What the public reader gives is always the located reader's answer.
            #expect(ReminderCompiler.readPending(bytes, path: "p.json").pending == located)
        }
        // Both sides are exercised.
        #expect(accepted > 1_000 && refused > 1_000 && entries > 800, "\(accepted) accepted, \(refused) refused, \(entries) entries")
    }

    /// A bare `null` once gave no pending list and no error: the command exited 1 silently.
    @Test("a pending list that is null, or a number out of range, is one located error", arguments: [
        ("null", "p.json:1:1: error: a pending list must be a JSON array of notifications"),
        ("1e999", "p.json:1:1: error:"),
    ])
    func rootNotAList(text: String, expected: String) {
        let (pending, diagnostics) = ReminderCompiler.readPending(Array(text.utf8), path: "p.json")
        #expect(pending == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.formatted.hasPrefix(expected) == true, "\(diagnostics.map(\.formatted))")
    }

    @Test("expo's shape: the fingerprint in content.data, other keys and nulls ignored")
    func expoShape() {
        let expo = #"[{"identifier": "a-20261122-0900", "content": {"title": null, "data": {"fingerprint": "00000000000000ff"}}, "trigger": {"type": "date", "value": 1795334400}}]"#
        #expect(FastPendingReader.read(Array(expo.utf8)) == [PendingNotification(id: "a-20261122-0900", fingerprint: "00000000000000ff")])
    }
}
