#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plan file's bytes from the first one a reader still needs to the last one read so far.
/// When the reader needs more, the bytes before its place are dropped and the next bytes
/// of the file appended, so a file of any length is read in a buffer about as long as its
/// longest member, and a `diff` holds neither of its plans whole.
@safe final class PlanFileWindow {
    /// Where a file's bytes come from.
    enum Source {
        /// Whole arrays, one per call: empty at the end of the file, nil when it cannot be read.
        case pieces(() -> [UInt8]?)
        /// An open file, read straight into the window's storage and closed with the window.
        case file(descriptor: Int32)
        /// Nothing more: the window was given the whole file.
        case none
    }

    private var storage: UnsafeMutableBufferPointer<UInt8>
    /// False when the window borrows a buffer its caller keeps alive.
    private let ownsStorage: Bool
    private let source: Source
    /// How many bytes of `storage` hold the file.
    private(set) var count: Int
    /// The place in the file of the window's first byte.
    private(set) var offset = 0
    /// Whether the file's last byte has been read.
    private(set) var isAtEnd: Bool
    /// Whether the file could not be read, or is longer than a plan may be.
    private(set) var failed = false

    /// How many bytes one read asks for.
    private static let readSize = 1 << 18

    /// A window that holds all of `buffer` from the start; the caller keeps it alive.
    init(borrowing buffer: UnsafeBufferPointer<UInt8>) {
        unsafe storage = UnsafeMutableBufferPointer(mutating: buffer)
        ownsStorage = false
        source = .none
        count = buffer.count
        isAtEnd = true
    }

    /// A window over the bytes `source` gives.
    init(_ source: Source) {
        unsafe storage = UnsafeMutableBufferPointer.allocate(capacity: Self.readSize)
        ownsStorage = true
        self.source = source
        count = 0
        isAtEnd = false
    }

    deinit {
        if ownsStorage { unsafe storage.deallocate() }
        if case .file(let descriptor) = source { FileAccess.closeDescriptor(descriptor) }
    }

    /// How many bytes the window has room for: it only grows, so this is what reading the
    /// file has cost in memory.
    var capacity: Int { unsafe storage.count }

    /// The bytes held, valid until the next `advance`.
    var bytes: UnsafeBufferPointer<UInt8> { unsafe UnsafeBufferPointer(rebasing: storage[..<count]) }

    /// Drops the bytes before `start` (so `offset` moves on) and reads on until at least
    /// `wanted` bytes from there are held or the file ends. True when anything was read;
    /// false, and nothing dropped, when the file had already ended or failed.
    func advance(droppingBefore start: Int, wanting wanted: Int) -> Bool {
        guard !isAtEnd, !failed, let base = unsafe storage.baseAddress else { return false }
        let kept = count - start
        if kept > 0, start > 0 { unsafe memmove(base, base + start, kept) }
        count = kept
        offset += start
        var readAny = false
        while !readAny || count < wanted {
            let read: Int
            switch source {
            case .pieces(let next):
                guard let piece = next() else {
                    failed = true
                    return false
                }
                reserve(piece.count)
                _ = unsafe piece.withUnsafeBufferPointer { unsafe memcpy(storage.baseAddress! + count, $0.baseAddress!, $0.count) }
                read = piece.count
            case .file(let descriptor):
                reserve(Self.readSize)
                let free = unsafe UnsafeMutableRawBufferPointer(start: storage.baseAddress! + count, count: storage.count - count)
                guard let got = unsafe FileAccess.readBytes(from: descriptor, into: free), got <= free.count else {
                    failed = true
                    return false
                }
                read = got
            case .none:
                read = 0
            }
            if read == 0 {
                isAtEnd = true
                break
            }
            count += read
            readAny = true
            guard offset + count <= ReminderCompiler.maximumPlanBytes else {
                failed = true
                return false
            }
        }
        return readAny
    }

