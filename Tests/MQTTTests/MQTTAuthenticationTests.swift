import Foundation
@testable import MQTT
import MotionTestSupport
import Testing

/// User name / password and TLS against a real mosquitto (password file, TLS listener with test certificates).
@Suite("MQTT authentication and TLS")
struct MQTTAuthenticationTests {
    @Test("the right password connects, a wrong one is refused with the broker's reason")
    func passwordAuthentication() throws {
        let broker = try MosquittoBroker(options: .init(allowAnonymous: false, users: ["device-7": "right horse battery"]))
        let passwordFile = broker.directory + "/client-password"
        try "right horse battery\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o600)
        let good = try TestClient.connected(to: broker.address, clientID: "auth-good") { configuration in
            configuration.username = "device-7"
            configuration.password = try? MQTTPassword(contentsOfFile: passwordFile)
        }
        #expect(broker.waitForLog(containing: "as auth-good (p5, c1, k30, u'device-7')"), "\(broker.log())")
        good.shutdown(timeout: .seconds(1))

        let events = EventLog()
        let bad = try TestClient.started(to: broker.address, clientID: "auth-bad", configure: { configuration in
            configuration.username = "device-7"
            configuration.password = MQTTPassword("wrong")
        }, events: events)
        #expect(events.wait(for: "connectionRefused"))
        if case .connectionRefused(let code, let reason)? = events.all.first {
            // mosquitto answers a failed password check with MQTT 5 "not authorized" (0x87).
            #expect(code == 135, "\(reason)")
            #expect(reason == "Not authorized")
        }
        #expect(!bad.isConnected)
        bad.shutdown(timeout: .seconds(1))
    }

    @Test("TLS with the right CA connects and carries messages; a wrong CA fails with OpenSSL's reason")
    func tlsServerCertificate() throws {
        let broker = try MosquittoBroker(options: .init(tls: .serverCertificate))
        let certificates = try #require(broker.certificates)
        let trusted = MQTTTLSConfiguration(caFile: certificates.caCertificatePath)
        let receiverEvents = EventLog()
        let receiver = try TestClient.connected(to: broker.address, clientID: "tls-rx", configure: { $0.tls = trusted }, events: receiverEvents)
        try TestClient.subscribe(receiver, events: receiverEvents, to: "secure/#")
        let sender = try TestClient.connected(to: broker.address, clientID: "tls-tx") { $0.tls = trusted }
        let payload = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let id = try sender.publish(MQTTMessage(topic: "secure/blob", payload: payload, qos: .atLeastOnce))
        #expect(sender.waitUntilPublished(messageID: id, timeout: .seconds(5)))
        #expect(receiverEvents.waitForMessage(on: "secure/blob")?.payload == payload)

        let events = EventLog()
        let untrusting = try TestClient.started(
            to: broker.address, clientID: "tls-wrong-ca",
            configure: { $0.tls = MQTTTLSConfiguration(caFile: certificates.otherCACertificatePath) }, events: events)
        #expect(events.wait(for: "disconnected"))
        if case .disconnected(let code, let reason)? = events.all.first {
            // MOSQ_ERR_TLS from libmosquitto 2.0.11 (Debian 12), MOSQ_ERR_ERRNO from 2.0.21 (Debian 13): the
            // reason carries OpenSSL's words either way.
            #expect(code == 8 || code == 14, "\(code): \(reason)")
            #expect(reason.contains("certificate verify failed"), "\(reason)")
        }
        #expect(!untrusting.waitUntilConnected(timeout: .milliseconds(200)))
        untrusting.shutdown(timeout: .seconds(1))

        // The certificate names IP 127.0.0.1 only: as "localhost" the broker fails the host name check,
        // unless the check is switched off.
        let localhost = MQTTBrokerAddress(host: "localhost", port: broker.port)
        let checkedEvents = EventLog()
        let checked = try TestClient.started(to: localhost, clientID: "tls-localhost", configure: { $0.tls = trusted }, events: checkedEvents)
        #expect(checkedEvents.wait(for: "disconnected"))
        #expect(!checked.isConnected)
        checked.shutdown(timeout: .seconds(1))
        let unchecked = try TestClient.connected(to: localhost, clientID: "tls-localhost-insecure") { configuration in
            configuration.tls = MQTTTLSConfiguration(caFile: certificates.caCertificatePath, insecureSkipHostnameCheck: true)
        }
        #expect(unchecked.isConnected)
    }

