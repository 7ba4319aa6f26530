// The floor of a `remindc compile` command line: swift-argument-parser parsing
// `compile CONFIG --now T -o FILE` into a command of one argument and two options, and
// nothing else. `instruction_counts.py --floor` builds it as remindc is built (static
// release, the same checkout of the parser) and counts the whole process.
import ArgumentParser

@main
struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor", subcommands: [CompileLine.self])
}

struct CompileLine: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "compile")

    @Argument var config: String
    @Option var now: String?
    @Option(name: .short) var output: String?

    // Reads what was parsed, so that the parse cannot be left out, and writes nothing.
    func run() throws {
        if config.isEmpty, now == nil, output == nil { throw ExitCode.failure }
    }
}
