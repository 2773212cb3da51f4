#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a small file whole (a configuration, a calibration) with the checks that keep a wrong path
/// harmless: `/dev/zero`, a directory, a FIFO or a runaway file is refused before anything is read; and
/// replacing one whole so that a crash or power cut leaves the old contents or the new, never a mix.
public enum RegularFile {
    /// Why a file could not be read; `description` completes "cannot read PATH: …".
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The system refused (`strerror`'s words).
        case unreadable(reason: String)
        /// It is a directory, a device, a FIFO or a socket.
        case notRegularFile
        /// It is larger than the limit, bytes.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .notRegularFile: "not a regular file"
            case .tooLarge(let limit): "larger than \(limit / 1024) KiB"
            }
        }
    }

    /// The contents of the regular file at `path`.
    /// - Parameters:
    ///   - path: the file.
    ///   - maximumSize: the largest size accepted, bytes.
    /// - Throws: ``ReadError``.
    public static func read(_ path: String, maximumSize: Int) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
        guard status.st_size <= maximumSize else { throw .tooLarge(limit: maximumSize) }
        // Read to the end, not to st_size: a file that grows while it is read is taken up to the limit.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= maximumSize else { throw .tooLarge(limit: maximumSize) }
                bytes.append(contentsOf: repeatElement(0, count: max(count, 4096)))
            }
            let result = bytes.withUnsafeMutableBytes { buffer in
                readSome(descriptor, into: buffer.baseAddress! + count, count: buffer.count - count)
            }
            if result > 0 {
                count += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                throw .unreadable(reason: String(cString: strerror(errno)))
            }
        }
        guard count <= maximumSize else { throw .tooLarge(limit: maximumSize) }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

extension RegularFile {
    /// Why a file could not be replaced: the step and the system's words.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Replaces the file at `path` with `bytes` atomically: written to `PATH.tmp`, synced, renamed over
    /// `path`, and the directory synced, so that after a crash or power cut the file holds the old bytes
    /// or the new ones.
    /// - Parameters:
    ///   - path: the file (its directory must exist and be writable).
    ///   - bytes: the new contents.
    ///   - permissions: the mode of a new file (before the umask), `0o640` by default.
    /// - Throws: ``WriteError`` naming the step and the system's words; `path` is then unchanged.
    public static func replace(_ path: String, with bytes: [UInt8], permissions: mode_t = 0o640) throws(WriteError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, permissions)
        guard descriptor >= 0 else { throw WriteError(description: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        try fill(descriptor, at: temporary, with: bytes)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(description: "cannot rename \(temporary) to \(path): \(reason)")
        }
        // The rename itself is durable once the directory is synced.
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let directoryDescriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

extension RegularFile {
    /// Creates the file at `path` with `bytes`, and never anything else: `O_CREAT|O_EXCL|O_NOFOLLOW`, so an
    /// existing file, a symbolic link (even one pointing nowhere: writing through it would put a secret
    /// wherever the link's owner chose) or a path that is not allowed fails with the system's words, and the
    /// file is never there half-written (removed when the write fails).
    /// - Parameters:
    ///   - path: the new file.
    ///   - bytes: its contents.
    ///   - permissions: its mode (before the umask), `0o600` by default: for secrets.
    /// - Throws: ``WriteError``: `cannot create PATH: File exists` and the like.
    public static func create(_ path: String, with bytes: [UInt8], permissions: mode_t = 0o600) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw WriteError(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        try fill(descriptor, at: path, with: bytes)
    }

    /// Writes all of `bytes` to the new file `descriptor` opened at `path`, syncs it and closes it; on
    /// failure the file is closed and removed.
    private static func fill(_ descriptor: Int32, at path: String, with bytes: [UInt8]) throws(WriteError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { writeSome(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(path)
                throw WriteError(description: "cannot write \(path): \(reason)")
            }
        }
        let synced = fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard synced else {
            unlink(path)
            throw WriteError(description: "cannot sync \(path): \(reason)")
        }
    }
}

/// `write(2)` at file scope.
private func writeSome(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `read(2)` (at file scope, where `read` is the system's and not ``RegularFile/read(_:maximumSize:)``).
private func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    read(descriptor, buffer, count)
}
