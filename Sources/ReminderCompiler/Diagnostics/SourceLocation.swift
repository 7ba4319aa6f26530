/// A position in an input file, as editors and CI annotations expect it.
///
/// Lines and columns are 1-based; the column counts Unicode scalars from the start of the
/// line, so a tab or an accented letter counts as one.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
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

    /// The place of a value in a config built in code, named by its key path
    /// (`reminders[1].schedule.interval`): such a config has no file, lines or columns.
    public static func keyPath(_ path: String) -> SourceLocation {
        SourceLocation(path: path, line: 0, column: 0)
    }

    /// Where a part of a config built in code stands until it is given a key path.
    public static let inCode = SourceLocation.keyPath("")

    /// Whether this names a key path of a config built in code rather than a file position.
    public var isKeyPath: Bool { line == 0 }

    /// `path:line:column`, or the key path alone; a control character in the path (a line
    /// break in a file's name) is escaped as `VisibleText` does, so that the line stays one.
    public var description: String {
        let shownPath = VisibleText.escaped(path)
        return isKeyPath ? shownPath : "\(shownPath):\(line):\(column)"
    }

    /// Orders by path, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}

/// Turns byte offsets of a UTF-8 buffer into lines and columns.
///
/// Every element of a file asks for its position, and minified JSON puts a whole file on
/// one line: counting scalars from the start of the line each time would be quadratic. So
/// the table also keeps how many scalars start before each block of `blockSize` bytes, and
/// a lookup counts at most one block.
struct LineTable: Sendable {
    private let lineStarts: [Int]
    /// `scalarsBeforeBlock[k]`: the scalars that start before byte `k × blockSize`.
    private let scalarsBeforeBlock: [Int]
    private let bytes: [UInt8]
    /// No UTF-8 continuation byte: a column is then a distance in bytes. Most configs and
    /// plans are ASCII, and the readers locate every element they read (reading W1's
    /// config spent 95 000 of its 0.76 M instructions counting scalars block by block).
    private let everyByteStartsAScalar: Bool
    private static let blockSize = 64

    init(_ bytes: [UInt8]) {
        var starts = [0]
        var scalarsBefore: [Int] = []
        scalarsBefore.reserveCapacity(bytes.count / Self.blockSize + 1)
        var scalars = 0
        for (offset, byte) in bytes.enumerated() {
            if offset % Self.blockSize == 0 { scalarsBefore.append(scalars) }
            if byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
            // UTF-8 continuation bytes are 0b10xxxxxx; every other byte starts a scalar.
            if byte & 0xC0 != 0x80 { scalars += 1 }
        }
        scalarsBefore.append(scalars)
        self.lineStarts = starts
        self.scalarsBeforeBlock = scalarsBefore
        self.bytes = bytes
        self.everyByteStartsAScalar = scalars == bytes.count
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
        if everyByteStartsAScalar { return (low + 1, offset - lineStarts[low] + 1) }
        return (low + 1, scalarsBefore(offset) - scalarsBefore(lineStarts[low]) + 1)
    }

    /// The number of scalars that start before byte `offset`.
    private func scalarsBefore(_ offset: Int) -> Int {
        let block = offset / Self.blockSize
        var count = scalarsBeforeBlock[block]
        for index in (block * Self.blockSize)..<offset where bytes[index] & 0xC0 != 0x80 {
            count += 1
        }
        return count
    }
}
