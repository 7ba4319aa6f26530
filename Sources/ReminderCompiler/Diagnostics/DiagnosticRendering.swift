/// The forms diagnostics are written in for people, editors and CI systems.
public enum DiagnosticFormat: String, CaseIterable, Sendable {
    /// `path:line:column: severity: message`, one line each, as compilers print them.
    case gcc
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`),
    /// which annotate the pull request's files.
    case github
    /// One JSON array of objects: severity, id, message, file, line, column, notes.
    case json
    /// A SARIF 2.1.0 log, the form code-scanning services read.
    case sarif
}

/// Diagnostics written as text in a `DiagnosticFormat`. Same diagnostics, same bytes.
public enum DiagnosticRendering {
    /// GitHub shows at most 10 annotations of each type per step.
    public static let githubAnnotationLimit = 10

    /// The diagnostics in `format`; `toolVersion` names remindc's version in SARIF.
    public static func render(_ diagnostics: [Diagnostic], as format: DiagnosticFormat, toolVersion: String) -> String {
        switch format {
        case .gcc: return diagnostics.map { $0.formatted + "\n" }.joined()
        case .github: return github(diagnostics)
        case .json: return json(diagnostics)
        case .sarif: return sarif(diagnostics, toolVersion: toolVersion)
        }
    }

    // MARK: GitHub

    /// Errors and warnings as annotations (notes join their diagnostic's message). Past the
    /// limit of a type, the first nine are annotated, a tenth says how many more there are,
    /// and those are printed as plain lines for the log — between `::stop-commands::` and
    /// its end, with a token made from the lines themselves, so that no text of the input
    /// in them (a file name, a key) is read as a workflow command, and one line each.
    static func github(_ diagnostics: [Diagnostic]) -> String {
        var output = ""
        var unannotated: [Diagnostic] = []
        for severity in [DiagnosticSeverity.error, .warning, .note] {
            let ofSeverity = diagnostics.filter { $0.severity == severity }
            let annotated = ofSeverity.count > githubAnnotationLimit ? ofSeverity.prefix(githubAnnotationLimit - 1) : ofSeverity[...]
            for diagnostic in annotated { output += annotation(diagnostic) + "\n" }
            let rest = ofSeverity.dropFirst(annotated.count)
            if !rest.isEmpty {
                let kind = severity == .error ? "errors" : severity == .warning ? "warnings" : "notes"
                output += "::\(command(severity)) title=remindc::\(escapeData("\(rest.count) more \(kind), listed in the log below"))\n"
                unannotated += rest
            }
        }
        if !unannotated.isEmpty {
            let lines = unannotated.map { oneLine($0.formatted) + "\n" }.joined()
            // A token the input cannot hold: it would have to contain its own digest.
            let token = "remindc-" + ConfigDigest.sha256Hex(Array(lines.utf8)).prefix(32)
            output += "::stop-commands::\(token)\n" + lines + "::\(token)::\n"
        }
        return output
    }

    private static func command(_ severity: DiagnosticSeverity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    private static func annotation(_ diagnostic: Diagnostic) -> String {
        var properties: [String] = []
        let location = diagnostic.location
        if location.isKeyPath {
            properties.append("title=" + escapeProperty("remindc \(diagnostic.message.id) at \(location.path)"))
        } else {
            properties += ["file=" + escapeProperty(location.path), "line=\(location.line)", "col=\(location.column)"]
            properties.append("title=" + escapeProperty("remindc \(diagnostic.message.id)"))
        }
        var message = diagnostic.message.text
        for note in diagnostic.notes { message += "\n" + note.formatted }
        return "::\(command(diagnostic.severity)) \(properties.joined(separator: ","))::\(escapeData(message))"
    }

    /// A diagnostic line on one line: its control characters escaped as `VisibleText` does.
    @_spi(Tooling) public static func oneLine(_ text: String) -> String {
        VisibleText.escaped(text)
    }

    /// A workflow command's message: `%`, CR and LF escaped, so that one line carries it.
    @_spi(Tooling) public static func escapeData(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A workflow command's property value: also `:` and `,`, which end it.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingEvery(":", with: "%3A").replacingEvery(",", with: "%2C")
    }

    // MARK: JSON

    static func json(_ diagnostics: [Diagnostic]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for diagnostic in diagnostics {
            writer.element()
            write(diagnostic, to: &writer, withNotes: true)
        }
        writer.endArray()
        writer.append("\n")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func write(_ diagnostic: Diagnostic, to writer: inout JSONWriter, withNotes: Bool) {
        writer.beginObject()
        writer.field("severity", diagnostic.severity.rawValue)
        writer.field("id", diagnostic.message.id)
        writer.field("message", diagnostic.message.text)
        if diagnostic.location.isKeyPath {
            writer.field("keyPath", diagnostic.location.path)
        } else {
            writer.field("file", diagnostic.location.path)
            writer.field("line", diagnostic.location.line)
            writer.field("column", diagnostic.location.column)
        }
        if withNotes {
            writer.fieldName("notes")
            writer.beginArray()
            for note in diagnostic.notes {
                writer.element()
                write(note, to: &writer, withNotes: false)
            }
            writer.endArray()
        }
        writer.endObject()
    }

    // MARK: SARIF

    /// One run of remindc: its rules are the catalogue ids of the diagnostics found (in
    /// order of first use), each result names its rule, file, line and column (in
    /// Unicode scalars, as remindc counts them), and notes are related locations.
    static func sarif(_ diagnostics: [Diagnostic], toolVersion: String) -> String {
        var ruleIndex: [String: Int] = [:]
        var rules: [String] = []
        for diagnostic in diagnostics where ruleIndex[diagnostic.message.id] == nil {
            ruleIndex[diagnostic.message.id] = rules.count
            rules.append(diagnostic.message.id)
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
        writer.field("version", "2.1.0")
        writer.fieldName("runs")
        writer.beginArray()
        writer.element()
        writer.beginObject()
        writer.fieldName("tool")
        writer.beginObject()
        writer.fieldName("driver")
        writer.beginObject()
        writer.field("name", "remindc")
        writer.field("version", toolVersion)
        writer.fieldName("rules")
        writer.beginArray()
        for rule in rules {
            writer.element()
            writer.beginObject()
            writer.field("id", rule)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        writer.field("columnKind", "unicodeCodePoints")
        writer.fieldName("results")
        writer.beginArray()
        for diagnostic in diagnostics {
            writer.element()
            writer.beginObject()
            writer.field("ruleId", diagnostic.message.id)
            writer.field("ruleIndex", ruleIndex[diagnostic.message.id] ?? 0)
            writer.field("level", diagnostic.severity.rawValue)
            writeMessage(diagnostic.message.text, to: &writer)
            writer.fieldName("locations")
            writer.beginArray()
            writer.element()
            writeLocation(diagnostic.location, id: nil, message: nil, to: &writer)
            writer.endArray()
            if !diagnostic.notes.isEmpty {
                writer.fieldName("relatedLocations")
                writer.beginArray()
                for (index, note) in diagnostic.notes.enumerated() {
                    writer.element()
                    writeLocation(note.location, id: index, message: note.message.text, to: &writer)
                }
                writer.endArray()
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        writer.append("\n")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func writeMessage(_ text: String, to writer: inout JSONWriter) {
        writer.fieldName("message")
        writer.beginObject()
        writer.field("text", text)
        writer.endObject()
    }

    private static func writeLocation(_ location: SourceLocation, id: Int?, message: String?, to writer: inout JSONWriter) {
        writer.beginObject()
        if let id { writer.field("id", id) }
        if location.isKeyPath {
            writer.fieldName("logicalLocations")
            writer.beginArray()
            writer.element()
            writer.beginObject()
            writer.field("fullyQualifiedName", location.path)
            writer.endObject()
            writer.endArray()
        } else {
            writer.fieldName("physicalLocation")
            writer.beginObject()
            writer.fieldName("artifactLocation")
            writer.beginObject()
            writer.field("uri", artifactURI(location.path))
            writer.endObject()
            writer.fieldName("region")
            writer.beginObject()
            writer.field("startLine", max(location.line, 1))
            writer.field("startColumn", max(location.column, 1))
            writer.endObject()
            writer.endObject()
        }
        if let message { writeMessage(message, to: &writer) }
        writer.endObject()
    }

    /// A file path as a URI reference: relative paths stay relative (code scanning resolves
    /// them against the repository), characters outside the unreserved set and `/` are
    /// percent-encoded.
    static func artifactURI(_ path: String) -> String {
        var uri = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                uri += "%"
                uri.unicodeScalars.append(digits[Int(byte >> 4)])
                uri.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return uri
    }
}
