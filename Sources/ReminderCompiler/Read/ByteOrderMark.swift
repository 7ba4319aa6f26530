/// The UTF-8 byte order mark (EF BB BF) that some editors write at the start of a file.
/// RFC 8259 lets a JSON reader ignore it, and every JSON reader of remindc does: configs,
/// events, plans, pending lists, batch jobs and service requests.
enum ByteOrderMark {
    /// 3 when `bytes` starts with the mark, else 0: where the document starts.
    static func length(of bytes: some Collection<UInt8>) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }
}
