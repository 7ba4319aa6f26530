/// Standard output and standard error, written with the C library: the command line
/// links no more of Foundation than its essentials (see README, "Performance").
enum StandardStream {
    case output
    case error

    private var descriptor: Int32 { self == .output ? SystemCall.standardOutput : SystemCall.standardError }

    /// Writes `text` whole.
    func write(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        write(text.utf8.span)
    }

    /// Writes `bytes` whole.
    func write(_ bytes: [UInt8]) {
        write(bytes.span)
    }

    /// Writes `bytes` whole. Output that cannot be written (a full disk, a closed pipe
    /// with SIGPIPE ignored) ends the command with status 1, so that a script never takes
    /// a cut result for a whole one; a failing standard error is passed over.
    private func write(_ bytes: Span<UInt8>) {
        let failure = SystemCall.writeAll(bytes, to: descriptor)
        guard failure != 0, self == .output else { return }
        StandardStream.error.write("remindc: error: cannot write standard output: \(SystemCall.errorText(failure))\n")
        exitProcess(1)
    }

    /// Whether the stream is a terminal where colour may be used: not when `NO_COLOR` is
    /// set (https://no-color.org).
    var allowsColour: Bool {
        SystemCall.isTerminal(descriptor) && SystemCall.environmentValue("NO_COLOR").map(\.isEmpty) ?? true
    }
}
