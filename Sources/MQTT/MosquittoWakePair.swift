import CMosquitto
#if canImport(Glibc)
import Glibc
#endif

/// libmosquitto's internal wake-up socket pair, retired on handles that never read it.
///
/// **What it costs.** `mosquitto_new` opens a Unix socket pair, and libmosquitto 2.0 writes one byte to it
/// for every packet it queues (`packet__queue`), so that a thread blocked in `mosquitto_loop` wakes up,
/// whether or not any thread ever reads it. Over plain TCP the client never runs `mosquitto_loop` (its
/// network thread polls the MQTT socket and its own ``WakeSignal``), so the bytes pile up: until the pair's
/// send buffer is full, every publication allocates a kernel buffer for its byte (278 of them, about
/// 170 kB of unswappable kernel memory per client, measured with `ss -x` and `/proc/meminfo` on 300
/// simulated devices), and from then on every publication makes one failing `write`.
///
/// **What retiring does.** ``retire(on:)`` closes both descriptors and marks the pair absent in the
/// handle (`INVALID_SOCKET`, -1): the state libmosquitto itself leaves a handle in when `socketpair`
/// fails in `mosquitto_new` ("outgoing publish commands may be delayed"), and which every use of the
/// pair in libmosquitto tests for first: `packet__queue` then writes no byte (one system call less per
/// publication), `mosquitto_loop` leaves it out of its wait, and `mosquitto_destroy` closes nothing
/// twice. (Until 2026-12-06 both ends were pointed at `/dev/null`, which freed the pair's kernel memory
/// but kept a `write` per publication: half the simulator's system calls.)
///
/// **Why it is safe to find them.** libmosquitto has no API for the pair. Its descriptors are the second
/// and third `int` of the handle's structure: `struct mosquitto { mosq_sock_t sock; mosq_sock_t sockpairR,
/// sockpairW; … }` in every client build from 1.4 to 2.0. Nothing is touched unless that checks out on
/// the handle itself: libmosquitto 2.x, the first field equal to `mosquitto_socket` (no connection yet),
/// and the two others distinct, open, unnamed Unix stream sockets whose peer is this process.
///
/// Threading: call it on a new handle, before any other thread can use it.
enum MosquittoWakePair {
    /// What ``retire(on:)`` did.
    enum Outcome: Equatable, Sendable {
        /// The pair is closed and marked absent in the handle.
        case retired
        /// Nothing was changed; why (a different libmosquitto, or the layout did not check out).
        case kept(String)
    }

    /// The pair's descriptors in `handle`, checked as described above (nil when they do not check out).
    /// - Returns: the read and the write end.
    static func descriptors(of handle: OpaquePointer) -> (read: Int32, write: Int32)? {
        var major: Int32 = 0
        mosquitto_lib_version(&major, nil, nil)
        guard major == 2 else { return nil }
        let fields = UnsafeRawPointer(handle)
        let socket = fields.load(fromByteOffset: 0, as: Int32.self)
        let read = fields.load(fromByteOffset: 4, as: Int32.self)
        let write = fields.load(fromByteOffset: 8, as: Int32.self)
        guard socket == mosquitto_socket(handle), read >= 0, write >= 0, read != write, read != socket,
            isOwnUnnamedStreamSocket(read), isOwnUnnamedStreamSocket(write)
        else { return nil }
        return (read, write)
    }

    /// Closes the pair and marks it absent in the handle (see the type's description); a handle whose
    /// layout does not check out is left as it is.
    /// - Parameter handle: a handle fresh from `mosquitto_new`, not yet connected, never to run
    ///   `mosquitto_loop`, `mosquitto_loop_start` or `mosquitto_threaded_set(true)`.
    @discardableResult
    static func retire(on handle: OpaquePointer) -> Outcome {
        guard let pair = descriptors(of: handle) else {
            return .kept("libmosquitto's socket pair was not found where libmosquitto 2.0 keeps it")
        }
        // Marked absent before the numbers are closed, so the handle never names a closed descriptor.
        let fields = UnsafeMutableRawPointer(handle)
        fields.storeBytes(of: -1, toByteOffset: 4, as: Int32.self)
        fields.storeBytes(of: -1, toByteOffset: 8, as: Int32.self)
        close(pair.write)
        close(pair.read)
        return .retired
    }

    /// Whether `descriptor` is a Unix stream socket without a name whose peer is this process: one end of
    /// a `socketpair` made here.
    private static func isOwnUnnamedStreamSocket(_ descriptor: Int32) -> Bool {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard option(SO_DOMAIN) == AF_UNIX, option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else { return false }
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, length == socklen_t(MemoryLayout<sa_family_t>.size) else { return false }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (a GNU extension the Glibc module leaves out).
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var credentialsLength = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &credentialsLength) == 0 else { return false }
        return credentials.pid == getpid()
    }
}
