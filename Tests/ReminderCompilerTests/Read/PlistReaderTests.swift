import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Reads `xml` and returns the value and the diagnostics' formatted lines.
private func read(_ xml: String, reader: PlistReader = PlistReader()) -> (PlistNode?, [String]) {
    var diagnostics = DiagnosticCollector()
    let node = reader.read(Array(xml.utf8), path: "test.plist", diagnostics: &diagnostics)
    return (node, diagnostics.sorted.map(\.formatted))
}

private func plist(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
}

@Suite("Plist reader: values")
struct PlistValueTests {
    @Test("positions deep in a large file, with or without a byte-order mark or an encoding declaration")
    func positionsInLargeFiles() {
        // 6 000 strings of about 40 bytes push the bad integer past several of the
        // parser's buffer refills; line 3 is `<array>`, each string has a line of its own.
        let strings = (0..<6_000).map { "  <string>value \($0) — café, naïve</string>\n" }.joined()
        let body = "<array>\n" + strings + "    <integer>12abc</integer>\n</array>"
        let declared = plist(body)
        let undeclared = "<plist version=\"1.0\">\n" + body + "\n</plist>\n"
        let expected = "test.plist:6004:5: error: '12abc' is not an integer"
        for (label, xml) in [("declared", declared), ("undeclared", undeclared), ("declared with BOM", "\u{FEFF}" + declared)] {
            let (_, diagnostics) = read(xml)
            let expectedLine = label == "undeclared" ? "test.plist:6003:5: error: '12abc' is not an integer" : expected
            #expect(diagnostics == [expectedLine], "\(label)")
        }
    }

    @Test("strings join text, CDATA and character references, and drop comments")
    func stringSemantics() throws {
        let (node, diagnostics) = read(plist("<string>Caf&#233; &amp; <![CDATA[<b>&tea</b>]]><!-- note --> &#x1F4A1;&lt;&gt;&apos;&quot;</string>"))
        #expect(diagnostics.isEmpty)
        guard case .string(let text)? = node?.value else { Issue.record("not a string"); return }
        #expect(text == "Café & <b>&tea</b> 💡<>'\"")
    }

    @Test("integers: sign, hex, whitespace, 64-bit limits", arguments: [
        ("42", Int64(42)), (" -7 ", -7), ("+3", 3), ("0x1F", 31), ("9223372036854775807", .max),
        ("-9223372036854775808", .min),
    ])
    func integers(_ text: String, _ expected: Int64) {
        let (node, diagnostics) = read(plist("<integer>\(text)</integer>"))
        #expect(diagnostics.isEmpty)
        guard case .integer(let value)? = node?.value else { Issue.record("not an integer"); return }
        #expect(value == expected)
    }

