import CMosquitto
import Foundation
import Testing

@testable import MQTT

/// libmosquitto's wake-up socket pair: found where libmosquitto 2.0 keeps it, closed and marked absent on
/// plain-TCP handles (which never read it) and kept over TLS (whose network thread waits on it).
@Suite struct MosquittoWakePairTests {
    private func isUnixSocket(_ descriptor: Int32) -> Bool {
        var domain: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 && domain == AF_UNIX
    }

    @Test func aNewHandlesPairIsFoundClosedAndMarkedAbsent() throws {
        try MosquittoLibrary.ensureInitialized()
        let handle = try #require(mosquitto_new("wake-pair-test", true, nil))
        defer { mosquitto_destroy(handle) }
        let pair = try #require(MosquittoWakePair.descriptors(of: handle))
        #expect(isUnixSocket(pair.read) && isUnixSocket(pair.write))

        #expect(MosquittoWakePair.retire(on: handle) == .retired)
        // INVALID_SOCKET in both fields: libmosquitto's own "no pair" (socketpair failed), which it tests
        // for before every write, wait and close. (The numbers themselves are closed; another test's
        // descriptor may take them at once, so they are not checked here.)
        let fields = UnsafeRawPointer(handle)
        #expect(fields.load(fromByteOffset: 4, as: Int32.self) == -1 && fields.load(fromByteOffset: 8, as: Int32.self) == -1)
        #expect(fields.load(fromByteOffset: 0, as: Int32.self) == mosquitto_socket(handle))
        // Retired, the layout no longer checks out: a second call changes nothing.
        #expect(MosquittoWakePair.descriptors(of: handle) == nil)
        #expect(MosquittoWakePair.retire(on: handle) != .retired)
        // Queueing still works without it: the packet waits for a socket.
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
