extension Array where Element == UInt8 {
    /// Feeds the bytes to `hasher` in one call, with their count first as `Array`'s own
    /// `hash(into:)` does, which feeds them one `UInt8` at a time: the kept checks hash a
    /// job's whole config with each lookup (W1's 2.8 KB took 75 000 instructions so).
    func hashContents(into hasher: inout Hasher) {
        hasher.combine(count)
        unsafe withUnsafeBytes { unsafe hasher.combine(bytes: $0) }
    }
}
