#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionStorage

// A file changed under the journal while in use (replaced, removed, truncated, its header overwritten) is
// found at the next commit or within ``OfflineMessageJournal/watchInterval``, set aside, and written again
// whole from the rows the journal holds, so that a restart still finds every message it owes.
extension OfflineMessageJournal {
    /// On `writer`: sets the damaged file aside and writes every row into a new one; without a new file,
    /// the buffer is in memory only from now on.
    func rewrite(after damage: String) {
        // The statements first (they hold the database), the database, then the watch's descriptor.
        insertStatement = nil
        deleteStatement = nil
        database = nil
        watch = nil
        let rows = takeAllRows()
        var aside: String?
        if access(path, F_OK) == 0 {
            aside = DamagedFile.setAside(path, companionSuffixes: ["-wal", "-shm"])
            guard aside != nil else {
                disable("offline buffer \(path) changed while in use (\(damage)) and cannot be set aside: messages are kept in memory only from now on")
                return
            }
        } else {
            // Its log without it is of no use, and would be applied to the new file.
            for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        }
        do throws(SQLiteError) {
            let fresh = try JournalFile.open(path, owner: owner)
            let insert = try JournalFile.prepareInsert(fresh)
            let delete = try fresh.prepare("DELETE FROM messages WHERE key = ?")
            try fresh.execute("BEGIN IMMEDIATE")
            for (key, row) in rows { try JournalFile.insert(row, key: key, with: insert) }
            try fresh.execute("COMMIT")
            (database, insertStatement, deleteStatement) = (fresh, insert, delete)
            watch = FileWatch(path: path)
            problems.report("offline buffer \(path) changed while in use (\(damage)): "
                + (aside.map { "set aside as \($0), and " } ?? "") + "the \(rows.count) messages it holds written to a new file")
        } catch {
            disable("offline buffer \(path) changed while in use (\(damage)) and cannot be written again (\(error.message)): "
                + "messages are kept in memory only from now on")
        }
    }
}

/// What the journal knows of its file, to tell whether something else changed it: the file's identity
/// (device and inode) and header through a descriptor of its own, and the sizes after its last commit
/// (SQLite never shrinks either file here: no vacuum, no WAL size limit). Checked with two `stat`s, an
/// `fstat` and a 16-byte `pread`: nothing next to a transaction's `fsync`.
///
/// Touched only on the journal's writer queue. Its descriptor is closed after SQLite's (closing any
/// descriptor of a file drops the process's POSIX locks on it, SQLite's exclusive lock among them).
final class FileWatch {
    let path: String
    private let descriptor: Int32
    private let identity: (device: UInt64, inode: UInt64)
    private var size: Int64 = 0
    private var log: (device: UInt64, inode: UInt64, size: Int64)?

    /// SQLite's header: "SQLite format 3" and a NUL.
    private static let header = Array("SQLite format 3".utf8) + [0]

    /// Watches the database at `path` (open and checked by SQLite); `nil` when it cannot be opened.
    init?(path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        identity = (UInt64(status.st_dev), UInt64(status.st_ino))
        noteWrites()
    }

    deinit { close(descriptor) }

    /// After a commit: the sizes the files have now.
    func noteWrites() {
        var status = stat()
        if fstat(descriptor, &status) == 0 { size = Int64(status.st_size) }
        if stat(path + "-wal", &status) == 0 {
            log = (UInt64(status.st_dev), UInt64(status.st_ino), Int64(status.st_size))
        }
    }

    /// What changed the file since it was opened, or `nil` when it is as the journal left it.
    func damage() -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "it is gone: \(String(cString: strerror(errno)))" }
        guard (UInt64(status.st_dev), UInt64(status.st_ino)) == identity else { return "another file took its place" }
        guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= size else { return "it was cut short" }
        var bytes = [UInt8](repeating: 0, count: Self.header.count)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count == bytes.count, bytes == Self.header else { return "its header was overwritten" }
        if let log {
            guard stat(path + "-wal", &status) == 0 else { return "its write-ahead log is gone" }
            guard (UInt64(status.st_dev), UInt64(status.st_ino)) == (log.device, log.inode) else {
                return "another file took the place of its write-ahead log"
            }
            guard Int64(status.st_size) >= log.size else { return "its write-ahead log was cut short" }
        }
        return nil
    }
}
