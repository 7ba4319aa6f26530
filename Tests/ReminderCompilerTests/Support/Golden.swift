import Foundation
import Testing

/// Compares `actual` with the golden file at `url`.
///
/// Golden files are re-recorded on purpose only: run the tests with `RECORD_GOLDEN=1`,
/// then read the changed files in `git diff` before committing them.
/// The tz database release a plan names is the host's: goldens hold a placeholder.
func expectGolden(_ actual: String, matches url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = actual.replacingOccurrences(
        of: #""tzdataVersion": "[^"]*""#, with: #""tzdataVersion": "(host)""#, options: .regularExpression
    )
    if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(actual.utf8).write(to: url)
        return
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
        Issue.record("missing golden file \(url.path); record it with RECORD_GOLDEN=1", sourceLocation: sourceLocation)
        return
    }
    let expected = String(decoding: data, as: UTF8.self)
    #expect(actual == expected, "differs from \(url.lastPathComponent)", sourceLocation: sourceLocation)
}
