import Foundation
import Testing

/// The library's unsafe code stays behind its fence. The compiler marks every unsafe
/// construct it cannot prove safe (`strictMemorySafety`, its warnings made errors in
/// Package.swift); these tests hold the marks, and the other escapes from Swift's checks,
/// to `Sources/ReminderCompiler/Unsafe`, and hold that setting in place.
@Suite("Unsafe code is fenced")
struct UnsafeFenceTests {
    static let sources = TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler")

    /// What turns a check off: the `unsafe` mark and `@safe` (which vouches for a type), an
    /// `Unsafe…` type, unchecked sendability or exclusivity, and unsafe standard-library calls.
    static var escapes: Regex<AnyRegexOutput> {
        try! Regex(
            #"\bunsafe\b|@safe\b|@unsafe\b|@unchecked\b|\(unchecked\)|\bUnsafe[A-Z]\w*|\bwithUnsafe\w*|\bunsafeBitCast\b|unsafeUninitializedCapacity|\bOpaquePointer\b|\.pointee\b"#
        ).wordBoundaryKind(.simple)  // Unicode's word boundaries join `bytes.withUnsafe…` into one word
    }

    /// The Swift files of the library, relative to its folder.
    static func swiftFiles() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    /// A line's code, without a `//` comment (string literals in the library hold no `//`
    /// followed by these words).
    static func code(of line: Substring) -> Substring {
        guard let comment = line.firstRange(of: "//") else { return line }
        return line[..<comment.lowerBound]
    }

    @Test("no file outside Unsafe/ uses or vouches for an unsafe construct")
    func escapesOnlyInsideTheFence() throws {
        let files = try Self.swiftFiles()
        var fenced = 0
        var outside = 0
        for file in files {
            let text = String(decoding: try TestEnvironment.bytes(Self.sources.appendingPathComponent(file)), as: UTF8.self)
            let found = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { _, line in
                Self.code(of: line).contains(Self.escapes)
            }
            if file.hasPrefix("Unsafe/") {
                if !found.isEmpty { fenced += 1 }
            } else {
                outside += 1
                for (index, line) in found {
                    Issue.record("\(file):\(index + 1): unsafe code outside Unsafe/: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        // The walk saw the library and its fence, not an empty folder.
        #expect(outside > 50)
        #expect(fenced >= 10)
    }

    @Test("the pattern finds each kind of escape, and not ordinary code")
    func patternFindsEscapes() {
        for line in [
            "let x = unsafe pointer.pointee", "@safe final class Buffer {", "final class A: @unchecked Sendable {",
            "func f(_ p: UnsafeRawPointer)", "bytes.withUnsafeBufferPointer { }", "nonisolated(unsafe) var x = 0",
            "@exclusivity(unchecked) var y: [Int]", "let v = unsafeBitCast(a, to: B.self)", "let o: OpaquePointer",
        ] {
            #expect(Self.code(of: Substring(line)).contains(Self.escapes), "\(line)")
        }
        for line in ["let safeCount = 1", "// the unsafe code lives in Unsafe/", "let span = bytes.span"] {
            #expect(!Self.code(of: Substring(line)).contains(Self.escapes), "\(line)")
        }
    }

    @Test("the library is compiled with strict memory safety, its warnings errors")
    func strictMemorySafetyIsOn() throws {
        let manifest = String(decoding: try TestEnvironment.bytes(TestEnvironment.repositoryRoot.appendingPathComponent("Package.swift")), as: UTF8.self)
        let target = try #require(manifest.firstRange(of: try Regex(#"\.target\(\s*name: "ReminderCompiler","#)))
        let rest = manifest[target.upperBound...]
        // The target's declaration ends where the next one starts.
        let declaration = rest[..<(rest.firstRange(of: ".target(")?.lowerBound ?? rest.endIndex)]
        #expect(declaration.contains(".strictMemorySafety()"))
        #expect(declaration.contains(#".treatWarning("StrictMemorySafety", as: .error)"#))
    }
}