    @Test("integer overflow and junk are located errors", arguments: [
        ("9223372036854775808", "does not fit in 64 bits"), ("-9223372036854775809", "does not fit in 64 bits"),
        ("12abc", "is not an integer"), ("", "is not an integer"), ("1.5", "is not an integer"),
    ])
    func badIntegers(_ text: String, _ message: String) {
        let (_, diagnostics) = read(plist("<integer>\(text)</integer>"))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("test.plist:3:1: error: ") == true)
        #expect(diagnostics.first?.contains(message) == true)
    }

    @Test("reals are finite numbers; nan and inf are refused", arguments: ["nan", "NaN", "inf", "-Infinity", "1e999"])
    func nonFiniteReals(_ text: String) {
        let (_, diagnostics) = read(plist("<real>\(text)</real>"))
        #expect(diagnostics == ["test.plist:3:1: error: '\(text)' is not a finite number; nan and inf are not allowed"])
    }

    @Test("reals parse decimal and exponent forms")
    func reals() {
        let (node, diagnostics) = read(plist("<real> 2.5e1 </real>"))
        #expect(diagnostics.isEmpty)
        guard case .real(let value)? = node?.value else { Issue.record("not a real"); return }
        #expect(value == 25)
    }

    @Test("dates are UTC instants; 2026-02-30 is not a date")
    func dates() {
        let (node, diagnostics) = read(plist("<date>2026-11-22T08:00:00Z</date>"))
        #expect(diagnostics.isEmpty)
        guard case .date(let seconds)? = node?.value else { Issue.record("not a date"); return }
        // 2026-11-22T08:00:00Z, checked with `date -u -d 2026-11-22T08:00:00Z +%s`.
        #expect(seconds == 1_795_334_400)
        let (_, bad) = read(plist("<date>2026-02-30T08:00:00Z</date>"))
        #expect(bad.count == 1 && bad[0].contains("is not a plist date"))
    }

    @Test("data is base64")
    func data() {
        let (node, diagnostics) = read(plist("<data>\n  aGVs\n  bG8=\n</data>"))
        #expect(diagnostics.isEmpty)
        guard case .data(let bytes)? = node?.value else { Issue.record("not data"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == "hello")
        let (_, bad) = read(plist("<data>not*base64</data>"))
        #expect(bad == ["test.plist:3:1: error: <data> is not valid base64"])
    }

    @Test("booleans are empty elements")
    func booleans() {
        let (node, diagnostics) = read(plist("<array><true/><false></false></array>"))
        #expect(diagnostics.isEmpty)
        guard case .array(let items)? = node?.value, items.count == 2,
              case .boolean(true) = items[0].value, case .boolean(false) = items[1].value
        else { Issue.record("not [true, false]"); return }
        let (_, bad) = read(plist("<true>yes</true>"))
        #expect(bad == ["test.plist:3:1: error: <true/> must be empty"])
    }

    @Test("dicts pair keys with values and report duplicates, lone keys and lone values")
    func dictionaries() {
        let xml = plist("""
        <dict>
          <key>a</key>
          <integer>1</integer>
          <key>a</key>
          <integer>2</integer>
          <string>lonely value</string>
          <key>b</key>
        </dict>
        """)
        let (node, diagnostics) = read(xml)
        #expect(diagnostics == [
            "test.plist:6:3: error: duplicate key 'a'\ntest.plist:4:3: note: 'a' first appears here",
            "test.plist:8:3: error: <string> inside <dict> has no <key> before it",
            "test.plist:9:3: error: key 'b' has no value after it",
        ])
        guard case .dictionary(let dictionary)? = node?.value else { Issue.record("not a dict"); return }
        #expect(dictionary.entries.map(\.key) == ["a"])
        guard case .integer(1)? = dictionary["a"]?.value.value else { Issue.record("first value must win"); return }
    }

    @Test("repeated keys are found as the first value's key, before and after a dictionary holds too many keys to compare one by one")
    func repeatedKeysInLargeDictionaries() {
        // One key a line, from line 4 (the plist's header takes three): key k<n> on line
        // 4 + n. k3 is repeated while the keys are still compared in place, k3 and k19
        // again once a dictionary of them is kept.
        let count = PlistReader.keysComparedInPlace + 4
        var keys = (0..<count).map { "k\($0)" }
        keys.insert("k3", at: 5)
        keys += ["k3", "k19", "k\(count)"]
        let xml = plist("<dict>\n" + keys.map { "<key>\($0)</key><integer>1</integer>\n" }.joined() + "</dict>")
        let (node, diagnostics) = read(xml)
        let repeatLines = keys.indices.filter { keys[..<$0].contains(keys[$0]) }.map { $0 + 4 }
        #expect(repeatLines.count == 3)
        #expect(diagnostics == zip(repeatLines, ["k3", "k3", "k19"]).map { line, key in
            "test.plist:\(line):1: error: duplicate key '\(key)'\ntest.plist:\(keys.firstIndex(of: key)! + 4):1: note: '\(key)' first appears here"
        })
        guard case .dictionary(let dictionary)? = node?.value else { Issue.record("not a dict"); return }
        #expect(dictionary.entries.map(\.key) == (0...count).map { "k\($0)" })
    }

    @Test("every node knows its line and column, counted in Unicode scalars")
    func locations() {
        let xml = plist("<dict>\n\t<key>é</key> <string>x</string>\n  <key>💡</key><array>\n    <integer>1</integer></array>\n</dict>")
        let (node, diagnostics) = read(xml)
        #expect(diagnostics.isEmpty)
        guard case .dictionary(let dictionary)? = node?.value else { Issue.record("not a dict"); return }
        #expect(node?.location == SourceLocation(path: "test.plist", line: 3, column: 1))
        #expect(dictionary.entries[0].keyLocation == SourceLocation(path: "test.plist", line: 4, column: 2))
        #expect(dictionary.entries[0].value.location == SourceLocation(path: "test.plist", line: 4, column: 15))
        #expect(dictionary.entries[1].keyLocation == SourceLocation(path: "test.plist", line: 5, column: 3))
        #expect(dictionary.entries[1].value.location == SourceLocation(path: "test.plist", line: 5, column: 15))
        guard case .array(let items) = dictionary.entries[1].value.value else { Issue.record("not an array"); return }
        #expect(items[0].location == SourceLocation(path: "test.plist", line: 6, column: 5))
    }

    @Test("unknown elements get a suggestion")
    func unknownElement() {
        let (_, diagnostics) = read(plist("<array><strng>x</strng></array>"))
        #expect(diagnostics == ["test.plist:3:8: error: unknown property-list element <strng>; did you mean 'string'?"])
    }

    @Test("the root must be <plist> holding one value")
    func rootShape() {
        #expect(read("<dict/>").1 == ["test.plist:1:1: error: the root element must be <plist>, found <dict>"])
        #expect(read("<plist/>").1 == ["test.plist:1:1: error: <plist> holds no value; expected one <dict>"])
        #expect(read("<plist><dict/><dict/></plist>").1 == [
            "test.plist:1:15: error: <plist> must hold exactly one value; this one is extra",
        ])
    }

    /// A value as a short text: `[…]`, `{key: …}`, strings quoted, `invalid` for reported ones.
    static func outline(_ node: PlistNode?) -> String {
        guard let node else { return "nil" }
        switch node.value {
        case .string(let text): return "\"\(text)\""
        case .integer(let value): return "\(value)"
        case .real(let value): return "\(value)"
        case .boolean(let value): return "\(value)"
        case .date(let seconds): return "date \(seconds)"
        case .data(let bytes): return "data \(bytes.count)"
        case .array(let items): return "[" + items.map { outline($0) }.joined(separator: ", ") + "]"
        case .dictionary(let dictionary):
            return "{" + dictionary.entries.map { "\($0.key): \(outline($0.value))" }.joined(separator: ", ") + "}"
        case .invalid: return "invalid"
        }
    }

    /// Whitespace, comments, CDATA and namespaces around and inside elements, as the reader
    /// sees them. The expectations were read off the reader built on libxml2's own tree
    /// before the reader moved to a tape, and agree with it.
    @Test("structure: whitespace, comments, CDATA and namespaces around elements", arguments: [
        ("<array>\n  <true/> <!-- c -->\n\t<false/>\r\n</array>", "[true, false]", [String]()),
        ("<array>x<!-- c -->y</array>", "[]", [
            "test.plist:3:1: error: unexpected text inside <array>; expected only elements",
            "test.plist:3:1: error: unexpected text inside <array>; expected only elements",
        ]),
        ("<array> <true/> x <false/> </array>", "[true, false]", ["test.plist:3:1: error: unexpected text inside <array>; expected only elements"]),
        ("<array><![CDATA[ ]]><true/><![CDATA[x]]></array>", "[true]", ["test.plist:3:1: error: unexpected text inside <array>; expected only elements"]),
        ("<array><string> </string><string><![CDATA[ a ]]> <!-- c --> <![CDATA[b]]></string><key>  </key></array>", "[\" \", \" a   b\", invalid]", [
            "test.plist:3:83: error: <key> inside <dict> has no <key> before it",
        ]),
        ("<array><string>a <true/> b</string><string> <!-- c --> </string></array>", "[invalid, \"  \"]", [
            "test.plist:3:18: error: <string> may hold only text, not elements",
        ]),
        ("<array><true> <!-- c --> <![CDATA[ ]]></true><true><![CDATA[x]]></true><false> <true/> </false></array>", "[true, invalid, invalid]", [
            "test.plist:3:46: error: <true/> must be empty",
            "test.plist:3:72: error: <false/> must be empty",
        ]),
        ("<dict> <key>a</key> <!-- c --> <integer> 7 </integer>\n<key> b </key><dict/> </dict>", "{a: 7,  b : {}}", [String]()),
        ("<array><x:dict/><dict xmlns=\"urn:a\"/><a:true xmlns:a=\"urn:a\"/></array>", "[invalid, invalid, invalid]", [
            "test.plist:3:8: error: unknown property-list element <x:dict>; did you mean 'dict'?",
            "test.plist:3:17: error: unknown property-list element <dict>",
            "test.plist:3:38: error: unknown property-list element <true>",
        ]),
        ("<array><array><array/><array><integer>1</integer></array></array><string/></array>", "[[[], [1]], \"\"]", [String]()),
    ])
    func structure(_ body: String, _ expectedOutline: String, _ expectedDiagnostics: [String]) {
        let (node, diagnostics) = read(plist(body))
        #expect(Self.outline(node) == expectedOutline)
        #expect(diagnostics == expectedDiagnostics)
    }
}

