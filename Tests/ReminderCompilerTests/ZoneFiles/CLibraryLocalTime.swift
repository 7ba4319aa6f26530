import Foundation
import Testing

/// The C library's local time (glibc's tzfile and TZ-string code, through Python's time
/// module): an independent reader of the zone files and TZ strings remindc reads.
enum CLibraryLocalTime {
    /// Compares local times: for each `TZ` value (`:Europe/Berlin` for a zone file, or a
    /// TZ string) the instants, and the offset and daylight-saving flag expected at each.
    /// Records an issue for each `TZ` value on which the C library disagrees.
    /// - Returns: the number of instants compared.
    @discardableResult
    static func expectAgreement(_ cases: [(tz: String, instants: [Int64], expected: [(offset: Int, isDaylightSaving: Bool)])]) async throws -> Int {
        let python = try #require(Python.executable)
        let script = """
        import os, sys, time
        for line in sys.stdin:
            tz, *instants = line.split()
            os.environ["TZ"] = tz
            time.tzset()
            print(*(f"{t.tm_gmtoff},{t.tm_isdst}" for t in (time.localtime(int(i)) for i in instants)))
        """
        let request = cases.map { ([$0.tz] + $0.instants.map(String.init)).joined(separator: " ") + "\n" }.joined()
        let result = try await run(python, ["-c", script], input: Data(request.utf8))
        try #require(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == cases.count)
        for (item, line) in zip(cases, lines) {
            let ours = item.expected.map { "\($0.offset),\($0.isDaylightSaving ? 1 : 0)" }
            let theirs = line.split(separator: " ").map(String.init)
            guard ours != theirs else { continue }
            let differing = zip(item.instants, zip(ours, theirs)).filter { $0.1.0 != $0.1.1 }.prefix(3)
            Issue.record("\(item.tz): \(differing.map { "\($0.0): \($0.1.0) against \($0.1.1)" })")
        }
        return cases.map(\.instants.count).reduce(0, +)
    }
}
