#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entries of a folder, read with the C library.
package enum DirectoryListing {
    /// The names in the folder at `path` but `.` and `..`, in the order the file system
    /// gives them; nil when it cannot be opened (missing, or not a folder). With
    /// `hiddenOnly`, only names that start with `.`: the others are passed over before
    /// they are made into strings (a folder of 6 400 files cost 7.7 M instructions when
    /// every name became one).
    package static func names(in path: String, hiddenOnly: Bool = false) -> [String]? {
        guard let directory = unsafe opendir(path) else { return nil }
        defer { unsafe closedir(directory) }
        var names: [String] = []
        while let entry = unsafe readdir(directory) {
            if hiddenOnly, unsafe entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { continue }
            let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
                unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

/// What a path is, links followed.
enum PathKind: Equatable {
    /// A folder, with the identity that tells a link loop.
    case folder(device: UInt64, inode: UInt64)
    /// A regular file.
    case file
    /// Missing, a device, a pipe, or unreadable.
    case other
}

/// Files read with the C library.
enum FileAccess {
    /// What `path` is, links followed.
    static func kind(of path: String) -> PathKind {
        var status = stat()
        guard unsafe stat(path, &status) == 0 else { return .other }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .folder(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them: nil when it cannot be
    /// read (missing, a folder) or is longer, unless `truncating`. Read with the C
    /// library, non-blocking, so that a pipe by a zone's name cannot hold a command up.
    static func contents(ofFileAt path: String, limit: Int, truncating: Bool = false) -> [UInt8]? {
        let descriptor = unsafe open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // Read in steps through a small buffer rather than into room for `limit` bytes:
        // zone files are a few kilobytes, and zeroing a quarter megabyte cost more than
        // reading one. Each step is appended as a block: growing the array by a step of
        // zeros first went element by element in a debug build, 11 G instructions to
        // list the zone folder (1.7 s before one unknown time zone was reported).
        var bytes: [UInt8] = []
        let stepSize = 4096
        let finished: Bool = unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stepSize) { step in
            while bytes.count <= limit {
                let wanted = min(stepSize, limit + 1 - bytes.count)
                let count = unsafe read(descriptor, step.baseAddress!, wanted)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { return false }
                if count == 0 { break }
                unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: step[..<count]))
            }
            return true
        }
        guard finished, bytes.count <= limit || truncating else { return nil }
        if bytes.count > limit { bytes.removeLast(bytes.count - limit) }
        return bytes
    }

    /// An open descriptor of the file at `path`, for reading; nil when it cannot be opened.
    static func openForReading(_ path: String) -> Int32? {
        let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Reads the next bytes of `descriptor` into `buffer`, retrying after signals: how
    /// many, 0 at the end of the file, nil when it cannot be read.
    static func readBytes(from descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let count = unsafe read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            return count >= 0 ? count : nil
        }
    }

    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
}
