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
/// A job's result line carries its plan this way, every byte of it passing through here.
/// A chunk is appended whole and its lines are then moved together inside the line's own
/// storage: one copy of the chunk, and per line a `memchr` and a `memmove`. Appending each
/// line on its own, and stepping over indentation through the chunk's `Span`, took about
/// 220 000 instructions of a W1 job's 23 KB plan; this way a W1 request costs the service
/// about 150 000 fewer, hashing its config in one call included (see Service and batch,
/// "Figures").
struct JSONLayoutRemover {
    private var inIndentation = false

    mutating func append(_ chunk: Span<UInt8>, to result: inout [UInt8]) {
        guard !chunk.isEmpty else { return }
        let start = result.count
        result.append(span: chunk)
        var inIndentation = self.inIndentation
        let end = unsafe result.withUnsafeMutableBufferPointer { buffer -> Int in
            // Not empty: the chunk was just appended.
            guard let base = buffer.baseAddress else { return buffer.count }
            let count = buffer.count
            var read = start, write = start
            while read < count {
                if inIndentation {
                    while read < count, unsafe base[read] == 0x20 { read += 1 }
                    if read == count { break }
                    inIndentation = false
                }
                let lineEnd = unsafe memchr(base + read, 0x0A, count - read).map { unsafe UnsafeMutableRawPointer($0) - UnsafeMutableRawPointer(base) } ?? count
                // Moved left over the layout taken out: `write` never passes `read`.
                if write != read { unsafe memmove(base + write, base + read, lineEnd - read) }
                write += lineEnd - read
                if lineEnd < count { inIndentation = true }
                read = lineEnd + 1
            }
            return write
        }
        self.inIndentation = inIndentation
        result.removeLast(result.count - end)
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