    /// Room for `more` bytes after those held, in storage at least twice as large when it
    /// must grow, so that a long member costs few copies.
    private func reserve(_ more: Int) {
        guard unsafe count + more > storage.count, let base = unsafe storage.baseAddress else { return }
        let larger = unsafe UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count + more, 2 * storage.count))
        if count > 0 { unsafe memcpy(larger.baseAddress!, base, count) }
        if ownsStorage { unsafe storage.deallocate() }
        unsafe storage = larger
    }
}

/// A notification as a plan file holds it: its bytes, where its ID and its `sequence`
/// value lie in them, and its place in the file's order.
@safe struct NotificationText {
    let bytes: UnsafeBufferPointer<UInt8>
    let id: Range<Int>
    let sequence: Range<Int>

    /// The ID's bytes hashed, eight at a time (FNV-1a's steps on words), to tell a file's
    /// IDs apart; two IDs of the same hash are taken as the same, which sends the file to
    /// the full reader, never to a wrong diff.
    var idHash: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(id.count)
        guard let base = unsafe bytes.baseAddress else { return hash }
        var index = id.lowerBound
        while index + 8 <= id.upperBound {
            let word = unsafe UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 29
            index += 8
        }
        while index < id.upperBound {
            let byte = unsafe base[index]
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            index += 1
        }
        return hash
    }

    var idText: String { unsafe String(decoding: UnsafeBufferPointer(rebasing: bytes[id]), as: UTF8.self) }

    /// Whether two notifications have the same bytes apart from their `sequence` values.
    func isSame(apartFromSequence other: NotificationText) -> Bool {
        let suffix = unsafe bytes.count - sequence.upperBound
        guard sequence.lowerBound == other.sequence.lowerBound, unsafe suffix == other.bytes.count - other.sequence.upperBound,
              let base = unsafe bytes.baseAddress, let otherBase = unsafe other.bytes.baseAddress
        else { return false }
        return unsafe memcmp(base, otherBase, sequence.lowerBound) == 0
            && memcmp(base + sequence.upperBound, otherBase + other.sequence.upperBound, suffix) == 0
    }

    /// The notification decoded (and checked); nil when it is not one a plan may hold.
    func decoded() -> PlannedNotification? {
        unsafe FastPlanReader.notification(in: bytes, at: 0..<bytes.count)
    }
}

/// A notification's text kept past the window it was read in.
struct KeptNotification {
    private let storage: [UInt8]
    private let id: Range<Int>, sequence: Range<Int>
    /// Its place among its file's notifications.
    let ordinal: Int

    init(_ text: NotificationText, ordinal: Int) {
        storage = unsafe Array(text.bytes)
        id = text.id
        sequence = text.sequence
        self.ordinal = ordinal
    }

    func withText<Result>(_ body: (NotificationText) -> Result) -> Result {
        unsafe storage.withUnsafeBufferPointer { unsafe body(NotificationText(bytes: $0, id: id, sequence: sequence)) }
    }
}

/// A plan file read one notification at a time through a `PlanFileWindow`; the plan's
/// other members are read as they come, before or after the notifications. Anything it
/// does not expect ends the stream with `plan` nil, and the file goes to `PlanReader`,
/// which says what is wrong and where.
///
/// Each member and each notification is read while the window holds it: a read that
/// the scanner refuses within a few bytes of the window's end, before the end of the
/// file, may only have met the window's end, so the window reads on (at least doubling
/// what it holds from the read's start) and the read runs again from its start; any other
/// refusal is final. A read must also leave a byte after it in the window, since a number
/// or a literal cut by the window's end can look complete.
struct PlanFileStream {
    private let window: PlanFileWindow
    private var reader: FastPlanReader
    private var fields = FastPlanReader.PlanFields()
    private enum Stage { case members(first: Bool), notifications(first: Bool), ended, failed }
    private var stage = Stage.members(first: true)
    /// The plan without its notifications, once every notification has been read; nil
    /// before, or when the file is not a plan this reader takes.
    private(set) var plan: Plan?

    /// A stream at the start of the file in `window`; nil when it does not open a JSON object.
    init?(_ window: PlanFileWindow) {
        self.window = window
        _ = window.advance(droppingBefore: 0, wanting: 4)
        reader = unsafe FastPlanReader(scanner: JSONScanner(document: window.bytes))
        let opened = Self.attempt(&reader, window) { reader in try reader.scanner.openObject() }
        guard opened == true else { return nil }
    }

