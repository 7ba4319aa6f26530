import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Random damage to the examples: byte flips, truncations, tag swaps, deleted and
/// duplicated lines. The reader must neither crash nor hang, and must either accept the
/// result or report at least one located error.
enum Mutator {
    static let tags = ["dict", "array", "key", "string", "integer", "real", "true", "false", "date", "data", "plist"]

    static func mutate(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var result = bytes
        let rounds = Int.random(in: 1...3, using: &generator)
        for _ in 0..<rounds where !result.isEmpty {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:  // flip random bits of a byte
                let index = Int.random(in: 0..<result.count, using: &generator)
                result[index] ^= UInt8.random(in: 1...255, using: &generator)
            case 1:  // truncate
                result.removeLast(Int.random(in: 0..<result.count, using: &generator))
            case 2:  // swap one tag name for another
                var text = String(decoding: result, as: UTF8.self)
                let from = tags.randomElement(using: &generator)!
                let to = tags.randomElement(using: &generator)!
                let needle = Bool.random(using: &generator) ? "<\(from)" : "</\(from)"
                if let range = text.ranges(of: needle).randomElement(using: &generator) {
                    text.replaceSubrange(range, with: needle.hasPrefix("</") ? "</\(to)" : "<\(to)")
                }
                result = Array(text.utf8)
            case 3:  // delete a line
                var lines = result.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                lines.remove(at: Int.random(in: 0..<lines.count, using: &generator))
                result = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 4:  // duplicate a line
                var lines = result.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let index = Int.random(in: 0..<lines.count, using: &generator)
                lines.insert(lines[index], at: index)
                result = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            default:  // insert a random byte, sometimes a markup character
                let index = Int.random(in: 0...result.count, using: &generator)
                let choices: [UInt8] = [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0, 0xFF, 0xC3]
                result.insert(choices.randomElement(using: &generator)!, at: index)
            }
        }
        return result
    }
}

extension LongComputationTests {
    @Suite("Mutation")
    struct MutationTests {
        @Test("thousands of damaged examples never crash or hang the library", .timeLimit(.minutes(3)))
        func libraryNeverCrashes() async throws {
            let examples = try TestEnvironment.exampleConfigs().map { try TestEnvironment.bytes($0) }
            var generator = SeededGenerator(seed: 7)
            var rejected = 0
            for iteration in 0..<4000 {
                await Task.yield()  // let tests that await a child process have a thread
                let original = examples[iteration % examples.count]
                let mutated = Mutator.mutate(original, using: &generator)
                let result = ReminderCompiler.check(mutated, path: "m.plist", options: ConfigOptions(now: fixedNow))
                if result.config == nil {
                    rejected += 1
                    // A rejected file always says why, at a place inside the file.
                    let errors = result.diagnostics.filter { $0.severity == .error }
                    #expect(!errors.isEmpty)
                    for error in errors {
                        #expect(error.location.line >= 1 && error.location.column >= 1)
                    }
                } else {
                    #expect(!result.hasErrors)
                }
            }
            // Most damage must be caught; a few mutations (inside a comment, say) are harmless.
            #expect(rejected > 2000)
        }

        @Test("damaged examples make the built remindc exit 0 or 1, never crash", .timeLimit(.minutes(3)))
        func binaryExitsCleanly() async throws {
            let examples = try TestEnvironment.exampleConfigs().map { try TestEnvironment.bytes($0) }
            let scratch = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: scratch) }
            var generator = SeededGenerator(seed: 11)
            var paths: [String] = []
            for iteration in 0..<300 {
                let mutated = Mutator.mutate(examples[iteration % examples.count], using: &generator)
                let url = scratch.appendingPathComponent("m\(iteration).plist")
                try Data(mutated).write(to: url)
                paths.append(url.path)
            }
            // One file per run, so that each exit status is tested on its own.
            for path in paths.prefix(150) {
                let result = try await run(TestEnvironment.remindcExecutable, ["check", "--now", "2026-11-22T08:00:00Z", path])
                #expect(result.status == 0 || result.status == 1, "\(path): status \(result.status)")
                if result.status == 1 { #expect(result.standardError.contains(": error: ")) }
            }
            // And many files in one run.
            let result = try await run(TestEnvironment.remindcExecutable, ["check", "--now", "2026-11-22T08:00:00Z"] + paths)
            #expect(result.status == 1)
        }
    }
}

/// `MutationTests` under its short name, for the tests of other suites.
typealias MutationTests = LongComputationTests.MutationTests