@Suite("Plist reader: hostile and broken input")
struct PlistSafetyTests {
    @Test("an external file entity is refused and the file's content appears nowhere")
    func externalFileEntity() throws {
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
        <plist version="1.0"><string>&secret;</string></plist>
        """
        let (node, diagnostics) = read(xml)
        #expect(node == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].hasPrefix("test.plist:2:17: error: refused XML"))
        #expect(!diagnostics[0].contains("root:"))
    }

    /// libxml2 reads a `[` after the DOCTYPE's `>` as an internal subset too. Its comments
    /// and declarations were once parsed into a subset that did not exist, leaking them
    /// (found by the reader fuzzer under LeakSanitizer), and ended as "DOCTYPE improperly
    /// terminated"; they are refused as an internal subset now, at the `[`.
    @Test("an internal subset after the DOCTYPE's closing '>' is refused at its '['", arguments: [
        "<!-- a comment -->", "<!ELEMENT plist ANY>", "<!ATTLIST plist version CDATA #IMPLIED>",
        "<!ATTLIST plist kind (a|b) 'a'>", "<!NOTATION n SYSTEM 'x'>",
    ])
    func subsetAfterDoctype(declaration: String) throws {
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">[\(declaration)]
        <plist version="1.0"><dict/></plist>
        """
        let (node, diagnostics) = read(xml)
        #expect(node == nil)
        #expect(diagnostics == ["test.plist:2:103: error: refused XML: a DOCTYPE internal subset is not allowed (it could declare entities)"])
    }

