#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that cannot be used as what it should be (a damaged offline buffer, a damaged state file) is
/// never overwritten: it is renamed out of the way, with the time in its name, so that nothing in it is
/// lost and someone can look at it later.
public enum DamagedFile {
    /// Renames `path` to `PATH.corrupt-YYYYMMDDTHHMMSSZ` (UTC), and each `path + suffix` of
    /// `companionSuffixes` (SQLite's `-wal` and `-shm`) beside it.
    /// - Returns: the new name, or `nil` when `path` could not be renamed (its directory is read-only, or
    ///   it is gone).
    public static func setAside(_ path: String, companionSuffixes: [String] = []) -> String? {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        let length = strftime(&stamp, stamp.count, "%Y%m%dT%H%M%SZ", &parts)
        let base = "\(path).corrupt-\(String(decoding: stamp.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))"
        // A second damage within the same second keeps the first copy.
        var aside = base
        var suffix = 1
        while access(aside, F_OK) == 0 {
            suffix += 1
            aside = "\(base)-\(suffix)"
        }
        guard rename(path, aside) == 0 else { return nil }
        for companion in companionSuffixes { _ = rename(path + companion, aside + companion) }
        return aside
    }
}
