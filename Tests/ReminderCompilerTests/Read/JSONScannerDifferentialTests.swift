import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Random JSON documents, valid and broken, for the differential test: values of every
/// kind with the edges of the grammar (escapes, surrogate pairs, raw UTF-8, numbers at
/// the limits of 64 bits and of doubles, nesting near the limit), then byte mutations.
private struct JSONDocumentGenerator {
    var random: SeededGenerator

    static let numbers = [
        "0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "123456789012345678901234567890", "1.5", "-0.0", "0.1", "1e10", "1E+2", "2.5e-3",
        "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308", "1.8e308", "0e0", "10.000",
    ]
    /// Pieces of string text, each valid inside quotes.
    static let stringPieces = [
        "a", "Pills", " ", "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t", "\\u00e9", "\\u00E9", "\\uD83D\\uDE00",
        "\\u0000", "\\u2028", "é", "😀", "\u{FFFF}", "\u{10FFFF}", "\u{2028}", "~", "{", "]", ":",
    ]
    static let whitespace = ["", "", "", " ", "\n", "\t", "\r\n", "  "]
    /// Bytes that mutations insert: delimiters, escapes, controls, and bytes that are never
    /// or only sometimes valid UTF-8.
    static let interestingBytes: [UInt8] = [
        0x2C, 0x5D, 0x7D, 0x5B, 0x7B, 0x22, 0x5C, 0x3A, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xED, 0xF4, 0xF5, 0xFF,
        0x78, 0x30, 0x2E, 0x65, 0x2D, 0x2B, 0x20, 0x6E, 0x74, 0x75,
    ]

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

    mutating func space() -> String { pick(Self.whitespace) }

    mutating func string() -> String {
        let count = Int.random(in: 0...4, using: &random)
        return "\"" + (0..<count).map { _ in pick(Self.stringPieces) }.joined() + "\""
    }

    mutating func number() -> String {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return pick(Self.numbers)
        case 1: return String(Int64.random(in: .min ... .max, using: &random))
        default:
            // Swift writes finite doubles in forms JSON allows ("1e-05", "0.1").
            return String(Double(bitPattern: UInt64.random(in: 0 ... 0x7FEF_FFFF_FFFF_FFFF, using: &random)) * (Bool.random(using: &random) ? 1 : -1))
        }
    }

    mutating func value(depth: Int) -> String {
        let kinds = depth >= 5 ? 4 : 6
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return string()
        case 1: return number()
        case 2: return pick(["true", "false", "null"])
        case 3: return number()
        case 4:
            let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in space() + value(depth: depth + 1) + space() }
            return "[" + items.joined(separator: ",") + "]"
        default:
            var keys: [String] = []
            let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                // Now and then a key repeats, which the grammar allows and remindc reports.
                let key = !keys.isEmpty && Int.random(in: 0..<8, using: &random) == 0 ? pick(keys) : string()
                keys.append(key)
                return space() + key + space() + ":" + space() + value(depth: depth + 1) + space()
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// Containers nested `levels` deep around a value: either side of the limit of 64.
    mutating func nested(levels: Int) -> String {
        var text = number()
        for _ in 0..<levels {
            text = Bool.random(using: &random) ? "[\(text)]" : "{\"k\":\(text)}"
        }
        return text
    }

    mutating func document() -> [UInt8] {
        let body = Int.random(in: 0..<20, using: &random) == 0
            ? nested(levels: Int.random(in: 60...68, using: &random)) : value(depth: 0)
        let byteOrderMark = Int.random(in: 0..<30, using: &random) == 0 ? "\u{FEFF}" : ""
        return Array((byteOrderMark + space() + body + space()).utf8)
    }

    /// One to three deletions, insertions, replacements, truncations or repeats.
    mutating func mutated(_ document: [UInt8]) -> [UInt8] {
        var bytes = document
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where index < bytes.count: bytes.remove(at: index)
            case 1: bytes.insert(pick(Self.interestingBytes), at: index)
            case 2 where index < bytes.count: bytes[index] = pick(Self.interestingBytes)
            case 3: bytes.removeSubrange(index...)
            default:
                let end = min(bytes.count, index + Int.random(in: 1...6, using: &random))
                bytes.insert(contentsOf: bytes[index..<end], at: index)
            }
        }
        return bytes
    }
}

/// Documents every JSON reader must refuse or accept, written out by hand.
private let handWrittenDocuments: [String] = [
    "", " ", "[1,]", "{\"a\":1,}", "[,1]", "01", "-01", "1.", ".5", "+1", "1e", "1e+", "-", "NaN", "Infinity", "-Infinity",
    "[1 2]", "{\"a\" 1}", "{1:2}", "{'a':1}", "\"\\x\"", "\"\\u12\"", "\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800\\u0041\"",
    "\"\\uD83D\\uDE00\"", "tru", "nul", "truex", "[true false]", "\"a", "\"\t\"", "[\"a\"]]", "{}}", "[]", "{}", "[[]]",
    "{\"\":0}", "/* c */ 1", "1 // c", "\u{FEFF}{}", "\u{FEFF}\u{FEFF}{}", "\"\u{FEFF}\"", "\"\\u0000\"", "1e999", "-0",
    "0.0e-0", "123abc", "[1,,2]", "{\"a\":1 \"b\":2}", "\u{000B}1", "\u{00A0}1", "[\"\u{7F}\"]",
]

