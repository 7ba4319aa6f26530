import ArgumentParser
import Dispatch
@_spi(Tooling) import ReminderCompiler
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `remindc batch [INPUT] [-o OUTPUT] [--jobs N]`: many plans, one NDJSON line each.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Plan many jobs: NDJSON in (one job a line), NDJSON out (one result a line, in input order).",
        discussion: """
        A job: {"id", "config" (plist or JSON text, or a JSON config object), "events", "now", "timeZone", "previous"}. \
        A result: {"id", "ok", "plan", "diff" (with previous), "diagnostics"}. A bad job gives a result with ok false and \
        never stops the batch. Jobs run on every core; only a few are held in memory at a time. Exit status 0 when every \
        line was read and written, whatever the jobs' results; 1 when the input or output fails.
        """
    )

    @Argument(help: "The NDJSON jobs; default: standard input.")
    var input: String = "-"

    @Option(name: .short, help: "The NDJSON results; default: standard output.")
    var output: String?

    @Option(help: "Jobs run at once; default: the number of cores.")
    var jobs: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// The longest job line: a config, an events file and a previous plan.
    static let maximumLineBytes = ReminderCompiler.maximumPlanBytes + 2 * PlistReader.defaultMaximumInputBytes

    func validate() throws {
        if !(1...256).contains(jobs) { throw ValidationError("--jobs must be 1–256, not \(jobs)") }
    }

    func run() throws {
        // The results never replace the jobs they come from.
        try AtomicOutput.checkTargets([("-o", output)], inputs: [input])
        let descriptor = input == "-" ? dup(STDIN_FILENO) : open(input, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandLineError("cannot read '\(input)': \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var files = AtomicOutput()
        let file = try files.open(output ?? "-")
        var lines = LineReader(descriptor: descriptor, maximumLength: Self.maximumLineBytes)
        // A window of a few jobs per worker, run together and written in input order:
        // memory holds one window, whatever the input's length.
        let windowSize = jobs * 4
        var number = 0
        while true {
            var batch: [LineReader.Line] = []
            while batch.count < windowSize, let line = try lines.next() { batch.append(line) }
            if batch.isEmpty { break }
            let firstNumber = number + 1
            number += batch.count
            let results = ResultSlots(count: batch.count)
            let window = batch
            let workers = min(jobs, window.count)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: window.count, by: workers) {
                    results.set(index, Self.result(of: window[index], number: firstNumber + index))
                }
            }
            for result in results.all {
                try file.write(contentsOf: result)
                try file.write(contentsOf: [0x0A])
            }
        }
        try files.commit()
    }

    static func result(of line: LineReader.Line, number: Int) -> [UInt8] {
        switch line {
        case .tooLong:
            return PlanJob.failure(PlanJobError(id: nil, message: "line \(number) is longer than \(maximumLineBytes) bytes"))
        case .text(let bytes):
            switch PlanJob.parse(bytes) {
            case .success(let job): return job.run()
            case .failure(var error):
                error.message = "line \(number): " + error.message
                return PlanJob.failure(error)
            }
        }
    }
}

/// Results of one window, set by the workers at their own indices.
final class ResultSlots: @unchecked Sendable {
    private var slots: [[UInt8]]
    private let lock = ThreadLock()

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ bytes: [UInt8]) { lock.withLock { slots[index] = bytes } }

    var all: [[UInt8]] { lock.withLock { slots } }
}

/// Lines of a file descriptor, read a block at a time; blank lines are skipped, and a line
/// longer than the limit is passed over without being held.
struct LineReader {
    enum Line {
        case text([UInt8])
        case tooLong
    }

    let descriptor: Int32
    let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var skippingLongLine = false

    init(descriptor: Int32, maximumLength: Int) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    mutating func next() throws -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if skippingLongLine {
                    skippingLongLine = false
                    return .tooLong
                }
                if line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) { continue }
                return .text(line)
            }
            if atEnd {
                let rest = Array(buffer[start...])
                buffer.removeAll()
                start = 0
                if skippingLongLine {
                    skippingLongLine = false
                    return .tooLong
                }
                return rest.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) ? nil : .text(rest)
            }
            // Keep only the unread part, then read more.
            buffer.removeFirst(start)
            start = 0
            if buffer.count > maximumLength {
                buffer.removeAll()
                skippingLongLine = true
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandLineError("cannot read the jobs: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEnd = true } else { buffer += chunk[..<count] }
        }
    }
}
