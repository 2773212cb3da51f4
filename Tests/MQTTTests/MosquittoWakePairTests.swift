import CMosquitto
import Foundation
import Testing

@testable import MQTT

/// libmosquitto's wake-up socket pair: found where libmosquitto 2.0 keeps it, pointed at `/dev/null` on
/// plain-TCP handles (which never read it) and kept over TLS (whose network thread waits on it).
@Suite struct MosquittoWakePairTests {
    /// Whether `descriptor` is open on `/dev/null`.
    private func isDevNull(_ descriptor: Int32) -> Bool {
        var status = stat()
        var null = stat()
        guard fstat(descriptor, &status) == 0, stat("/dev/null", &null) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFCHR && status.st_rdev == null.st_rdev
    }

    private func isUnixSocket(_ descriptor: Int32) -> Bool {
        var domain: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 && domain == AF_UNIX
    }

    @Test func aNewHandlesPairIsFoundAndRetiredToDevNull() throws {
        try MosquittoLibrary.ensureInitialized()
        let handle = try #require(mosquitto_new("wake-pair-test", true, nil))
        defer { mosquitto_destroy(handle) }
        let pair = try #require(MosquittoWakePair.descriptors(of: handle))
        #expect(isUnixSocket(pair.read) && isUnixSocket(pair.write))

        #expect(MosquittoWakePair.retire(on: handle) == .retired)
        #expect(isDevNull(pair.read) && isDevNull(pair.write))
        // The numbers stay open (mosquitto_destroy closes them), close-on-exec as libmosquitto made them.
        #expect(fcntl(pair.write, F_GETFD) == FD_CLOEXEC)
        // Retired, the layout no longer checks out: a second call changes nothing.
        #expect(MosquittoWakePair.descriptors(of: handle) == nil)
        #expect(MosquittoWakePair.retire(on: handle) != .retired)
        // Queueing still works around it: libmosquitto's byte goes to /dev/null, the packet waits for a socket.
        #expect(mosquitto_publish(handle, nil, "t", 1, "x", 0, false) == MOSQ_ERR_NO_CONN.rawValue)
    }

    @Test func aPlainTCPClientRetiresItsPair() throws {
        let link = try MosquittoLink(
            configuration: MQTTClientConfiguration(broker: MQTTBrokerAddress(host: "127.0.0.1", port: 1), clientID: "plain"),
            events: { _ in })
        #expect(link.wakePair == .retired)
    }

    @Test func aTLSClientKeepsItsPairForItsNetworkThread() throws {
        let authorities = FileManager.default.temporaryDirectory.appendingPathComponent("wake-pair-ca-\(getpid())")
        try FileManager.default.createDirectory(at: authorities, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: authorities) }
        let link = try MosquittoLink(
            configuration: MQTTClientConfiguration(
                broker: MQTTBrokerAddress(host: "127.0.0.1", port: 1), clientID: "tls",
                tls: MQTTTLSConfiguration(caDirectory: authorities.path)),
            events: { _ in })
        #expect(link.wakePair == nil)
        let pair = try #require(MosquittoWakePair.descriptors(of: link.handle))
        #expect(isUnixSocket(pair.read) && isUnixSocket(pair.write))
    }
}
