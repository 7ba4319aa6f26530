/// Reads the list of pending notifications an app dumps from the OS: a plain JSON array of
/// `{"id", "fingerprint"}` objects, or expo's `getAllScheduledNotificationsAsync()` result
/// as it is (`identifier`, with the fingerprint in `content.data`). Other keys are ignored:
/// these objects carry whatever the platform adds.
enum PendingReader {
    static func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> [PendingNotification]? {
        if bytes.count <= ReminderCompiler.maximumPlanBytes, let pending = FastPendingReader.read(bytes) { return pending }
        return readLocated(bytes, path: path, diagnostics: &diagnostics)
    }

    /// The pending list through the located JSON reader, with every error at its place. The
    /// entries are read one at a time and not kept as a tree: a list of millions of wrong
    /// entries costs the memory of the entries kept and the capped errors.
    static func readLocated(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> [PendingNotification]? {
        // Pending lists are written by other programs, with nulls for what they leave out,
        // and can be as long as a plan.
        let reader = JSONReader(maximumInputBytes: ReminderCompiler.maximumPlanBytes, allowsNull: true)
        var pending: [PendingNotification] = []
        // What the reader finds inside entries, and what reading them as entries finds.
        var entriesRead = DiagnosticCollector(), entries = DiagnosticCollector()
        let root = reader.read(bytes, path: path, diagnostics: &diagnostics, streaming: .root, elementDiagnostics: &entriesRead) { _, item in
            guard case .dictionary(let object) = item.value else {
                entries.error(.pendingEntryNotObject, at: item.location)
                return
            }
            guard case .string(let id)? = (object["id"] ?? object["identifier"])?.value.value, !id.isEmpty else {
                entries.error(.pendingEntryWithoutID, at: item.location)
                return
            }
            // Past the first error the list is refused: only the errors are still wanted.
            if !entries.hasErrors { pending.append(PendingNotification(id: id, fingerprint: fingerprint(in: object))) }
        }
        // Malformed JSON: what the reader found is reported, not what reading the entries
        // before the mistake found.
        diagnostics.absorb(entriesRead)
        guard let root else { return nil }
        guard case .array = root.value else {
            // A root the JSON reader already reported (a number out of range) needs no second
            // error; a bare `null`, which it lets through, does.
            if case .invalid = root.value, diagnostics.hasErrors { return nil }
            diagnostics.error(.pendingRootNotArray, at: root.location)
            return nil
        }
        diagnostics.absorb(entries)
        return diagnostics.hasErrors ? nil : pending
    }

    /// `fingerprint` at the top, or in expo's `content.data` (or a `userInfo` object).
    private static func fingerprint(in object: PlistDictionary) -> String? {
        if case .string(let value)? = object["fingerprint"]?.value.value { return value }
        for container in ["content", "userInfo", "data"] {
            guard case .dictionary(let inner)? = object[container]?.value.value else { continue }
            if let found = fingerprint(in: inner) { return found }
        }
        return nil
    }
}

/// Reads a well-formed pending list without building a tree: each entry's ID and
/// fingerprint are taken as the scanner passes them, and everything else is stepped over,
/// so memory holds the list and little more (the located tree took about 8 bytes per byte
/// of input). It gives up at the first thing the located reader would report — JSON it
/// refuses, a duplicate key, a number out of range, an entry without an ID — and that
/// reader then reads the file again and says what is wrong, where. It never decides an
/// error message.
struct FastPendingReader {
    private var scanner: JSONScanner

    /// Anything the located reader would report.
    private struct GiveUp: Error {}

    /// A member the entry's ID may come from, as read.
    private enum IDMember {
        case absent
        case string(String)
        case other
    }

    /// What one object holds for the pending list: its ID members and where its
    /// fingerprint would be found (as `PendingReader.fingerprint(in:)` looks).
    private struct ObjectFields {
        var id = IDMember.absent
        var identifier = IDMember.absent
        var fingerprint: String?
        /// The fingerprints found inside `content`, `userInfo` and `data`, in that order.
        var nested: [String?] = [nil, nil, nil]