    @Test("a broker requiring client certificates accepts ours and rejects a client without one")
    func tlsClientCertificate() throws {
        let broker = try MosquittoBroker(options: .init(tls: .requireClientCertificate))
        let certificates = try #require(broker.certificates)
        let withCertificate = MQTTTLSConfiguration(
            caFile: certificates.caCertificatePath, certificateFile: certificates.clientCertificatePath,
            keyFile: certificates.clientKeyPath)
        let client = try TestClient.connected(to: broker.address, clientID: "tls-cert") { $0.tls = withCertificate }
        #expect(client.isConnected)

        let events = EventLog()
        let anonymous = try TestClient.started(
            to: broker.address, clientID: "tls-no-cert", configure: { $0.tls = MQTTTLSConfiguration(caFile: certificates.caCertificatePath) },
            events: events)
        #expect(events.wait(for: "disconnected"))
        // Not just "the connection was lost": that the client has no certificate (and OpenSSL's reason,
        // "tlsv13 alert certificate required", when the alert was read before the socket closed; a reset
        // or no reason at all when it was not, as OpenSSL 3.5 on Debian 13 sometimes does).
        if case .disconnected(_, let reason)? = events.all.first {
            #expect(reason.contains("client certificate") && reason.contains("none is configured"), "\(reason)")
        }
        #expect(!anonymous.waitUntilConnected(timeout: .milliseconds(200)))
        #expect(!events.kinds.contains("connected"))
        anonymous.shutdown(timeout: .seconds(1))
    }

    @Test("a socket closed in the handshake is told apart from OpenSSL's other reasons")
    func closedSocketReasons() {
        #expect(MQTTTLSConfiguration.namesClosedSocket(
            "OpenSSL Error[0]: error:80000068:system library::Connection reset by peer"))
        #expect(MQTTTLSConfiguration.namesClosedSocket(
            "OpenSSL Error[0]: error:0A000126:SSL routines::unexpected eof while reading"))
        #expect(!MQTTTLSConfiguration.namesClosedSocket(
            "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed"))
    }

    @Test("credential and TLS settings are checked before connecting, naming the field or file")
    func invalidSettingsRejected() throws {
        let address = MQTTBrokerAddress(host: "127.0.0.1", port: 1883)
        let cases: [(MQTTClientConfiguration, String)] = [
            (.init(broker: address, clientID: "a", password: MQTTPassword("x")), "password: a password needs a username"),
            (.init(broker: address, clientID: "b", tls: MQTTTLSConfiguration()), "tls: give caFile or caDirectory"),
            (.init(broker: address, clientID: "c", tls: MQTTTLSConfiguration(caFile: "/nonexistent/ca.crt")), "/nonexistent/ca.crt"),
            (.init(broker: address, clientID: "d", tls: MQTTTLSConfiguration(caFile: "/etc/hostname", keyFile: "k")), "certificateFile and keyFile"),
            (.init(broker: address, clientID: "e", sendMaximum: 0), "sendMaximum"),
        ]
        for (configuration, fragment) in cases {
            #expect { _ = try MQTTClient(configuration: configuration) { _ in } } throws: { error in
                "\(error)".contains(fragment)
            }
        }
    }

    @Test("TCP_NODELAY is set on the client socket (default) and can be turned off")
    func tcpNoDelayApplied() throws {
        let broker = try MosquittoBroker()
        for noDelay in [true, false] {
            let client = try TestClient.connected(to: broker.address, clientID: "nodelay-\(noDelay)") { $0.tcpNoDelay = noDelay }
            var value: Int32 = -1
            var length = socklen_t(MemoryLayout<Int32>.size)
            #expect(getsockopt(client.socketDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0)
            #expect((value != 0) == noDelay)
            client.shutdown(timeout: .seconds(1))
        }
    }
}