    @Test("an entity declared outside an internal subset cannot be used either")
    func undeclaredEntityWithoutDoctype() {
        let (node, diagnostics) = read("<plist><string>&nbsp;</string></plist>")
        #expect(node == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].hasPrefix("test.plist:1:"))
        #expect(diagnostics[0].contains("nbsp"))
    }

    @Test("billion laughs fails at once", .timeLimit(.minutes(3)))
    func billionLaughs() throws {
        let url = TestEnvironment.invalidExamples.appendingPathComponent("billion-laughs.plist")
        let (node, diagnostics) = read(String(decoding: try Data(contentsOf: url), as: UTF8.self))
        #expect(node == nil)
        #expect(diagnostics.count == 1)
    }

    @Test("mismatched tags are not recovered")
    func mismatchedTags() {
        let (node, diagnostics) = read("<plist>\n<dict>\n<key>a</key><string>b</strin>\n</dict></plist>")
        #expect(node == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].hasPrefix("test.plist:3:"))
        #expect(diagnostics[0].contains("malformed XML"))
    }

    @Test("nesting beyond the cap is an error at the element that crosses it")
    func nestingCap() {
        let reader = PlistReader(maximumDepth: 5)
        let (okNode, okDiagnostics) = read("<plist><array><array><array><array/></array></array></array></plist>", reader: reader)
        #expect(okNode != nil && okDiagnostics.isEmpty)
        let (node, diagnostics) = read("<plist><array><array><array><array><array/></array></array></array></array></plist>", reader: reader)
        #expect(node == nil)
        #expect(diagnostics == ["test.plist:1:36: error: elements nest deeper than the limit of 5 levels"])
    }

