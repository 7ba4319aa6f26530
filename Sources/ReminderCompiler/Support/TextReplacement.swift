extension String {
    /// The text with every occurrence of `target` replaced by `replacement`, from the left
    /// and without overlaps; unchanged when `target` is empty. (Foundation's
    /// `replacingOccurrences` is not in FoundationEssentials, and the standard library's
    /// `replacing` needs macOS 13 and iOS 16.)
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        let pattern = Array(target.utf8)
        guard !pattern.isEmpty, utf8.count >= pattern.count else { return self }
        let bytes = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, bytes[index..<index + pattern.count].elementsEqual(pattern) {
                result.append(contentsOf: replacement.utf8)
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
