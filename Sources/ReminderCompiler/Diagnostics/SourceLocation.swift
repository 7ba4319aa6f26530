/// A position in an input file, as editors and CI annotations expect it.
///
/// Lines and columns are 1-based; the column counts Unicode scalars from the start of the
/// line, so a tab or an accented letter counts as one.
public struct SourceLocation: Sendable, Hashable, Comparable {
    /// The file as the user named it.
    public var path: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// Orders by path, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}

/// Turns byte offsets of a UTF-8 buffer into lines and columns.
struct LineTable: Sendable {
    private let lineStarts: [Int]
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
        self.bytes = bytes
    }

    /// The 1-based line and column of `offset`.
    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let lineStart = lineStarts[low]
        // Count scalars, not bytes: UTF-8 continuation bytes are 0b10xxxxxx.
        var column = 1
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return (low + 1, column)
    }
}
