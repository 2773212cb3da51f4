#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a small file whole (a configuration, a calibration) with the checks that keep a wrong path
/// harmless: `/dev/zero`, a directory, a FIFO or a runaway file is refused before anything is read.
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

/// `read(2)` (at file scope, where `read` is the system's and not ``RegularFile/read(_:maximumSize:)``).
private func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    read(descriptor, buffer, count)
}