    @Test("values beyond the cap are an error at the first one past it; keys count, since a key outside a dict is a value")
    func valueCap() {
        let reader = PlistReader(maximumValues: 6)
        // plist, dict, two keys, string, integer: six elements.
        let fits = "<plist><dict><key>a</key><string>x</string><key>b</key><integer>1</integer></dict></plist>"
        let (okNode, okDiagnostics) = read(fits, reader: reader)
        #expect(okNode != nil && okDiagnostics.isEmpty)
        let (node, diagnostics) = read("<plist><array><key/><key/><true/><false/>\n  <key/></array></plist>", reader: reader)
        #expect(node == nil)
        #expect(diagnostics == [
            "test.plist:2:3: error: the input holds more than 6 values at once, more than any file remindc reads needs; it is read no further",
        ])
        #expect(PlistReader().maximumValues == 2_000_000)
    }

    @Test("input beyond the size cap is refused before parsing")
    func sizeCap() {
        let padding = String(repeating: " ", count: 2000)
        let reader = PlistReader(maximumInputBytes: 1000)
        let (node, diagnostics) = read("<plist><dict/>\(padding)</plist>", reader: reader)
        #expect(node == nil)
        #expect(diagnostics == ["test.plist:1:1: error: the input is larger than the limit of 1000 bytes"])
    }

    @Test("the default size cap is 32 MiB")
    func defaultSizeCap() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: 32 * 1024 * 1024 + 1)
        var diagnostics = DiagnosticCollector()
        #expect(PlistReader().read(big, path: "big.plist", diagnostics: &diagnostics) == nil)
        #expect(diagnostics.diagnostics.map(\.message.id) == ["input.too-large"])
    }

    @Test("line numbers above 65535 are reported correctly, for libxml2's errors and ours")
    func bigLineNumbers() {
        let filler = String(repeating: "<!-- filler -->\n", count: 70_000)
        let (_, ours) = read("<plist>\n<dict>\n\(filler)<integer>1</integer>\n</dict>\n</plist>")
        #expect(ours == ["test.plist:70003:1: error: <integer> inside <dict> has no <key> before it"])
        let (_, libxml) = read("<plist>\n<dict>\n\(filler)<key>a</key><string>b</strin>\n</dict>\n</plist>")
        #expect(libxml.count == 1)
        #expect(libxml[0].hasPrefix("test.plist:70003:"))
    }

    @Test("invalid UTF-8 is a located error")
    func invalidUTF8() {
        var diagnostics = DiagnosticCollector()
        var bytes = Array("<plist>\n<string>Caf".utf8)
        bytes.append(0xE9)
        bytes += Array("</string></plist>".utf8)
        #expect(PlistReader().read(bytes, path: "x.plist", diagnostics: &diagnostics) == nil)
        #expect(diagnostics.sorted.map(\.formatted).first?.hasPrefix("x.plist:2:12: error: malformed XML") == true)
    }

    @Test("processing instructions and foreign DOCTYPEs are refused")
    func processingInstructionAndDoctype() {
        #expect(read("<plist><?php evil() ?><dict/></plist>").1 == [
            "test.plist:1:8: error: refused XML: processing instructions are not allowed",
        ])
        #expect(read("<!DOCTYPE html><plist><dict/></plist>").1 == ["test.plist:1:1: error: refused XML: the DOCTYPE must name 'plist'"])
        let apple = "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\"><plist><dict/></plist>"
        #expect(read(apple).1.isEmpty)
    }

    @Test("empty input and stray text are errors")
    func emptyAndText() {
        #expect(read("").1 == ["test.plist:1:1: error: the input is empty; expected a property list"])
        #expect(read("<plist><dict>hello</dict></plist>").1 == [
            "test.plist:1:8: error: unexpected text inside <dict>; expected only elements",
        ])
    }
}

