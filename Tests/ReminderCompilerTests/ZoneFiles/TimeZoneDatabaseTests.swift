import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("Zone database files")
struct TimeZoneDatabaseTests {
    /// A zone folder: `tzdata.zi` says `version`; `GMT+1` is a compiled zone file (the
    /// system's `Etc/GMT-1`, UTC+1), `GMT+2` a table, `GMT+3` a folder, `GMT+4` a zone
    /// file cut short. Foundation accepts all four names; only the first is a zone of
    /// this database.
    static func folder(version: String) throws -> URL {
        let folder = try TestEnvironment.scratchFolder()
        try Data(version.utf8).write(to: folder.appendingPathComponent("tzdata.zi"))
        let zoneFile = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Etc/GMT-1"))
        try zoneFile.write(to: folder.appendingPathComponent("GMT+1"))
        try zoneFile.prefix(zoneFile.count - 8).write(to: folder.appendingPathComponent("GMT+4"))
        try Data("# a table, not a zone\n".utf8).write(to: folder.appendingPathComponent("GMT+2"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("GMT+3"), withIntermediateDirectories: true)
        return folder
    }

    @Test("a name is a zone when its file is a whole compiled zone file, and its rules come from that file")
    func zoneFiles() throws {
        let folder = try Self.folder(version: "# version 2031z\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = TimeZoneDatabase(zoneInfoDirectory: folder.path)
        #expect(database.contains("GMT+1"))
        // The file's offset, not the one its name suggests (`Etc/GMT+1` is UTC−1).
        #expect(database.zone("GMT+1")?.offsetSeconds(at: 1_800_000_000) == 3600)
        #expect(!database.contains("GMT+2"))
        #expect(!database.contains("GMT+3"))
        #expect(!database.contains("GMT+4"))
        #expect(!database.contains("GMT+5"))
        // Every zone comes from this folder: a real name without a file here is unknown.
        #expect(!database.contains("Europe/Berlin"))
        #expect(!database.contains("../GMT+1"))
        #expect(database.zoneNames() == ["GMT+1"])
        #expect(database.suggestion(for: "gmt+1") == "GMT+1")
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
        // Without the file, or with another first line, none.
        let empty = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(TimeZoneDatabase(zoneInfoDirectory: empty.path).version == nil)
        #expect(TimeZoneDatabase(zoneInfoDirectory: empty.path + "/missing").version == nil)
        let otherLine = try Self.folder(version: "# ddeps backzone\n# version 2031z\n")
        defer { try? FileManager.default.removeItem(at: otherLine) }
        #expect(TimeZoneDatabase(zoneInfoDirectory: otherLine.path).version == nil)
        // Apple's systems name the release in `+VERSION`, which counts only without `tzdata.zi`.
        try Data("2031y \n".utf8).write(to: empty.appendingPathComponent("+VERSION"))
        #expect(TimeZoneDatabase(zoneInfoDirectory: empty.path).version == "2031y")
        try Data("2031y\n".utf8).write(to: otherLine.appendingPathComponent("+VERSION"))
        #expect(TimeZoneDatabase(zoneInfoDirectory: otherLine.path).version == nil)
        #expect(TimeZoneDatabase.system.version == TimeZoneDatabase(zoneInfoDirectory: "/usr/share/zoneinfo").version)
    }
}

extension TimeZoneDatabaseTests {
    @Test("a folder of links that loop back is listed once: the names are found, and the walk lists each of its four folders once, not 60³ of them")
    func linkLoops() throws {
        let folder = try Self.folder(version: "# version 2031z\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let europe = folder.appendingPathComponent("Europe")
        try FileManager.default.createDirectory(at: europe, withIntermediateDirectories: true)
        try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")).write(to: europe.appendingPathComponent("Berlin"))
        // Thirty links back to the database's root, and thirty to the loop's own folder:
        // followed blindly to the depth of three parts, that is 60³ folders to list.
        let loop = folder.appendingPathComponent("Loop")
        try FileManager.default.createDirectory(at: loop, withIntermediateDirectories: true)
        for index in 0..<30 {
            try FileManager.default.createSymbolicLink(atPath: loop.appendingPathComponent("up\(index)").path, withDestinationPath: "..")
            try FileManager.default.createSymbolicLink(atPath: loop.appendingPathComponent("here\(index)").path, withDestinationPath: ".")
        }
        let database = TimeZoneDatabase(zoneInfoDirectory: folder.path)
        let walk = database.zoneNamesWalk()
        #expect(walk.names == ["Europe/Berlin", "GMT+1"])
        #expect(walk.foldersListed == 4, "root, GMT+3, Europe and Loop")
        #expect(database.suggestion(for: "europe/berln") == "Europe/Berlin")
    }
}
