#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the agent could create or rewrite a file the configuration names (a recording, the durable
/// offline buffer), judged without touching it, so that a check creates nothing.
enum WritableFile {
    /// What stands in the way of writing `path`, or `nil`: a file already there must be a writable regular
    /// file; otherwise (and always with `requiringWritableDirectory`, for a file that gets companions, such
    /// as SQLite's `-wal`, or may be renamed) its directory must exist and be writable.
    static func problem(_ path: String, requiringWritableDirectory: Bool = false) -> String? {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let directoryPath = directory.isEmpty ? "/" : directory
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG, access(path, W_OK) == 0 else { return "not a writable regular file" }
            guard requiringWritableDirectory else { return nil }
        }
        guard stat(directoryPath, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return "no directory \(directory)" }
        guard access(directoryPath, W_OK) == 0 else { return "\(directory) is not writable" }
        return nil
    }
}
