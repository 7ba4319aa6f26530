#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The IANA time-zone database as zic compiles it into `/usr/share/zoneinfo` (the
/// `tzdata` package on Debian and Ubuntu).
///
/// Offsets come from the zone files themselves (RFC 8536), so that they are those of the
/// release that `tzdata.zi` names and a plan states. Only names of the database are
/// zones: not `posix/…` or `right/…` (the same zones again, or with leap seconds), nor
/// `localtime` or `posixrules`, which stand for other zones.
public struct TimeZoneDatabase: Sendable {
    /// The database of this system.
    public static let system = TimeZoneDatabase()

    private let zoneInfoDirectory: String
    /// Zones already read, so that a compile reads each file once.
    private let readZones = ReadZones()

    #if canImport(Darwin)
    /// Where the system keeps its compiled zones: on Apple's systems, the folder their
    /// `tzfile.h` names (macOS links `/usr/share/zoneinfo` to it; iOS has it alone).
    public static let systemZoneInfoDirectory = "/var/db/timezone/zoneinfo"
    #else
    /// Where the system keeps its compiled zones: `/usr/share/zoneinfo`.
    public static let systemZoneInfoDirectory = "/usr/share/zoneinfo"
    #endif

    /// Whether this is `other` or a copy of it: the same zones, read once.
    func isSame(as other: TimeZoneDatabase) -> Bool {
        readZones === other.readZones
    }

    /// A database reading zone files from `zoneInfoDirectory`.
    public init(zoneInfoDirectory: String = TimeZoneDatabase.systemZoneInfoDirectory) {
        self.zoneInfoDirectory = zoneInfoDirectory
    }

    /// The tz database's release (`2025b`): the `# version` line of `tzdata.zi` beside the
    /// zone files, else the first line of `+VERSION` (where Apple's systems keep it), else
    /// nil. Computed once: it reads a file.
    public var version: String? {
        if zoneInfoDirectory == Self.system.zoneInfoDirectory { return Self.systemVersion }
        return Self.readVersion(zoneInfoDirectory)
    }

    private static let systemVersion = readVersion(TimeZoneDatabase.system.zoneInfoDirectory)

    private static func readVersion(_ directory: String) -> String? {
        if let head = FileAccess.contents(ofFileAt: directory + "/tzdata.zi", limit: 64, truncating: true) {
            let line = firstLine(of: head)
            return line.hasPrefix("# version ") ? trimmedVersion(line.dropFirst("# version ".count)) : nil
        }
        return FileAccess.contents(ofFileAt: directory + "/+VERSION", limit: 64, truncating: true).flatMap {
            trimmedVersion(firstLine(of: $0)[...])
        }
    }

    private static func firstLine(of bytes: [UInt8]) -> String {
        String(decoding: bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? [], as: UTF8.self)
    }

    /// A release name without surrounding blanks; nil when empty or longer than any.
    private static func trimmedVersion(_ text: Substring) -> String? {
        var version = text
        while version.first?.isWhitespace == true { version = version.dropFirst() }
        while version.last?.isWhitespace == true { version = version.dropLast() }
        return !version.isEmpty && version.utf8.count <= 16 ? String(version) : nil
    }

    /// Whether `name` is a zone of the tz database (`Europe/Berlin`, `UTC`, `US/Eastern`).
    public func contains(_ name: String) -> Bool {
        zone(name) != nil
    }

    /// The zone's rules, or nil for a name the database does not hold.
    @_spi(Tooling) public func zone(_ name: String) -> ZoneRules? {
        if let compiled = readZones.zone(named: name) { return ZoneRules(name: name, compiled: compiled) }
        guard Self.isZoneName(name),
              let bytes = FileAccess.contents(ofFileAt: zoneInfoDirectory + "/" + name, limit: CompiledZone.maximumFileSize),
              let compiled = CompiledZone(bytes)
        else { return nil }
        // Only zones that exist are kept: names asked for in vain would grow the table
        // without bound in a long-running service.
        readZones.store(compiled, named: name)
        return ZoneRules(name: name, compiled: compiled)
    }

    /// The closest known name, for "did you mean" messages.
    public func suggestion(for name: String) -> String? {
        let known = zoneNames()
        if let exact = known.first(where: { $0.lowercased() == name.lowercased() }) { return exact }
        return closestMatch(to: name, in: known)
    }

