import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's IANA time-zone database, as Foundation and `/usr/share/zoneinfo` see it.
///
/// Foundation's `TimeZone(identifier:)` also accepts invented names such as `GMT+1`;
/// remindc accepts only names of the tz database, so a config means the same on every
/// machine.
public struct TimeZoneDatabase: Sendable {
    /// The database of this system.
    public static let system = TimeZoneDatabase()

    private let zoneInfoDirectory: String

    /// A database reading zone files from `zoneInfoDirectory` where they exist.
    public init(zoneInfoDirectory: String = "/usr/share/zoneinfo") {
        self.zoneInfoDirectory = zoneInfoDirectory
    }

    /// Foundation's list of zone names; asked for only when the zone files do not settle a
    /// question, since building it costs milliseconds at every start.
    private var knownIdentifiers: [String] { TimeZone.knownTimeZoneIdentifiers.sorted() }

    /// The tz database's release (`2025b`): the `# version` line of `tzdata.zi` beside the
    /// zone files, else Foundation's, else nil. Computed once: it reads a file.
    public var version: String? {
        if zoneInfoDirectory == Self.system.zoneInfoDirectory { return Self.systemVersion }
        return Self.readVersion(zoneInfoDirectory)
    }

    private static let systemVersion = readVersion(TimeZoneDatabase.system.zoneInfoDirectory)

    private static func readVersion(_ directory: String) -> String? {
        if let head = leadingBytes(ofFileAt: directory + "/tzdata.zi", count: 64) {
            let firstLine = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
            let line = String(decoding: firstLine, as: UTF8.self)
            if line.hasPrefix("# version ") {
                var version = line.dropFirst("# version ".count)
                while version.first?.isWhitespace == true { version = version.dropFirst() }
                while version.last?.isWhitespace == true { version = version.dropLast() }
                if !version.isEmpty, version.utf8.count <= 16 { return String(version) }
            }
        }
        let foundation = TimeZone.timeZoneDataVersion
        return foundation.isEmpty ? nil : foundation
    }

    /// Whether `name` is a zone of the tz database (`Europe/Berlin`, `UTC`, `US/Eastern`).
    public func contains(_ name: String) -> Bool {
        zone(name) != nil
    }

    /// The zone's rules, or nil for a name the database does not hold.
    public func zone(_ name: String) -> ZoneRules? {
        guard let timeZone = TimeZone(identifier: name),
              isZoneInfoFile(name) || TimeZone.knownTimeZoneIdentifiers.contains(name)
        else { return nil }
        return ZoneRules(name: name, timeZone: timeZone)
    }

    /// The closest known name, for "did you mean" messages.
    public func suggestion(for name: String) -> String? {
        if let exact = knownIdentifiers.first(where: { $0.lowercased() == name.lowercased() }) { return exact }
        return closestMatch(to: name, in: knownIdentifiers)
    }

    private func isZoneInfoFile(_ name: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-/")
        guard !name.isEmpty, name.allSatisfy(allowed.contains), !name.hasPrefix("/"),
              !name.split(separator: "/").contains(where: { $0.hasPrefix(".") || $0.isEmpty })
        else { return false }
        // Only compiled zone files (TZif), not the tables that share the folder; a folder
        // cannot be read.
        return Self.leadingBytes(ofFileAt: zoneInfoDirectory + "/" + name, count: 4) == Array("TZif".utf8)
    }

    /// Up to `count` bytes from the start of the file at `path`; nil when it cannot be read
    /// (missing, a folder). Read with the C library: Foundation's file handles cost more
    /// to set up than the read, at every start.
    private static func leadingBytes(ofFileAt path: String, count: Int) -> [UInt8]? {
        // Non-blocking, so that a pipe by a zone's name cannot hold the command up.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let length = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, count) }
        guard length >= 0 else { return nil }
        return Array(bytes[..<length])
    }
}

/// One zone's offsets from UTC.
public struct ZoneRules: Sendable {
    /// The tz database name.
    public let name: String
    let timeZone: TimeZone

    /// The UTC offset in seconds at an instant (seconds since 1970 UTC).
    public func offsetSeconds(at instant: Int64) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// Whether the tz database calls the offset at an instant daylight-saving time.
    public func isDaylightSavingTime(at instant: Int64) -> Bool {
        timeZone.isDaylightSavingTime(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }
}
