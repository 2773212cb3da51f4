#if canImport(Glibc)
import Glibc
#endif
import MotionHAL
import MotionMath

/// The file that keeps the edge node's last `bdSeq` across restarts (`sparkplug.state_file`): one line,
/// `bdSeq N`, replaced atomically (written beside, synced, renamed), so a power cut leaves the old value
/// or the new one.
struct SparkplugStateFile: Sendable {
    /// The file; nil: no file (nothing is kept).
    let path: String?

    /// The `bdSeq` kept (nil when there is none: no file yet, or none configured), or why a file that is
    /// there cannot be read (damaged, too large): the run then starts at 0 and says so.
    func read() -> (sequence: UInt64?, problem: String?) {
        guard let path else { return (nil, nil) }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maximumSize: 64)
        } catch {
            return (nil, access(path, F_OK) != 0 ? nil : "cannot read \(path): \(error)")
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingBlanks()
        guard text.hasPrefix("bdSeq "), let value = UInt64(text.dropFirst(6)), value <= 255 else {
            return (nil, "\(path) does not hold \"bdSeq N\" with N 0…255")
        }
        return (value, nil)
    }

    /// Keeps `sequence`.
    /// - Throws: ``RegularFile/WriteError`` naming the step; the file is then unchanged.
    func write(_ sequence: UInt64) throws(RegularFile.WriteError) {
        guard let path else { return }
        try RegularFile.replace(path, with: Array("bdSeq \(sequence)\n".utf8))
    }
}
