#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread read-write lock: many readers at once, or one writer.
///
/// ``MosquittoLink`` uses it over plain TCP, where publishing threads write to the socket
/// themselves: they hold it for reading while inside libmosquitto, and the network thread holds it for
/// writing around every call that can close the socket (reading, writing, keepalive, disconnect,
/// reconnect), so a descriptor is never closed, and its number reused, under a publishing thread.
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked Sendable: the pthread object lives at a fixed heap address for the object's lifetime and
    // is only used through the pthread functions, which are thread-safe.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` holding the lock for reading.
    func withReadLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the lock for writing.
    func withWriteLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
