import CMosquitto
#if canImport(Glibc)
import Glibc
#endif

/// A Linux `eventfd` that one thread raises to end another thread's `poll` early.
///
/// ``MosquittoNetworkLoop`` polls the MQTT socket and this descriptor; publishing
/// threads raise it only when libmosquitto still holds unwritten packets after a call, and `shutdown`
/// raises it so the thread sees the stop request at once instead of at its poll timeout.
final class WakeSignal: Sendable {
    /// The descriptor to poll for `POLLIN` (non-blocking, close-on-exec).
    let descriptor: Int32

    /// Creates the eventfd.
    /// - Throws: ``MQTTError`` with the system `errno` when the kernel refuses (descriptor limit).
    init() throws(MQTTError) {
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw MQTTError(code: MosquittoResult.systemError.code, operation: "create the network thread's wake-up descriptor", systemErrno: errno)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Makes the descriptor readable; raising it again before it is drained costs nothing more.
    func raise() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes the descriptor unreadable again (after `poll` reported it).
    func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
    }
}
