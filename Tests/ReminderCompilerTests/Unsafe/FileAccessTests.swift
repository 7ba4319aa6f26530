import Foundation
import Testing
@testable import ReminderCompiler

@Suite("Whole files read with the C library")
struct FileAccessTests {
    /// Lengths around the 4 KiB step of the reader and around the limit: each file holds
    /// a counting pattern, so a step appended twice, dropped or shifted shows.
    @Test("a file is read whole up to the limit; longer, it is refused, or cut at the limit when truncating")
    func lengthsAroundStepsAndLimit() throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let limit = 3 * 4096 + 17
        for length in [0, 1, 4095, 4096, 4097, 8192, limit - 1, limit, limit + 1, limit + 4096, 5 * 4096] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251) }
            let path = folder.appendingPathComponent("file-\(length)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if length <= limit {
                #expect(FileAccess.contents(ofFileAt: path, limit: limit) == bytes, "\(length)")
                #expect(FileAccess.contents(ofFileAt: path, limit: limit, truncating: true) == bytes, "\(length)")
            } else {
                #expect(FileAccess.contents(ofFileAt: path, limit: limit) == nil, "\(length)")
                #expect(FileAccess.contents(ofFileAt: path, limit: limit, truncating: true) == Array(bytes.prefix(limit)), "\(length)")
            }
        }
        #expect(FileAccess.contents(ofFileAt: folder.path, limit: limit) == nil, "a folder")
        #expect(FileAccess.contents(ofFileAt: folder.appendingPathComponent("missing").path, limit: limit) == nil)
    }
}
