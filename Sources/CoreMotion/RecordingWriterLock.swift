#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The right to record one sensor into one store: an exclusive `flock` on a file beside the store
/// (`STORE-writer-KIND`), so that two processes using the same store never record the same sensor twice.
/// The kernel releases it when the process ends, however it ends. Not thread-safe: its owner serialises.
final class RecordingWriterLock {
    private let path: String
    private var descriptor: Int32 = -1

    /// The lock of `sensor` in the store at `storePath` (not taken yet).
    init(storePath: String, sensor: RecordedSensor) {
        path = "\(storePath)-writer-\(sensor.rawValue)"
    }

    deinit {
        release()
    }

    /// Whether this object holds the lock.
    var isHeld: Bool { descriptor >= 0 }

    /// Takes the lock without waiting; false when another process holds it (or the file cannot be made).
    func acquire() -> Bool {
        guard descriptor < 0 else { return true }
        let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard file >= 0 else { return false }
        guard flock(file, LOCK_EX | LOCK_NB) == 0 else {
            close(file)
            return false
        }
        descriptor = file
        return true
    }

    /// Gives the lock up (the file stays, empty).
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }
}