    /// Every zone name of the database, sorted: listed only when a name is unknown, since
    /// it reads every file, and then once.
    func zoneNames() -> [String] {
        readZones.names { zoneNamesWalk().names }
    }

    /// A folder as the file system knows it, whatever path leads to it.
    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// Every zone name under the database's folder, sorted, and how many folders were
    /// listed. Each folder is listed once, however many links lead to it, so a folder of
    /// links that loop back costs one listing, not one per path through the loop.
    func zoneNamesWalk() -> (names: [String], foldersListed: Int) {
        var names: [String] = []
        var visited: Set<FolderIdentity> = []
        collectZoneNames(in: "", depth: 0, visited: &visited, into: &names)
        return (names.sorted(), visited.count)
    }

    /// What `path` is, links followed: a folder (with its identity), a regular file, or
    /// something else (missing, a device, a pipe).
    private enum Entry {
        case folder(FolderIdentity)
        case file
        case other
    }

    private static func entry(at path: String) -> Entry {
        switch FileAccess.kind(of: path) {
        case .folder(let device, let inode): .folder(FolderIdentity(device: device, inode: inode))
        case .file: .file
        case .other: .other
        }
    }

    private func collectZoneNames(in folder: String, depth: Int, visited: inout Set<FolderIdentity>, into names: inout [String]) {
        let path = zoneInfoDirectory + (folder.isEmpty ? "" : "/" + folder)
        // Zone names have at most three parts (`America/Argentina/Buenos_Aires`).
        guard depth < 3, case .folder(let identity) = Self.entry(at: path), visited.insert(identity).inserted,
              let entries = DirectoryListing.names(in: path)
        else { return }
        for entryName in entries {
            let name = folder.isEmpty ? entryName : folder + "/" + entryName
            guard Self.isZoneName(name) else { continue }
            switch Self.entry(at: zoneInfoDirectory + "/" + name) {
            case .folder:
                collectZoneNames(in: name, depth: depth + 1, visited: &visited, into: &names)
            case .file:
                if let bytes = FileAccess.contents(ofFileAt: zoneInfoDirectory + "/" + name, limit: CompiledZone.maximumFileSize),
                   CompiledZone(bytes) != nil {
                    names.append(name)
                }
            case .other:
                continue
            }
        }
    }

    /// Whether `name` could name a zone: letters, digits and `_+-` (no dots, so no `.` or
    /// `..` parts and no hidden files), parts joined by `/`, none empty, and not one of the
    /// names that stand for others.
    private static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255,
              name.utf8.allSatisfy({ byte in
                  switch byte {
                  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                       UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"),
                       UInt8(ascii: "/"):
                      true
                  default: false
                  }
              })
        else { return false }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0.isEmpty }) else { return false }
        return !["posix", "right"].contains(parts[0]) && !["localtime", "posixrules"].contains(name)
    }
}

/// The zones a database has read, shared by its copies and their threads.
private final class ReadZones: Sendable {
    private let zones = Locked<[String: CompiledZone]>([:])
    private let listedNames = Locked<[String]?>(nil)

    /// The zone names, listed by `list` the first time. The listing reads every file, so
    /// it runs outside the lock: zones are looked up meanwhile, and two threads that list
    /// at once find the same names.
    func names(_ list: () -> [String]) -> [String] {
        if let listed = listedNames.withLock({ $0 }) { return listed }
        let names = list()
        listedNames.withLock { $0 = names }
        return names
    }

    func zone(named name: String) -> CompiledZone? {
        zones.withLock { $0[name] }
    }

    func store(_ zone: CompiledZone, named name: String) {
        zones.withLock { $0[name] = zone }
    }
}

/// One zone's offsets from UTC.
@_spi(Tooling) public struct ZoneRules: Sendable {
    /// The tz database name.
    public let name: String
    let compiled: CompiledZone

    /// The UTC offset in seconds at an instant (seconds since 1970 UTC).
    public func offsetSeconds(at instant: Int64) -> Int {
        compiled.localTime(at: instant).offset
    }

    /// Whether the tz database calls the offset at an instant daylight-saving time.
    public func isDaylightSavingTime(at instant: Int64) -> Bool {
        compiled.localTime(at: instant).isDaylightSaving
    }
}
