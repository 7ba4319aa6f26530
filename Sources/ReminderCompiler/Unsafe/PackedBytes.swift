/// Byte strings written once and kept, one after another, at one address for the object's
/// life, so that writers copy them through pointers: no closure, no retained array, no
/// string. Allocated once and never changed, so safe to read from any thread.
@safe final class PackedBytes: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private let ranges: [Range<Int>]

    init(_ parts: [[UInt8]]) {
        unsafe storage = .allocate(capacity: parts.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        var start = 0
        for part in parts {
            _ = unsafe UnsafeMutableBufferPointer(rebasing: storage[start..<(start + part.count)]).initialize(from: part)
            ranges.append(start..<(start + part.count))
            start += part.count
        }
        self.ranges = ranges
    }

    deinit {
        unsafe storage.deallocate()
    }

    /// Parts `first` through `last`, which lie one after another, as one: valid while this
    /// object lives.
    func parts(_ first: Int, through last: Int) -> UnsafeBufferPointer<UInt8> {
        unsafe UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[ranges[first].lowerBound..<ranges[last].upperBound])
    }

    /// Part `index`: valid while this object lives.
    func part(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        unsafe parts(index, through: index)
    }
}
