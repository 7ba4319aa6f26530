import ArgumentParser
import Dispatch
@_spi(Tooling) import ReminderCompiler

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
    var jobs: Int = SystemCall.onlineProcessors

    /// The longest job line: a config, an events file and a previous plan.
    static let maximumLineBytes = ReminderCompiler.maximumPlanBytes + 2 * PlistReader.defaultMaximumInputBytes

    func validate() throws {
        if !(1...256).contains(jobs) { throw ValidationError("--jobs must be 1–256, not \(jobs)") }
    }

    func run() throws {
        // The results never replace the jobs they come from.
        try AtomicOutput.checkTargets([("-o", output)], inputs: [input])
        let descriptor = SystemCall.openForReading(input)
        guard descriptor >= 0 else {
            let failure = SystemCall.lastError
            throw CommandLineError("cannot read '\(input)': \(SystemCall.isNoSuchFile(failure) ? "no such file" : SystemCall.errorText(failure))")
        }
        defer { SystemCall.closeDescriptor(descriptor) }
        var files = AtomicOutput()
        let file = try files.open(output ?? "-")
        // Not when the results themselves go to the same terminal: the line would run into them.
        let resultsOnTerminal = (output == nil || output == "-") && SystemCall.isTerminal(SystemCall.standardOutput)
        let pipeline = BatchPipeline(
            lines: LineReader(descriptor: descriptor, maximumLength: Self.maximumLineBytes),
            // A few jobs per worker may wait, done, for an earlier one: memory holds those
            // results and the jobs in hand, whatever the input's length.
            window: jobs * 4,
            progress: ProgressLine(enabled: SystemCall.isTerminal(SystemCall.standardError) && !resultsOnTerminal)
        ) { result in
            do {
                // Two writes rather than a copy of a result that may be hundreds of megabytes.
                try file.write(contentsOf: result)
                try file.write(contentsOf: [0x0A])
            } catch {
                throw CommandLineError("cannot write '\(output ?? "-")': \(OutputFile.describe(error))")
            }
        }
        // Jobs of one config under one name (re-plans of one user, say) check it once.
        let checkedConfigs = CheckedConfigs()
        // Each worker takes the next line, runs it and hands its result on; no worker waits
        // for the others between jobs.
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let (index, line) = pipeline.take() {
                pipeline.deliver(index, Self.result(of: line, checkedConfigs: checkedConfigs))
            }
        }
        pipeline.finishProgress()
        if let failure = pipeline.failure {
            // A full disk, a file-size limit, an unreadable input: the temporary file goes,
            // and a previous results file stays as it was.
            files.discard()
            throw failure
        }
        try files.commit()
    }

    static func result(of line: LineReader.Line, checkedConfigs: CheckedConfigs? = nil) -> [UInt8] {
        let number = line.number
        switch line {
        case .tooLong:
            return PlanJob.failure(PlanJobError(id: nil, message: "line \(number) is longer than \(maximumLineBytes) bytes"))
        case .text(let bytes, _):
            switch PlanJob.parse(bytes) {
            case .success(let job): return job.result(checkedConfigs: checkedConfigs).line
            case .failure(var error):
                error.message = "line \(number): " + error.message
                return PlanJob.failure(error)
            }
        }
    }
}

/// Runs a batch's jobs on several workers and writes each result as soon as every result
/// before it is written: results stream out in input order while later jobs run.
///
/// A job is taken only while fewer than `window` results are in hand or unwritten, so a
/// slow job holds back at most that many finished results. Reading and writing have locks
/// of their own: a worker waiting for input never keeps a finished result from going out,
/// which matters to a producer that waits for each result before it sends the next job.
final class BatchPipeline: Sendable {
    /// What the reading side holds: the input and how far it has been taken.
    private struct Reading {
        var lines: LineReader
        var nextIndex = 0
        var inputEnded = false
    }

    /// What the writing side holds: results waiting for an earlier one, and the output.
    private struct Writing {
        var nextToWrite = 0
        var finished: [Int: [UInt8]] = [:]
        var progress: ProgressLine
        let write: ([UInt8]) throws -> Void
    }

    private let reading: Locked<Reading>
    private let writing: Locked<Writing>
    /// One permit per job in hand or result not yet written.
    private let permits: DispatchSemaphore
    private let firstFailure = Locked<(any Error)?>(nil)

    init(lines: LineReader, window: Int, progress: ProgressLine, write: @escaping ([UInt8]) throws -> Void) {
        reading = Locked(Reading(lines: lines))
        writing = Locked(Writing(progress: progress, write: write))
        permits = DispatchSemaphore(value: window)
    }

    /// The first error of reading or writing; none means every line was read and written.
    var failure: (any Error)? { firstFailure.withLock { $0 } }

