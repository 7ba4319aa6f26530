/// A zone as zic compiles it into `/usr/share/zoneinfo` (the TZif format, RFC 8536):
/// the instants at which its local time changes, the local time types between them, and
/// the footer's rule for every instant after the last change.
///
/// Read from the files themselves, the offsets are those of the tz release that
/// `tzdata.zi` beside them names, which is the release a plan states.
struct CompiledZone: Sendable {
    /// Instants (seconds since 1970 UTC) at which local time changes, strictly ascending.
    let transitions: [Int64]
    /// For each transition, the index in `types` of the local time it begins.
    let transitionTypes: [UInt8]
    /// Local time types; the first also holds before the first transition.
    let types: [LocalTimeType]
    /// The footer's rule, for instants at or after the last transition.
    let footer: PosixZoneRule?

    struct LocalTimeType: Sendable, Equatable {
        /// Seconds east of UTC.
        let offset: Int
        let isDaylightSaving: Bool
    }

    /// The local time type in force at an instant.
    func localTime(at instant: Int64) -> LocalTimeType {
        guard let first = transitions.first, instant >= first else {
            if transitions.isEmpty, let footer { return Self.type(footer.localTime(at: instant)) }
            return types[0]
        }
        // Number of transitions at or before `instant` (at least one).
        var low = 1
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        if low == transitions.count, let footer { return Self.type(footer.localTime(at: instant)) }
        return types[Int(transitionTypes[low - 1])]
    }

    private static func type(_ local: (offset: Int, isDaylightSaving: Bool)) -> LocalTimeType {
        LocalTimeType(offset: local.offset, isDaylightSaving: local.isDaylightSaving)
    }
}

extension CompiledZone {
    /// Files larger than this are not zone files (the largest zic writes are about 4 KB).
    static let maximumFileSize = 1 << 18

    /// Reads a TZif file; nil when the bytes are not one, or are one with leap seconds
    /// (the `right/` zones, whose clocks are not POSIX time), or with offsets of a day
    /// or more.
    init?(_ bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var block = header
        if header.version >= UInt8(ascii: "2") {
            // The first block, with 32-bit instants, is for old readers; the second has
            // 64-bit instants and is followed by the footer.
            guard reader.skip(header.blockSize(instantSize: 4)), let second = reader.header() else { return nil }
            block = second
        }
        let instantSize = header.version >= UInt8(ascii: "2") ? 8 : 4
        guard block.leapCount == 0, block.typeCount > 0,
              let instants = reader.instants(block.transitionCount, size: instantSize),
              let indices = reader.bytes(block.transitionCount),
              let types = reader.types(block.typeCount),
              reader.skip(block.characterCount + block.leapCount * (instantSize + 4) + block.standardCount + block.utcCount),
              indices.allSatisfy({ Int($0) < types.count }),
              zip(instants, instants.dropFirst()).allSatisfy({ $0 < $1 })
        else { return nil }
        var footer: PosixZoneRule?
        if header.version >= UInt8(ascii: "2") {
            // `\n` TZ string `\n`; an empty string means the file states no rule.
            guard reader.take(UInt8(ascii: "\n")), let text = reader.bytes(upTo: UInt8(ascii: "\n")) else { return nil }
            if !text.isEmpty {
                guard let rule = PosixZoneRule(text) else { return nil }
                footer = rule
            }
        }
        self.transitions = instants
        self.transitionTypes = indices
        self.types = types
        self.footer = footer
    }
}

/// The counts in a TZif header (RFC 8536 §3.1).
private struct TZifHeader {
    let version: UInt8
    let utcCount: Int
    let standardCount: Int
    let leapCount: Int
    let transitionCount: Int
    let typeCount: Int
    let characterCount: Int

    /// The data block's length, with instants of `instantSize` bytes.
    func blockSize(instantSize: Int) -> Int {
        transitionCount * (instantSize + 1) + typeCount * 6 + characterCount + leapCount * (instantSize + 4)
            + standardCount + utcCount
    }
}

/// A bounds-checked cursor over a zone file's big-endian bytes: a short or damaged file
/// gives nil, never a trap.
private struct TZifReader {
    let bytes: [UInt8]
    var position = 0

    mutating func header() -> TZifHeader? {
        guard position + 44 <= bytes.count, Array(bytes[position..<position + 4]) == Array("TZif".utf8) else { return nil }
        let version = bytes[position + 4]
        guard version == 0 || (UInt8(ascii: "2")...UInt8(ascii: "4")).contains(version) else { return nil }
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = integer(size: 4), count >= 0, count <= CompiledZone.maximumFileSize else { return nil }
            counts.append(Int(count))
        }
        return TZifHeader(
            version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2],
            transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5]
        )
    }

    /// A signed big-endian integer of 4 or 8 bytes.
    mutating func integer(size: Int) -> Int64? {
        guard size <= bytes.count - position else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
        position += size
        return size == 4 ? Int64(Int32(truncatingIfNeeded: value)) : Int64(bitPattern: value)
    }

    mutating func instants(_ count: Int, size: Int) -> [Int64]? {
        guard count <= (bytes.count - position) / size else { return nil }
        var instants: [Int64] = []
        instants.reserveCapacity(count)
        for _ in 0..<count {
            guard let instant = integer(size: size) else { return nil }
            instants.append(instant)
        }
        return instants
    }

    mutating func types(_ count: Int) -> [CompiledZone.LocalTimeType]? {
        guard count <= (bytes.count - position) / 6 else { return nil }
        var types: [CompiledZone.LocalTimeType] = []
        for _ in 0..<count {
            guard let offset = integer(size: 4), abs(offset) < 86_400, let flags = bytes(2), flags[0] <= 1 else { return nil }
            types.append(CompiledZone.LocalTimeType(offset: Int(offset), isDaylightSaving: flags[0] == 1))
        }
        return types
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= bytes.count - position else { return false }
        position += count
        return true
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// The bytes before the next `terminator`, which is consumed; nil when there is none.
    mutating func bytes(upTo terminator: UInt8) -> [UInt8]? {
        guard let end = bytes[position...].firstIndex(of: terminator) else { return nil }
        defer { position = end + 1 }
        return Array(bytes[position..<end])
    }
}
