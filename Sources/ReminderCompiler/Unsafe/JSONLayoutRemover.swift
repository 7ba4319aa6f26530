#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes the layout out of JSON as it streams past: a raw line break only ever starts
/// indentation (strings hold theirs escaped), so each one goes with the spaces after it,
/// also when a chunk ends between them.
///
/// A job's result line carries its plan this way, every byte of it passing through here:
/// line breaks are found with `memchr` rather than a byte at a time (a W1 job's 23 KB plan
/// took 237 000 instructions here, of the job's 3.5 M).
struct JSONLayoutRemover {
    private var inIndentation = false

    mutating func append(_ chunk: Span<UInt8>, to result: inout [UInt8]) {
        var index = 0
        while index < chunk.count {
            if inIndentation {
                if chunk[index] == 0x20 {
                    index += 1
                    continue
                }
                inIndentation = false
            }
            // The run up to the next line break goes in one copy.
            let end = ByteSearch.lineBreak(in: chunk, from: index) ?? chunk.count
            result.append(span: chunk.extracting(index..<end))
            if end < chunk.count { inIndentation = true }
            index = min(end + 1, chunk.count)
        }
    }

}

/// Line breaks found with `memchr` rather than a byte at a time: in a job's plan as its
/// layout is taken out, and in `remindc batch`'s jobs file, whose lines a generic search
/// had scanned at some 500 instructions a byte in a debug build (an 8 MiB line, 4.3 G).
package enum ByteSearch {
    /// The offset of the first line feed in `bytes` at or after `start`, nil when there is
    /// none (or `start` is outside them).
    package static func lineBreak(in bytes: Span<UInt8>, from start: Int) -> Int? {
        guard start >= 0, start < bytes.count else { return nil }
        return unsafe bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                  let found = unsafe memchr(base + start, 0x0A, buffer.count - start)
            else { return nil }
            return unsafe UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }
}
