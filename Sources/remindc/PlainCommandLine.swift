import ArgumentParser

/// A `compile` or `check` command line in its plain form, read without the argument
/// parser's reflection.
///
/// swift-argument-parser learns a command's options at run time: it reflects the command,
/// makes each property wrapper's generic type from its mangled name and asks it for its
/// protocols, and each first question of a kind scans every conformance record in the
/// binary. For `compile` of W1 that is 14.1 M of the process's 22.2 M instructions, four
/// times the compile itself; a program that parses a line of one argument and two options
/// and does nothing else already takes 9.9 M (Performance, "The plain command line").
///
/// The plain form is what scripts, build plugins and apps' build phases write: the
/// command's name, then its positional arguments and its own options in any order, each
/// option as `--name value`, `--name=value` or `-o value`, each at most once, with no
/// value that is empty or starts with `-` (but a lone `-`, standard input). Such a line is
/// read here: the command takes each of its options by the name it has on the command line,
/// an option it did not take is one it does not have, values are converted by the same
/// `ExpressibleByArgument` initializers the parser uses, and the command's and its groups'
/// own `validate()` run. Anything else — help, `--version`,
/// an unknown, misspelt or repeated option, `--`, a value that does not convert or a
/// command that does not validate — is `NotPlain`, and the argument parser reads the
/// whole line as it always has, with its own errors and usage text.
///
/// The parser remains the one definition of the command line: help, completions and
/// every error come from it. `PlainCommandLineTests` holds the two readers together: on
/// thousands of generated lines, each line read here is read by the parser into the same
/// command, field for field, and a line read here leaves no option unset.
///
/// Each command builds itself from a plain line in a copy (`var command = Self()`), set
/// option by option and then assigned whole: assigned directly inside the initialiser,
/// right after `self.init()`, `--ics-style` (the one option of `compile` with an initial
/// value) was left unparsed — the test saw its description say so — where the copy's
/// assignments go through the property wrappers' setters.
struct PlainCommandLine {
    /// The line is not in the plain form: the argument parser reads it.
    struct NotPlain: Error {}

    /// The options given and not yet taken, by the spelling used (`--now`, `-o`).
    private var values: [String: String] = [:]
    /// The flags given.
    private var givenFlags: [String] = []
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []

    /// Reads `arguments`, which follow the command's name, knowing the command's flags:
    /// every other word that starts with `-` names an option with a value, which the
    /// command takes (`take`) or, if it has no such option, leaves (`finish`).
    init(_ arguments: ArraySlice<String>, knownFlags: [String]) throws(NotPlain) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-" || !argument.hasPrefix("-") {
                guard !argument.isEmpty else { throw NotPlain() }
                positionals.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if knownFlags.contains(name) {
                guard value == nil, !givenFlags.contains(name) else { throw NotPlain() }
                givenFlags.append(name)
                continue
            }
            guard values[name] == nil else { throw NotPlain() }
            guard let given = value ?? remaining.popFirst(), Self.isPlainValue(given) else { throw NotPlain() }
            values[name] = given
        }
    }

    /// A value the parser takes as it stands after its option: not empty, and not
    /// something it might read as an option of its own.
    private static func isPlainValue(_ value: String) -> Bool {
        value == "-" || !(value.isEmpty || value.hasPrefix("-"))
    }

    /// Takes the text of one of the command's options, nil when it was not given.
    mutating func take(_ option: String) -> String? {
        values.removeValue(forKey: option)
    }

    /// Takes the value of one of the command's options, converted as the argument parser
    /// converts it; nil when it was not given.
    mutating func takeValue<Value: ExpressibleByArgument>(_ option: String) throws(NotPlain) -> Value? {
        guard let text = take(option) else { return nil }
        guard let value = Value(argument: text) else { throw NotPlain() }
        return value
    }

    /// Ends the reading once the command has taken its options: one it left is one it does
    /// not have (`--nwo`, `--help`), which the parser answers or refuses.
    func finish() throws(NotPlain) {
        guard values.isEmpty else { throw NotPlain() }
    }

    /// Whether a flag was given.
    func isSet(_ flag: String) -> Bool {
        givenFlags.contains(flag)
    }

    /// Runs a validation of the parser's kind: one that fails leaves the line to the
    /// parser, which reports the failure with its usage text.
    static func validated(_ validate: () throws -> Void) throws(NotPlain) {
        do { try validate() } catch { throw NotPlain() }
    }
}

extension MomentOptions {
    /// The group as a plain command line gives it, validated.
    init(plain line: inout PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        var group = Self()
        group.now = line.take("--now")
        group.timeZone = line.take("--time-zone")
        try PlainCommandLine.validated(group.validate)
        self = group
    }
}

extension DiagnosticOptions {
    /// The flags of the group, as a plain command line spells them: the only flags of
    /// the commands read plainly.
    static let plainFlags = ["--warnings-as-errors"]

    /// The group as a plain command line gives it.
    init(plain line: inout PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        var group = Self()
        group.diagnosticsFormat = try line.takeValue("--diagnostics-format") ?? Self.defaultFormat
        group.diagnosticsFile = line.take("--diagnostics-file")
        group.warningsAsErrors = line.isSet("--warnings-as-errors")
        // The group has no checks of its own today; the parser would run one added later.
        try PlainCommandLine.validated { try group.validate() }
        self = group
    }
}
