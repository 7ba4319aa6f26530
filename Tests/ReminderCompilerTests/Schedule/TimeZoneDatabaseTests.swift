import Foundation
import Testing
@testable import ReminderCompiler

@Suite("Zone database files")
struct TimeZoneDatabaseTests {
    /// A zone folder: `tzdata.zi` says `version`; `GMT+1` is a compiled zone file, `GMT+2`
    /// a table, `GMT+3` a folder. Foundation accepts all three names; only the first is a
    /// zone of this database.
    static func folder(version: String) throws -> URL {
        let folder = try TestEnvironment.scratchFolder()
        try Data(version.utf8).write(to: folder.appendingPathComponent("tzdata.zi"))
        try Data("TZif2 and the rest of a zone file".utf8).write(to: folder.appendingPathComponent("GMT+1"))
        try Data("# a table, not a zone\n".utf8).write(to: folder.appendingPathComponent("GMT+2"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("GMT+3"), withIntermediateDirectories: true)
        return folder
    }

    @Test("a name is a zone when its file is a compiled zone file")
    func zoneFiles() throws {
        let folder = try Self.folder(version: "# version 2031z\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = TimeZoneDatabase(zoneInfoDirectory: folder.path)
        #expect(database.contains("GMT+1"))
        #expect(!database.contains("GMT+2"))
        #expect(!database.contains("GMT+3"))
        #expect(!database.contains("GMT+4"))
        // Foundation's own list still answers for real names without a file here.
        #expect(database.contains("Europe/Berlin"))
        #expect(!database.contains("../GMT+1"))
    }

    @Test("the release is the version line of tzdata.zi, without surrounding blanks")
    func version() throws {
        for (line, expected) in [
            ("# version 2031z\n", "2031z"), ("# version  2031z \r\n# more", "2031z"), ("# version 2031z", "2031z"),
        ] {
            let folder = try Self.folder(version: line)
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(TimeZoneDatabase(zoneInfoDirectory: folder.path).version == expected, "\(line)")
        }
        // Without the file, or with another first line, Foundation's release (or none).
        let empty = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let fallback = TimeZoneDatabase(zoneInfoDirectory: empty.path).version
        #expect(fallback != "2031z")
        #expect(fallback == TimeZoneDatabase(zoneInfoDirectory: empty.path + "/missing").version)
    }
}
