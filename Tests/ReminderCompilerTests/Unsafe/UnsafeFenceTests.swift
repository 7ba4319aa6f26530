import Foundation
import Testing

/// The unsafe code of the library and of the command line stays behind a fence. The
/// compiler marks every unsafe construct it cannot prove safe (`strictMemorySafety`, its
/// warnings made errors in Package.swift); these tests hold the marks, and the other
/// escapes from Swift's checks, to each target's `Unsafe` folder, and hold that setting in
/// place.
@Suite("Unsafe code is fenced")
struct UnsafeFenceTests {
    /// A target with a fence, and how much the walk must see on each side of it (so that
    /// it cannot pass by reading an empty or moved folder).
    struct FencedTarget: CustomTestStringConvertible, Sendable {
        let name: String
        let filesOutsideAtLeast: Int
        let filesInsideAtLeast: Int

        var folder: URL { TestEnvironment.repositoryRoot.appendingPathComponent("Sources/\(name)") }
        var testDescription: String { name }
    }

    static let targets = [
        FencedTarget(name: "ReminderCompiler", filesOutsideAtLeast: 50, filesInsideAtLeast: 10),
        FencedTarget(name: "remindc", filesOutsideAtLeast: 15, filesInsideAtLeast: 1),
        FencedTarget(name: "remindc-benchmark", filesOutsideAtLeast: 2, filesInsideAtLeast: 1),
        // The service has no fence: nothing in it may use an unsafe construct.
        FencedTarget(name: "RemindcServer", filesOutsideAtLeast: 1, filesInsideAtLeast: 0),
    ]

    /// What turns a check off: the `unsafe` mark and `@safe` (which vouches for a type), an
    /// `Unsafe…` type, unchecked sendability or exclusivity, and unsafe standard-library calls.
    static var escapes: Regex<AnyRegexOutput> {
        try! Regex(
            #"\bunsafe\b|@safe\b|@unsafe\b|@unchecked\b|\(unchecked\)|\bUnsafe[A-Z]\w*|\bwithUnsafe\w*|\bunsafeBitCast\b|unsafeUninitializedCapacity|\bOpaquePointer\b|\.pointee\b"#
        ).wordBoundaryKind(.simple)  // Unicode's word boundaries join `bytes.withUnsafe…` into one word
    }

    /// The Swift files of a target, relative to its folder.
    static func swiftFiles(in folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    /// A line's code, without a `//` comment (string literals in these targets hold no
    /// `//` followed by these words).
    static func code(of line: Substring) -> Substring {
        guard let comment = line.firstRange(of: "//") else { return line }
        return line[..<comment.lowerBound]
    }

    @Test("no file outside Unsafe/ uses or vouches for an unsafe construct", arguments: targets)
    func escapesOnlyInsideTheFence(_ target: FencedTarget) throws {
        let files = try Self.swiftFiles(in: target.folder)
        var fenced = 0
        var outside = 0
        for file in files {
            let text = String(decoding: try TestEnvironment.bytes(target.folder.appendingPathComponent(file)), as: UTF8.self)
            let found = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { _, line in
                Self.code(of: line).contains(Self.escapes)
            }
            if file.hasPrefix("Unsafe/") {
                if !found.isEmpty { fenced += 1 }
            } else {
                outside += 1
                for (index, line) in found {
                    Issue.record("\(target.name)/\(file):\(index + 1): unsafe code outside Unsafe/: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        // The walk saw the target and its fence, not an empty folder.
        #expect(outside >= target.filesOutsideAtLeast)
        #expect(fenced >= target.filesInsideAtLeast)
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

    @Test("the target is compiled with strict memory safety, its warnings errors", arguments: targets)
    func strictMemorySafetyIsOn(_ fenced: FencedTarget) throws {
        let manifest = String(decoding: try TestEnvironment.bytes(TestEnvironment.repositoryRoot.appendingPathComponent("Package.swift")), as: UTF8.self)
        let target = try #require(manifest.firstRange(of: try Regex(#"\.(target|executableTarget)\(\s*name: "\#(fenced.name)","#)))
        let rest = manifest[target.upperBound...]
        // The target's declaration ends where the next element of `targets:` starts, at the
        // same indentation.
        let declaration = rest[..<(rest.firstRange(of: try Regex(#"\n {8}\.\w+\("#))?.lowerBound ?? rest.endIndex)]
        #expect(declaration.contains(".strictMemorySafety()"))
        #expect(declaration.contains(#".treatWarning("StrictMemorySafety", as: .error)"#))
    }
}