        var foundFingerprint: String? { fingerprint ?? nested[0] ?? nested[1] ?? nested[2] }
    }

    static func read(_ bytes: [UInt8]) -> [PendingNotification]? {
        JSONScanner.scanning(bytes) { scanner in
            var reader = FastPendingReader(scanner: scanner)
            var pending: [PendingNotification] = []
            do {
                guard reader.scanner.peek() == UInt8(ascii: "[") else { throw GiveUp() }
                if try reader.scanner.openArray() {
                    repeat {
                        guard reader.scanner.peek() == UInt8(ascii: "{") else { throw GiveUp() }
                        let fields = try reader.object()
                        // `id` when present, else `identifier`: a non-empty string, as the
                        // located reader requires.
                        let chosen: IDMember
                        if case .absent = fields.id { chosen = fields.identifier } else { chosen = fields.id }
                        guard case .string(let id) = chosen, !id.isEmpty else { throw GiveUp() }
                        pending.append(PendingNotification(id: id, fingerprint: fields.foundFingerprint))
                    } while try reader.scanner.continues(closing: UInt8(ascii: "]"))
                }
                try reader.scanner.finish()
                return pending
            } catch {
                return nil
            }
        }
    }

    /// The object at the scanner, read for its ID members and fingerprint.
    private mutating func object() throws -> ObjectFields {
        var fields = ObjectFields()
        guard try scanner.openObject() else { return fields }
        var keys: Set<String> = []
        repeat {
            let key = try scanner.memberName()
            guard keys.insert(key).inserted else { throw GiveUp() }
            let next = scanner.peek()
            switch key {
            case "id", "identifier":
                let member: IDMember = next == UInt8(ascii: "\"") ? .string(try scanner.string()) : .other
                if case .other = member { try skipChecked() }
                if key == "id" { fields.id = member } else { fields.identifier = member }
            case "fingerprint" where next == UInt8(ascii: "\""):
                fields.fingerprint = try scanner.string()
            // Each name needs its own `where`: one after the last applies to that name alone.
            case "content" where next == UInt8(ascii: "{"), "userInfo" where next == UInt8(ascii: "{"),
                 "data" where next == UInt8(ascii: "{"):
                let index = key == "content" ? 0 : key == "userInfo" ? 1 : 2
                fields.nested[index] = try object().foundFingerprint
            default:
                try skipChecked()
            }
        } while try scanner.continues(closing: UInt8(ascii: "}"))
        return fields
    }

    /// Steps over a value, giving up where the located reader would report something:
    /// a duplicate key, or a number that is no 64-bit integer or finite real.
    private mutating func skipChecked() throws {
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "{"):
            _ = try object()
        case UInt8(ascii: "["):
            if try scanner.openArray() {
                repeat { try skipChecked() } while try scanner.continues(closing: UInt8(ascii: "]"))
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.number()
            let text = scanner.text(of: number.text)
            var collector = DiagnosticCollector()
            _ = number.isInteger
                ? PlistScalarParser.integer(text, at: .inCode, diagnostics: &collector)
                : PlistScalarParser.real(text, at: .inCode, diagnostics: &collector)
            if collector.hasErrors { throw GiveUp() }
        default:
            try scanner.skipValue()
        }
    }
}

extension ReminderCompiler {
    /// Reads pending notifications dumped from the OS (`[{"id", "fingerprint"}]`, or
    /// expo's `getAllScheduledNotificationsAsync()` JSON); nil with located errors when
    /// the file is not such a list.
    public static func readPending(_ bytes: [UInt8], path: String) -> (pending: [PendingNotification]?, diagnostics: [Diagnostic]) {
        var diagnostics = DiagnosticCollector()
        let pending = PendingReader.read(bytes, path: path, diagnostics: &diagnostics)
        return (pending, diagnostics.sorted)
    }
}