/// libxml2 holds one text to 10 000 000 bytes; past it, the refusal names that limit at the
/// text's start instead of an internal error at its end.
@Suite("Texts past libxml2's limit")
struct LongTextTests {
    /// Each way of writing 11 MB of title that libxml2 mishandled: a plain run (an error at
    /// its end), lines, CDATA (one section, with lines, or eleven of 1 MiB: "Extra content
    /// at the end of the document"), non-ASCII text (the same), character references
    /// every 1 000 bytes (cut short without an error: "missing the required key
    /// 'schedule'"), and a comment inside (libxml2 stops at 12 MB with "Huge input
    /// lookup").
    static let longTitles: [(name: String, value: String)] = {
        let size = 11 << 20
        let line = String(repeating: "x", count: 79) + "\n"
        return [
            ("plain", String(repeating: "x", count: size)),
            ("lines", String(repeating: line, count: size / 80)),
            ("CDATA", "<![CDATA[" + String(repeating: "x", count: size) + "]]>"),
            ("CDATA with lines", "<![CDATA[" + String(repeating: line, count: size / 80) + "]]>"),
            ("eleven CDATA sections", String(repeating: "<![CDATA[" + String(repeating: "x", count: 1 << 20) + "]]>", count: 11)),
            ("non-ASCII", String(repeating: "é", count: size / 2)),
            ("references", String(repeating: String(repeating: "x", count: 995) + "&amp;", count: size / 1000)),
            ("a comment inside", String(repeating: "x", count: 6_000_000) + "<!-- > -->" + String(repeating: "x", count: 6_000_000)),
        ]
    }()

    @Test("an 11 MB title, however written, is one clear error where the title starts", arguments: 0..<8)
    func longTitle(_ index: Int) {
        let (name, value) = Self.longTitles[index]
        let prefix = "<plist version=\"1.0\"><dict><key>formatVersion</key><integer>1</integer><key>timeZone</key><string>UTC</string>\n<key>reminders</key><array><dict><key>id</key><string>a</string><key>title</key><string>"
        let xml = prefix + value + "</string><key>schedule</key><dict><key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array></dict></dict></array></dict></plist>"
        let result = ReminderCompiler.check(Array(xml.utf8), path: "big.plist")
        #expect(result.diagnostics.map(\.message.id) == ["xml.text-too-long"], "\(name): \(result.diagnostics.map(\.formatted))")
        // Where the text starts: just after `<string>`.
        #expect(result.diagnostics.first?.location.line == 2, "\(name)")
        #expect(result.diagnostics.first?.location.column == prefix.split(separator: "\n").last!.count + 1, "\(name)")
        #expect(result.diagnostics.first?.message.text.contains("10000000 bytes") == true)
    }

    @Test("the scan reads tags with quoted '>' and runs between tags, and leaves an open section to libxml2")
    func longTextScan() {
        let limit = 10
        func scan(_ text: String) -> Int? {
            let found = PlistReader.firstOverlong(in: Array(text.utf8), textLimit: limit, tagLimit: 1000)
            #expect(found == nil || found?.kind == .text)
            return found?.offset
        }
        #expect(scan("<a>0123456789</a>") == nil)
        #expect(scan("<a>01234567890</a>") == 3)
        #expect(scan("<a b='>>>>>>>>>>>>'>x</a>") == nil)
        #expect(scan("<a b=\">>>>>>>>>>>>>\">x</a><c>0123456789x") == 29)
        #expect(scan("<a>012<![CDATA[<>]]>34</a>") == 3)
        // libxml2 reads on through comments, so they count with the text around them.
        #expect(scan("<a>0<!--<><>--></a>") == 3)
        #expect(scan("<a>0123<!--x-->7890123</a>") == 3)
        // A section left open ends the scan, once the run before it is checked.
        #expect(scan("<a>0123<![CDATA[456789") == nil)
        #expect(scan("<a>01234567890<![CDATA[x") == 3)
        #expect(scan("<a>01234567890<!--x") == 3)
        #expect(scan("01234567890<a/>") == 0)
    }