    /// What a read of the plan object's next member met.
    private enum MemberStep { case member, notifications(hasItems: Bool), planEnded }

    /// What a read of the notifications' next item met.
    private enum ItemStep<Item> { case item(Item), arrayEnded }

    /// The next notification, as `body` reads it while the window holds its bytes (which
    /// it may keep until the next call); nil after the last, when `plan` is set, or when
    /// the file is not a plan this reader takes.
    mutating func next<Item>(_ body: (inout FastPlanReader) throws -> Item) -> Item? {
        while true {
            switch stage {
            case .members:
                readMembers()
            case .notifications(let first):
                let step = Self.attempt(&reader, window) { reader -> ItemStep<Item> in
                    if !first, try !reader.scanner.continues(closing: UInt8(ascii: "]")) { return .arrayEnded }
                    return .item(try body(&reader))
                }
                switch step {
                case .item(let item)?:
                    stage = .notifications(first: false)
                    return item
                case .arrayEnded?: stage = .members(first: false)
                case nil: stage = .failed
                }
            case .ended, .failed:
                return nil
            }
        }
    }

    /// The next notification's text, checked as a plan's notification must be (`check`)
    /// or only scanned as JSON with its ID and `sequence` found.
    mutating func nextText(checking: Bool) -> NotificationText? {
        next { reader -> NotificationText in
            reader.scanner.skipWhitespace()
            let start = reader.scanner.position
            if checking { try reader.checkNotification() } else { try reader.locateNotification() }
            guard let id = reader.lastIDRange, let sequenceStart = reader.lastSequenceStart else { throw FastPlanReader.GiveUp() }
            var sequenceEnd = sequenceStart
            while sequenceEnd < reader.scanner.position, unsafe reader.scanner.bytes[sequenceEnd] &- UInt8(ascii: "0") < 10 {
                sequenceEnd += 1
            }
            let text = unsafe UnsafeBufferPointer(rebasing: reader.scanner.bytes[start..<reader.scanner.position])
            return unsafe NotificationText(
                bytes: text, id: (id.lowerBound - start)..<(id.upperBound - start),
                sequence: (sequenceStart - start)..<(sequenceEnd - start)
            )
        }
    }

    /// Steps over the next notification when its bytes are `text`'s apart from a `sequence`
    /// value that is a JSON integer in range (white space before it allowed), without
    /// scanning it: it is then as well formed and as valid as `text`. False, and nothing
    /// consumed, otherwise.
    mutating func skipNotification(sameAs text: NotificationText) -> Bool {
        guard case .notifications(let first) = stage else { return false }
        let longestSequence = 10
        while true {
            let bytes = unsafe window.bytes
            var index = unsafe JSONScanner.endOfWhitespace(in: bytes, from: reader.scanner.position)
            if !first {
                guard index < bytes.count else {
                    if unsafe refill(wanting: index - reader.scanner.position + text.bytes.count + longestSequence + 8) { continue }
                    return false
                }
                guard unsafe bytes[index] == UInt8(ascii: ",") else { return false }
                index = unsafe JSONScanner.endOfWhitespace(in: bytes, from: index + 1)
            }
            let needed = unsafe text.bytes.count + longestSequence
            if bytes.count - index < needed, !window.isAtEnd {
                if refill(wanting: index - reader.scanner.position + needed) { continue }
                return false
            }
            guard let base = bytes.baseAddress, let textBase = unsafe text.bytes.baseAddress,
                  unsafe bytes.count - index >= text.bytes.count - text.sequence.count + 1,
                  unsafe memcmp(base + index, textBase, text.sequence.lowerBound) == 0
            else { return false }
            // The new `sequence`, read by the scanner's rule for plain integers (no leading
            // zero, no fraction or exponent) on a copy, so that a refusal moves nothing.
            var digits = reader.scanner
            digits.position = index + text.sequence.lowerBound
            guard let value = digits.plainInteger(maximumDigits: longestSequence), value <= Int(Int32.max) else { return false }
            let digitsEnd = digits.position
            let suffix = unsafe text.bytes.count - text.sequence.upperBound
            guard bytes.count - digitsEnd >= suffix,
                  unsafe memcmp(base + digitsEnd, textBase + text.sequence.upperBound, suffix) == 0
            else { return false }
            reader.scanner.position = digitsEnd + suffix
            stage = .notifications(first: false)
            return true
        }
    }

