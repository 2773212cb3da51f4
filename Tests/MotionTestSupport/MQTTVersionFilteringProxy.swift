import Foundation
import MQTT
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on a free 127.0.0.1 port in front of a real broker that behaves like an MQTT 3.1.1-only
/// broker: it reads the first packet (CONNECT) of each connection and, if its protocol level is 5,
/// refuses it; any other connection is forwarded to the broker byte for byte, both ways.
///
/// ```swift
/// let proxy = try MQTTVersionFilteringProxy(upstreamPort: broker.port)
/// // connect clients to proxy.address
/// ```
/// Threads: one accepting, two per forwarded connection (one per direction). ``stop()`` (or releasing
/// the proxy) closes every socket, which the broker sees as connections lost without DISCONNECT.
public final class MQTTVersionFilteringProxy: Sendable {
    /// How an MQTT 5 CONNECT is refused.
    public enum Refusal: Sendable {
        /// CONNACK in 3.1.1 format with return code 1, "unacceptable protocol version" (`20 02 00 01`),
        /// then close, as mosquitto 1.x and other 3.1.1 brokers do.
        case connackUnacceptableProtocolVersion
        /// Close the connection without any answer, as some brokers do.
        case closeConnection
    }

    /// Why the proxy could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What failed, with `strerror`.
        public let description: String
    }

    /// The port the proxy listens on (127.0.0.1).
    public let port: Int
    /// The broker port connections are forwarded to (127.0.0.1).
    public let upstreamPort: Int
    /// How MQTT 5 connections are refused.
    public let refusal: Refusal

    private let core: Core

    /// The address for an ``MQTTClientConfiguration``.
    public var address: MQTTBrokerAddress { MQTTBrokerAddress(host: "127.0.0.1", port: port) }
    /// MQTT 5 CONNECTs refused so far.
    public var refusedConnections: Int { core.refusedCount.load(ordering: .relaxed) }
    /// Connections forwarded to the broker so far.
    public var forwardedConnections: Int { core.forwardedCount.load(ordering: .relaxed) }

    /// Starts listening on a free loopback port and accepting connections.
    /// - Parameters:
    ///   - upstreamPort: the real broker's port on 127.0.0.1.
    ///   - refusal: how to refuse MQTT 5, a 3.1.1 CONNACK with return code 1 by default.
    /// - Throws: ``StartError`` when the listening socket cannot be set up.
    public init(upstreamPort: Int, refusal: Refusal = .connackUnacceptableProtocolVersion) throws {
        self.upstreamPort = upstreamPort
        self.refusal = refusal
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw StartError(description: "socket(): \(String(cString: strerror(errno)))") }
        var address = Core.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            let message = String(cString: strerror(errno))
            close(listener)
            throw StartError(description: "bind/listen on 127.0.0.1: \(message)")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        // The threads hold the core, not the proxy, so releasing the proxy stops everything.
        let core = Core(listener: listener, upstreamPort: upstreamPort, refusal: refusal)
        self.core = core
        Thread.detachNewThread { core.acceptConnections() }
    }

    deinit {
        core.stop()
    }

    /// Stops accepting and closes every connection (abruptly, without MQTT DISCONNECT). Idempotent.
    public func stop() {
        core.stop()
    }
}

/// The proxy's sockets and threads.
private final class Core: Sendable {
    let listener: Int32
    let upstreamPort: Int
    let refusal: MQTTVersionFilteringProxy.Refusal
    /// Open connection sockets; closed and shut down only with this lock held, so `stop` never
    /// touches a descriptor number that has been closed and reused elsewhere.
    private let openSockets = Mutex<Set<Int32>>([])
    private let stopped = Atomic<Bool>(false)
    let refusedCount = Atomic<Int>(0)
    let forwardedCount = Atomic<Int>(0)

    init(listener: Int32, upstreamPort: Int, refusal: MQTTVersionFilteringProxy.Refusal) {
        self.listener = listener
        self.upstreamPort = upstreamPort
        self.refusal = refusal
    }

    func stop() {
        openSockets.withLock { sockets in
            guard !stopped.exchange(true, ordering: .relaxed) else { return }
            shutdown(listener, Int32(SHUT_RDWR))  // wakes the accepting thread, which closes it
            for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    func acceptConnections() {
        defer { close(listener) }
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { self.handle(client) }
        }
    }

    private func handle(_ client: Int32) {
        guard track(client) else { return }
        defer { untrackAndClose(client) }
        guard let connectPacket = Self.readPacket(from: client) else { return }
        if Self.protocolLevel(ofConnect: connectPacket) == 5 {
            refusedCount.add(1, ordering: .relaxed)
            if refusal == .connackUnacceptableProtocolVersion { _ = Self.writeAll(client, [0x20, 0x02, 0x00, 0x01]) }
            return
        }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0, track(upstream) else { return }
        defer { untrackAndClose(upstream) }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, Self.writeAll(upstream, connectPacket) else { return }
        forwardedCount.add(1, ordering: .relaxed)
        let upstreamFinished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.pump(from: upstream, to: client)
            upstreamFinished.signal()
        }
        Self.pump(from: client, to: upstream)
        upstreamFinished.wait()
    }

    /// Registers an open socket so `stop` can shut it down; refuses (closing it) once stopped.
    private func track(_ socket: Int32) -> Bool {
        let accepted = openSockets.withLock { sockets -> Bool in
            guard !stopped.load(ordering: .relaxed) else { return false }
            sockets.insert(socket)
            return true
        }
        if !accepted { close(socket) }
        return accepted
    }

    private func untrackAndClose(_ socket: Int32) {
        openSockets.withLock { sockets in
            sockets.remove(socket)
            close(socket)
        }
    }

    /// Copies bytes until either side closes, then shuts both down so the opposite pump ends too.
    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 || !writeAll(destination, Array(buffer[0..<count])) { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }

    // MARK: MQTT framing

    /// Reads one MQTT packet: fixed header byte, remaining length (1–4 byte varint), body.
    static func readPacket(from socket: Int32) -> [UInt8]? {
        guard var packet = readExactly(socket, 1) else { return nil }
        var remaining = 0
        var multiplier = 1
        for _ in 0..<4 {
            guard let byte = readExactly(socket, 1)?.first else { return nil }
            packet.append(byte)
            remaining += Int(byte & 0x7F) * multiplier
            multiplier *= 128
            if byte & 0x80 == 0 { break }
        }
        guard let body = readExactly(socket, remaining) else { return nil }
        return packet + body
    }

    /// The protocol level of a CONNECT packet (4 = MQTT 3.1.1, 5 = MQTT 5), `nil` if it is not one.
    static func protocolLevel(ofConnect packet: [UInt8]) -> UInt8? {
        guard packet.first.map({ $0 >> 4 }) == 1 else { return nil }
        var index = 1
        while index < packet.count, packet[index] & 0x80 != 0 { index += 1 }
        index += 1  // first body byte: protocol name length (2 bytes), name, then the level
        guard index + 1 < packet.count else { return nil }
        let nameLength = Int(packet[index]) << 8 | Int(packet[index + 1])
        let levelIndex = index + 2 + nameLength
        return levelIndex < packet.count ? packet[levelIndex] : nil
    }

    private static func readExactly(_ socket: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(socket, $0.baseAddress! + filled, count - filled) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { return nil }
            filled += got
        }
        return bytes
    }

    private static func writeAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL)) }
            if result < 0, errno == EINTR { continue }
            if result <= 0 { return false }
            written += result
        }
        return true
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