    @Test("the scan finds the first tag past its limit, quoted or not, and reads an instruction to its '?>'")
    func longTagScan() {
        func scan(_ text: String) -> (offset: Int, kind: PlistReader.Overlong)? {
            PlistReader.firstOverlong(in: Array(text.utf8), textLimit: 1000, tagLimit: 10)
        }
        #expect(scan("<abcdefg>x</abcdefg>") == nil)
        #expect(scan("<a>x</a><abcdefghij>") ?? (0, .text) == (8, .tag))
        #expect(scan("<a b='>>>>>>>>'>") ?? (0, .text) == (0, .tagWithOpenQuote))
        #expect(scan("<a b='>' cdefgh>") ?? (0, .text) == (0, .tag))
        #expect(scan("<?a > > > > ?>") ?? (0, .text) == (0, .tag))
        // A quote left open reads on to the limit, and says so.
        #expect(scan("<a b='1>x</a><c>") ?? (0, .text) == (0, .tagWithOpenQuote))
        #expect(scan("<?a > > ?><b/>") == nil)
        // A tag left open is measured as far as it goes.
        #expect(scan("<a>x</a><abcdefghijklm") ?? (0, .text) == (8, .tag))
        #expect(scan("<a>x</a><abcdefghi") == nil)
    }

    /// Tags libxml2 mishandled: a million attributes (minutes: each is compared with those
    /// before it; 100 000 took 17.6 s), an 11 MB attribute value, name or instruction
    /// ("Huge input lookup" at the end), a 60 kB name ("invalid element name").
    static let longTags: [(name: String, tag: String)] = {
        let eleven = String(repeating: "a", count: 11_000_000)
        return [
            ("100 000 attributes", "<key " + (0..<100_000).map { "a\($0)=\"1\"" }.joined(separator: " ") + ">timeZone</key><string>UTC</string>"),
            ("an 11 MB attribute", "<key x=\"" + eleven + "\">timeZone</key><string>UTC</string>"),
            ("an 11 MB name", "<" + eleven + "/>"),
            ("a 60 kB name", "<" + String(repeating: "a", count: 60_000) + "/>"),
            ("an 11 MB instruction with '>' inside", "<?x " + String(repeating: "a>", count: 5_500_000) + "?>"),
        ]
    }()

    @Test("a tag past 4 KiB, however made, is one clear error where the tag starts", .timeLimit(.minutes(1)), arguments: 0..<5)
    func longTag(_ index: Int) {
        let (name, tag) = Self.longTags[index]
        let prefix = "<plist version=\"1.0\"><dict><key>formatVersion</key><integer>1</integer>\n  "
        let xml = prefix + tag + "</dict></plist>"
        let result = ReminderCompiler.check(Array(xml.utf8), path: "tag.plist")
        #expect(result.diagnostics.map(\.message.id) == ["xml.tag-too-long"], "\(name): \(result.diagnostics.map(\.formatted).joined().prefix(300))")
        #expect(result.diagnostics.first?.location.line == 2 && result.diagnostics.first?.location.column == 3, "\(name)")
        #expect(result.diagnostics.first?.message.text.contains("4096 bytes") == true)
    }

    @Test("a text just under the limit is read")
    func underTheLimit() {
        let title = String(repeating: "x", count: 9_999_000)
        let xml = "<plist version=\"1.0\"><dict><key>formatVersion</key><integer>1</integer><key>timeZone</key><string>UTC</string><key>reminders</key><array><dict><key>id</key><string>a</string><key>title</key><string>\(title)</string><key>schedule</key><dict><key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array></dict></dict></array></dict></plist>"
        let result = ReminderCompiler.check(Array(xml.utf8), path: "big.plist")
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.formatted).joined().prefix(300))")
        #expect(result.config?.reminders.first?.title.utf8.count == 9_999_000)
    }
}