    private func fail(_ error: any Error) {
        firstFailure.withLock { if $0 == nil { $0 = error } }
    }

    /// The next line with its index, or nil once the input has ended or anything failed.
    func take() -> (Int, LineReader.Line)? {
        permits.wait()
        let taken: (Int, LineReader.Line)? = reading.withLock { reading in
            guard !reading.inputEnded, failure == nil else { return nil }
            do {
                guard let line = try reading.lines.next() else {
                    reading.inputEnded = true
                    return nil
                }
                defer { reading.nextIndex += 1 }
                return (reading.nextIndex, line)
            } catch {
                reading.inputEnded = true
                fail(error)
                return nil
            }
        }
        if taken == nil { permits.signal() }
        return taken
    }

    /// Hands over the result of the line `index`, and writes every result now due.
    func deliver(_ index: Int, _ result: [UInt8]) {
        writing.withLock { writing in
            writing.finished[index] = result
            while let due = writing.finished.removeValue(forKey: writing.nextToWrite) {
                if failure == nil {
                    do { try writing.write(due) } catch { fail(error) }
                }
                writing.nextToWrite += 1
                writing.progress.update(jobsDone: 1)
                permits.signal()
            }
        }
    }

    /// Ends the progress line, once every worker has stopped.
    func finishProgress() {
        writing.withLock { $0.progress.finish() }
    }
}

/// Lines of a file descriptor, read a block at a time; blank lines are skipped, and a line
/// longer than the limit is passed over without being held. Each line comes with its
/// number in the file (blank lines counted), and every byte is looked at once, however
/// long the line.
struct LineReader {
    enum Line {
        case text([UInt8], number: Int)
        case tooLong(number: Int)

        /// The line's number in the file, from 1.
        var number: Int {
            switch self {
            case .text(_, let number), .tooLong(let number): number
            }
        }
    }

    let descriptor: Int32
    let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line break goes on: bytes before it hold none.
    private var searched = 0
    private var atEnd = false
    private var skippingLongLine = false
    /// Lines ended so far, blank ones included.
    private var linesEnded = 0

    init(descriptor: Int32, maximumLength: Int) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { [0x20, 0x09, 0x0D].contains($0) }
    }

    mutating func next() throws -> Line? {
        while true {
            if let newline = ByteSearch.lineBreak(in: buffer.span, from: max(start, searched)) {
                let line = buffer[start..<newline]
                start = newline + 1
                searched = start
                linesEnded += 1
                if skippingLongLine {
                    skippingLongLine = false
                    return .tooLong(number: linesEnded)
                }
                if Self.isBlank(line) { continue }
                return .text(Array(line), number: linesEnded)
            }
            searched = buffer.count
            if atEnd {
                let rest = buffer[start...]
                defer {
                    buffer.removeAll()
                    start = 0
                    searched = 0
                }
                if skippingLongLine {
                    skippingLongLine = false
                    return .tooLong(number: linesEnded + 1)
                }
                return Self.isBlank(rest) ? nil : .text(Array(rest), number: linesEnded + 1)
            }
            // Keep only the unread part, then read more.
            if start > 0 {
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            if buffer.count > maximumLength {
                buffer.removeAll()
                searched = 0
                skippingLongLine = true
            }
            switch SystemCall.readBytes(from: descriptor, upTo: 1 << 20) {
            case .success(let chunk): if chunk.isEmpty { atEnd = true } else { buffer += chunk }
            case .failure(let failure): throw CommandLineError("cannot read the jobs: \(SystemCall.errorText(failure.code))")
            }
        }
    }
}

/// The progress of a long batch on standard error, when that is a terminal: one line,
/// rewritten at most four times a second, that a finished batch leaves in place. Off a
/// terminal (a log, a pipe, CI) nothing is written, so the error stream holds errors alone.
struct ProgressLine {
    let enabled: Bool
    private var jobsDone = 0
    private var lastShown: Int64 = 0
    private var shownAny = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    mutating func update(jobsDone more: Int) {
        jobsDone += more
        guard enabled else { return }
        let now = SystemCall.monotonicMilliseconds()
        guard now - lastShown >= 250 else { return }
        lastShown = now
        show()
    }

    /// Shows the final count, when anything was shown, and ends the line.
    mutating func finish() {
        guard enabled, shownAny || jobsDone > 0 else { return }
        show()
        StandardStream.error.write("\n")
        shownAny = false
    }

    private mutating func show() {
        shownAny = true
        // Carriage return and clear to the end of the line: the line is rewritten in place.
        StandardStream.error.write("\rremindc batch: \(jobsDone) \(jobsDone == 1 ? "job" : "jobs") done\u{1B}[K")
    }

}
