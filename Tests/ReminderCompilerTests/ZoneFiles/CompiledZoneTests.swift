import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The zone files read by remindc against Foundation's zones, which come from ICU's own
/// copy of the tz database (the same release here, compiled and read by other code).
@Suite("Compiled zone files")
struct CompiledZoneTests {
    static let database = TimeZoneDatabase.system

    /// The TZif files under the system's zone folder, by name, as a reader that knows
    /// nothing of remindc's rules lists them.
    static func zoneFileNames() -> [String] {
        let root = "/usr/share/zoneinfo"
        var names: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            guard let handle = FileHandle(forReadingAtPath: root + "/" + name) else { continue }
            defer { try? handle.close() }
            if (try? handle.read(upToCount: 4)) == Data("TZif".utf8) { names.append(name) }
        }
        return names.sorted()
    }

    @Test("the zones are the zone files Foundation also knows: not posix/, right/, localtime or posixrules")
    func sameNamesAsFoundation() throws {
        let files = Self.zoneFileNames()
        try #require(files.count > 400, "the tzdata package is missing")
        let expected = files.filter { TimeZone(identifier: $0) != nil }
        #expect(Self.database.zoneNames() == expected)
        for name in files {
            #expect(Self.database.contains(name) == expected.contains(name), "\(name)")
        }
        for name in TimeZone.knownTimeZoneIdentifiers {
            #expect(Self.database.contains(name), "\(name)")
        }
        for name in ["right/Europe/Berlin", "posix/Europe/Berlin", "localtime", "posixrules"] {
            #expect(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name))
            #expect(!Self.database.contains(name), "\(name)")
        }
    }

    /// Instants to compare in a zone: each change its file lists and the second before
    /// it, 300 instants up to the year 9999 (which the footer's rule decides), and the
    /// changes of the years a plan is most often made for.
    static func instants(in rules: ZoneRules, generator: inout SeededGenerator) -> [Int64] {
        var instants = rules.compiled.transitions.flatMap { [$0 - 1, $0] }
        for _ in 0..<300 { instants.append(Int64.random(in: 0...253_402_300_799, using: &generator)) }
        var instant: Int64 = 1_900_000_000
        for _ in 0..<24 {
            // The next change within a year, found by halving.
            var low = instant
            var high = instant + 366 * 86_400
            guard rules.compiled.localTime(at: high) != rules.compiled.localTime(at: low) else { instant = high; continue }
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if rules.compiled.localTime(at: middle) == rules.compiled.localTime(at: low) { low = middle } else { high = middle }
            }
            instants += [low, high]
            instant = high
        }
        return instants
    }

    @Test("offsets and daylight-saving flags agree with the C library's reading of the same files, in every zone")
    func offsetsAgreeWithTheCLibrary() async throws {
        var generator = SeededGenerator(seed: 8536)
        var cases: [(tz: String, instants: [Int64], expected: [(offset: Int, isDaylightSaving: Bool)])] = []
        for name in Self.database.zoneNames() {
            let rules = try #require(Self.database.zone(name))
            let instants = Self.instants(in: rules, generator: &generator)
            cases.append((":" + name, instants, instants.map { (rules.offsetSeconds(at: $0), rules.isDaylightSavingTime(at: $0)) }))
        }
        #expect(try await CLibraryLocalTime.expectAgreement(cases) > 200_000)
    }

    /// Where the tz release the files hold and the copy in Foundation's ICU part ways:
    /// `EET` and `WET` are links to Europe/Athens and Europe/Lisbon since 2024b, and
    /// these zones' files count winter time as the daylight-saving one (a negative
    /// saving), where ICU keeps the older reading.
    static let redefinedZones: Set = ["EET", "WET"]
    static let negativeSavingZones: Set = ["Africa/Casablanca", "Africa/El_Aaiun", "Africa/Windhoek", "Eire", "Europe/Dublin"]

    @Test("from 1970 on, offsets agree with Foundation's in every zone but those the tz release redefined")
    func offsetsAgreeWithFoundation() throws {
        var generator = SeededGenerator(seed: 5545)
        var compared = 0
        for name in Self.database.zoneNames() {
            let rules = try #require(Self.database.zone(name))
            let reference = try #require(TimeZone(identifier: name))
            var offsetsDiffer = false
            var flagsDiffer = false
            // Before 1970, the files hold the history of zones ICU merges into others.
            for instant in Self.instants(in: rules, generator: &generator) where instant >= 0 {
                let date = Date(timeIntervalSince1970: TimeInterval(instant))
                offsetsDiffer = offsetsDiffer || rules.offsetSeconds(at: instant) != reference.secondsFromGMT(for: date)
                flagsDiffer = flagsDiffer || rules.isDaylightSavingTime(at: instant) != reference.isDaylightSavingTime(for: date)
                compared += 1
            }
            #expect(offsetsDiffer == Self.redefinedZones.contains(name), "\(name)")
            #expect(flagsDiffer == (Self.redefinedZones.contains(name) || Self.negativeSavingZones.contains(name)), "\(name)")
        }
        #expect(compared > 100_000)
    }

    @Test("damaged zone files are refused or read, never trap")
    func damagedFiles() throws {
        var generator = SeededGenerator(seed: 44)
        var refused = 0
        for name in ["Europe/Berlin", "America/Nuuk", "Australia/Lord_Howe", "UTC"] {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name)))
            for round in 0..<500 {
                var bytes = original
                switch round % 3 {
                case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
                case 1:
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                    }
                default:
                    // Counts in the headers set to extremes.
                    let position = [20, 24, 28, 32, 36, 40].randomElement(using: &generator)!
                    bytes.replaceSubrange(position..<position + 4, with: [0x7F, 0xFF, 0xFF, UInt8.random(in: 0...255, using: &generator)])
                }
                guard let zone = CompiledZone(bytes) else {
                    refused += 1
                    continue
                }
                for instant in [Int64.min, -1, 0, 1_800_000_000, 253_402_300_799, Int64.max] { _ = zone.localTime(at: instant) }
            }
        }
        #expect(refused > 500)
    }
}