extension ExternalProgramTests {
    @Suite("JSON scanner, against Python's json")
    struct JSONScannerDifferentialTests {
        /// The canonical form that json_reference.py writes too: strings as the hex of their
        /// UTF-8, reals as the hex of their bits, objects with their members in order.
        static func canonical(_ node: PlistNode) -> String {
            func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }
            switch node.value {
            case .dictionary(let dictionary):
                return "{" + dictionary.entries.map { hex($0.key) + ":" + canonical($0.value) }.joined(separator: ",") + "}"
            case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
            case .string(let text): return "s" + hex(text)
            case .integer(let value): return "i\(value)"
            case .real(let value): return "r" + String(format: "%016llx", value.bitPattern)
            case .boolean(let value): return value ? "T" : "F"
            case .invalid: return "N"
            case .date, .data: return "unexpected plist value"
            }
        }

        /// What the JSON reader makes of a document: REJECT when it reports an error.
        static func readerVerdict(_ document: [UInt8]) -> String {
            var diagnostics = DiagnosticCollector()
            let node = JSONReader(allowsNull: true).read(document, path: "fuzz.json", diagnostics: &diagnostics)
            guard let node, !diagnostics.diagnostics.contains(where: { $0.severity == .error }) else { return "REJECT" }
            return canonical(node)
        }

        @Test("the reader, the job scanner and the plan reader agree with Python's json on about 17 000 documents, valid and broken")
        func againstPython() async throws {
            var generator = JSONDocumentGenerator(random: SeededGenerator(seed: 8259))
            var documents = handWrittenDocuments.map { Array($0.utf8) }
            // Broken UTF-8 by hand: a lone continuation byte, an overlong form, an encoded
            // surrogate, a code point past U+10FFFF, a truncated sequence.
            for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
                documents.append([0x22] + bad + [0x22])
            }
            for _ in 0..<8_000 {
                let document = generator.document()
                documents.append(document)
                documents.append(generator.mutated(document))
            }
            // A plan remindc writes, and broken copies of it, for the plan reader.
            let (plan, _) = try ReconcileTests.plans()
            let planBytes = PlanJSON.encode(plan)
            let firstPlanDocument = documents.count
            documents.append(planBytes)
            for _ in 0..<1_000 { documents.append(generator.mutated(planBytes)) }

            let python = try #require(Python.executable, "python3 is not on the PATH")
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Read/json_reference.py")
            let input = documents.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n") + "\n"
            let result = try await run(python, [script.path], input: Data(input.utf8))
            #expect(result.status == 0, "\(result.standardError)")
            let verdicts = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            try #require(verdicts.count == documents.count)

            var valid = 0, refused = 0, planReads = 0, mismatches: [String] = []
            for (index, (document, verdict)) in zip(documents, verdicts).enumerated() {
                let parts = verdict.split(separator: " ", maxSplits: 1).map(String.init)
                let grammarDepth = Int(parts[0])
                let expected = parts[1]
                let shown = String(decoding: document.prefix(120), as: UTF8.self).debugDescription

                let found = Self.readerVerdict(document)
                if found != expected { mismatches.append("reader: \(shown): Python \(expected.prefix(200)), remindc \(found.prefix(200))") }
                if expected == "REJECT" { refused += 1 } else { valid += 1 }

                // The job scanner: an object of valid JSON is read into its members, each
                // member's value nesting within the limit on its own; nothing else is.
                let members = JSONScanner.members(of: document)
                let isObject = document.dropFirst(ByteOrderMark.length(of: document)).first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == 0x7B
                let membersExpected = isObject && (grammarDepth.map { $0 <= JSONScanner.maximumDepth + 1 } ?? false)
                switch members {
                case .success(let found) where membersExpected:
                    if expected != "REJECT", case .dictionary(let dictionary)? = Self.readerNode(document)?.value,
                       found.map(\.key) != dictionary.entries.map(\.key) {
                        mismatches.append("members: \(shown): keys \(found.map(\.key)) differ")
                    }
                case .failure where !membersExpected: break
                default: mismatches.append("members: \(shown): Python's grammar \(parts[0]), remindc \(members)")
                }

                // The plan reader never accepts what is not JSON, and reads a valid plan
                // as the located reader does.
                if index >= firstPlanDocument, let fast = FastPlanReader.read(document) {
                    planReads += 1
                    if grammarDepth == nil { mismatches.append("plan: \(shown): read, but Python's json refuses it") }
                    var diagnostics = DiagnosticCollector()
                    let full = PlanReader.read(document, path: "plan.json", diagnostics: &diagnostics)
                    if full.map(PlanJSON.encode) != PlanJSON.encode(fast) { mismatches.append("plan: \(shown): the two plan readers differ") }
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5).joined(separator: "\n"))")
            // The corpus is worth its name: thousands both ways, the plan read whole and broken.
            #expect(valid > 5_000 && refused > 5_000, "\(valid) valid, \(refused) refused")
            #expect(FastPlanReader.read(planBytes) != nil)
            #expect(planReads < 1_001, "\(planReads) plans read")
        }

        static func readerNode(_ document: [UInt8]) -> PlistNode? {
            var diagnostics = DiagnosticCollector()
            return JSONReader(allowsNull: true).read(document, path: "fuzz.json", diagnostics: &diagnostics)
        }
    }
}

