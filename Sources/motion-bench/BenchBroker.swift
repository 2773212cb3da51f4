import Foundation
import MQTT
#if canImport(Glibc)
import Glibc
#endif

/// A private mosquitto for one benchmark run, configured like the integration tests' broker: loopback
/// listener on a free port, anonymous clients, `set_tcp_nodelay true`, `max_queued_messages 0` (no
/// drops for a subscriber that falls behind), no persistence, `user root` when run as root.
final class BenchBroker {
    /// The broker executable.
    static let executablePath = "/usr/sbin/mosquitto"

    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// Its temporary directory (config and log).
    let directory: String
    /// The broker process.
    let process: ChildProcess

    /// The address for ``MQTTClientConfiguration``.
    var address: MQTTBrokerAddress { MQTTBrokerAddress(host: "127.0.0.1", port: port) }

    /// Starts mosquitto and waits until it accepts connections.
    /// - Throws: ``BenchError`` when mosquitto is missing or does not come up within 5 s.
    init() throws(BenchError) {
        guard FileManager.default.isExecutableFile(atPath: Self.executablePath) else {
            throw BenchError("\(Self.executablePath) not found: run Deploy/install-deps.sh")
        }
        let directory = NSTemporaryDirectory() + "motion-bench-broker-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(directory): \(error)")
        }
        self.directory = directory
        var lastError = BenchError("mosquitto did not start")
        for _ in 0..<5 {
            let port = Self.freeLoopbackPort()
            var lines = [
                "listener \(port) 127.0.0.1", "allow_anonymous true", "set_tcp_nodelay true",
                "max_queued_messages 0", "persistence false", "log_dest file \(directory)/mosquitto.log",
                "log_type error", "log_type warning",
            ]
            if getuid() == 0 { lines.append("user root") }
            let configuration = directory + "/mosquitto.conf"
            do {
                try (lines.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
            } catch {
                throw BenchError("cannot write \(configuration): \(error)")
            }
            do {
                let process = try ChildProcess(
                    executable: Self.executablePath, arguments: ["-c", configuration],
                    logFile: directory + "/mosquitto.out")
                if Self.waitUntilAccepting(port: port, process: process) {
                    self.port = port
                    self.process = process
                    return
                }
                process.terminate(grace: 1)
                lastError = BenchError("mosquitto did not accept connections on 127.0.0.1:\(port); see \(directory)")
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    deinit {
        process.terminate(grace: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func waitUntilAccepting(port: Int, process: ChildProcess) -> Bool {
        for _ in 0..<1000 {
            if process.hasExited { return false }
            if canConnect(port: port) { return true }
            Clock.sleep(seconds: 0.005)
        }
        return false
    }

    /// A port the kernel considers free on 127.0.0.1 (bind port 0, read it back, close).
    private static func freeLoopbackPort() -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func canConnect(port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { close(socketFD) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