    /// Reads on from the reader's place; false when nothing more could be read.
    private mutating func refill(wanting wanted: Int) -> Bool {
        let start = reader.scanner.position + window.offset, depth = reader.scanner.depth
        let more = window.advance(droppingBefore: reader.scanner.position, wanting: wanted)
        reader.scanner = unsafe JSONScanner(window.bytes, at: start - window.offset, depth: depth)
        return more
    }

    /// Reads the plan's members up to its notifications or its end, where it checks the
    /// plan and sets `plan`.
    private mutating func readMembers() {
        var fields = self.fields
        while case .members(let first) = stage {
            var trial = fields
            let step = Self.attempt(&reader, window) { reader -> MemberStep in
                trial = fields
                if !first, try !reader.scanner.continues(closing: UInt8(ascii: "}")) { return .planEnded }
                guard let raw = unsafe try reader.scanner.plainString(), !raw.isEmpty else { throw FastPlanReader.GiveUp() }
                try reader.scanner.expect(UInt8(ascii: ":"), "':' after the member name")
                guard let index = unsafe FastPlanReader.planKeys.index(of: raw) else {
                    // A member of a later format: skipped, as the format-version policy asks.
                    try reader.scanner.skipValue()
                    return .member
                }
                guard trial.seen & (1 << UInt64(index)) == 0 else { throw FastPlanReader.GiveUp() }
                trial.seen |= 1 << UInt64(index)
                let key = FastPlanReader.planKeys.keys[index]
                guard key != .notifications else {
                    trial.hasNotifications = true
                    return .notifications(hasItems: try reader.scanner.openArray())
                }
                try trial.read(key, from: &reader)
                return .member
            }
            fields = trial
            switch step {
            case .member?: stage = .members(first: false)
            case .notifications(let hasItems)?: stage = hasItems ? .notifications(first: true) : .members(first: false)
            case .planEnded?:
                // The read ended with the window at the file's end, or with something after
                // the plan, which `finish` refuses.
                if (try? reader.scanner.finish()) != nil, let plan = try? fields.plan() {
                    self.plan = plan
                    stage = .ended
                } else {
                    stage = .failed
                }
            case nil: stage = .failed
            }
        }
        self.fields = fields
    }

    /// Runs `read` from the reader's place until it succeeds with a byte after it in the
    /// window; nil when it fails in the bytes the window holds. A read can meet the end of
    /// the window only as a scanner failure at most a few bytes before it (an escape or a
    /// UTF-8 sequence cut short): the reader's own refusals concern whole tokens.
    private static func attempt<Value>(
        _ reader: inout FastPlanReader, _ window: PlanFileWindow, _ read: (inout FastPlanReader) throws -> Value
    ) -> Value? {
        let start = reader.scanner.position + window.offset, depth = reader.scanner.depth
        var lastTry = false
        while true {
            do {
                let value = try read(&reader)
                if reader.scanner.peek() != nil || window.isAtEnd { return value }
            } catch let failure as JSONScanner.Failure where unsafe failure.offset + 16 >= reader.scanner.bytes.count {
                // Perhaps only the end of the window: read on.
            } catch {
                return nil
            }
            if lastTry { return nil }
            let more = window.advance(droppingBefore: start - window.offset, wanting: 2 * (window.count - (start - window.offset)) + 4096)
            guard more || (window.isAtEnd && !window.failed) else { return nil }
            // Without new bytes, the end of the file was met: one last read from the start.
            lastTry = !more
            reader.scanner = unsafe JSONScanner(window.bytes, at: start - window.offset, depth: depth)
        }
    }
}