/// The string loop tests eight bytes at once; here it is checked against a byte-by-byte
/// reading of the grammar, with the byte that ends a plain run at every offset of a word.
@Suite("JSON scanner: strings read a word at a time")
struct JSONStringRunTests {
    /// What `plainString()` must give for a document that opens a string at `open`: its
    /// bytes up to the closing quote when they hold no escape or control character and are
    /// valid UTF-8 ("bytes"), "escape" when a backslash comes first, "refused" otherwise.
    static func reference(_ document: [UInt8], open: Int) -> String {
        var index = open + 1
        while index < document.count {
            let byte = document[index]
            if byte == UInt8(ascii: "\"") {
                let content = Array(document[(open + 1)..<index])
                return String(validating: content, as: UTF8.self) != nil ? "bytes \(content)" : "refused"
            }
            if byte == UInt8(ascii: "\\") {
                // (The documents here hold only ASCII before a backslash.)
                return "escape"
            }
            if byte < 0x20 { return "refused" }
            index += 1
        }
        return "refused"
    }

    static func scanned(_ document: [UInt8]) -> String {
        JSONScanner.scanning(document) { start in
            var scanner = start
            do {
                guard let run = try scanner.plainString() else { return "escape" }
                return "bytes \(Array(run))"
            } catch {
                return "refused"
            }
        }
    }

    @Test("the end of a plain run is found at every offset of a word, for every kind of byte that ends it")
    func everyOffset() {
        let enders: [[UInt8]] = [
            [0x22], [0x5C, 0x6E], [0x00], [0x1F], [0x7F], [0x20], [0x80], [0xC3, 0xA9], [0xC3], [0xE2, 0x82, 0xAC],
            [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x92, 0xA1], [0xFF], [0x21], [0x7E],
        ]
        var checked = 0, mismatches: [String] = []
        for leading in 0..<8 {
            for prefix in 0..<20 {
                for ender in enders {
                    for suffix in [0, 1, 7, 9] {
                        var document = [UInt8](repeating: 0x20, count: leading) + [0x22]
                        document += (0..<prefix).map { UInt8(0x41 + $0 % 26) } + ender + [UInt8](repeating: 0x61, count: suffix)
                        // Closed, and also left open at the end of the input.
                        for closed in [document + [0x22, 0x20], document] {
                            checked += 1
                            let expected = Self.reference(closed, open: leading)
                            let actual = Self.scanned(closed)
                            if expected != actual { mismatches.append("\(closed): \(actual), expected \(expected)") }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(checked): \(mismatches.prefix(3))")
        #expect(checked == 8 * 20 * 15 * 4 * 2)
    }
}

@Suite("Plan reader: the fast path's members")
struct FastPlanMemberTests {
    /// The fast path dispatches on cases; the format names the members. A member missing
    /// from a case list would make the fast path skip it as a key of a later format.
    @Test("the fast path's member cases are exactly the members the plan format names")
    func membersAgree() {
        #expect(FastPlanReader.PlanMember.allCases.map(\.rawValue) == PlanReader.planKeys)
        #expect(FastPlanReader.NotificationMember.allCases.map(\.rawValue) == PlanReader.notificationKeys)
        #expect(FastPlanReader.SuppressedMember.allCases.map(\.rawValue) == PlanReader.suppressedKeys)
        #expect(FastPlanReader.ActionMember.allCases.map(\.rawValue) == ConfigDecoder.actionKeys)
    }

    @Test("a member is found by its bytes, and only an exact spelling is")
    func lookup() {
        let keys = FastPlanReader.notificationKeys
        for (index, key) in keys.keys.enumerated() {
            let bytes = Array(key.rawValue.utf8)
            #expect(bytes.withUnsafeBufferPointer { keys.index(of: $0) } == index)
            for wrong in [bytes.dropLast() + [0x5F], bytes + [0x73], Array(bytes.dropLast())] where !wrong.isEmpty {
                let found = wrong.withUnsafeBufferPointer { keys.index(of: $0) }
                #expect(found == nil || keys.keys[found!].rawValue == String(decoding: wrong, as: UTF8.self))
            }
        }
        #expect([UInt8](repeating: 0x61, count: 40).withUnsafeBufferPointer { keys.index(of: $0) } == nil)
    }
}
