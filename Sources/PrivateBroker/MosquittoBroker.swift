import Foundation
import MQTT
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real mosquitto broker for tests: its own process, config, log and (optional) persistence in a
/// temporary directory, listening on a free port on 127.0.0.1.
///
/// ```swift
/// let broker = try MosquittoBroker()
/// let client = try MQTTClient(configuration: .init(broker: broker.address, clientID: "t"), events: { _ in })
/// ```
/// The broker is stopped (SIGTERM) and its directory removed when the object is released.
public final class MosquittoBroker: Sendable {
    /// How the broker is configured.
    public struct Options: Sendable {
        /// Keep retained messages and sessions across ``MosquittoBroker/restart()`` (saved on SIGTERM).
        public var persistence: Bool
        /// Write `max_queued_messages 0` (no per-client queue limit), so a slow subscriber loses nothing.
        public var unlimitedQueues: Bool
        /// `allow_anonymous`: with `false` and no password file the broker refuses every client
        /// (CONNACK "not authorized"), which tests of refused connections need.
        public var allowAnonymous: Bool
        /// Extra configuration lines appended verbatim.
        public var extraConfiguration: [String]
        /// User names and passwords for a `password_file` written with `mosquitto_passwd -b`; empty
        /// (default) writes none. Combine with `allowAnonymous: false`.
        public var users: [String: String]
        /// Makes the listener a TLS listener with certificates generated at start-up (see
        /// ``MosquittoBroker/certificates``); `nil` (default) is plain TCP.
        public var tls: TLSMode?

        /// How the TLS listener treats clients.
        public enum TLSMode: Sendable {
            /// Server certificate only.
            case serverCertificate
            /// `require_certificate true`: clients must present a certificate signed by the test CA.
            case requireClientCertificate
        }

        /// Options with the defaults: no persistence, unlimited queues, anonymous clients allowed,
        /// no password file, plain TCP.
        public init(
            persistence: Bool = false, unlimitedQueues: Bool = true, allowAnonymous: Bool = true,
            extraConfiguration: [String] = [], users: [String: String] = [:], tls: TLSMode? = nil
        ) {
            self.persistence = persistence
            self.unlimitedQueues = unlimitedQueues
            self.allowAnonymous = allowAnonymous
            self.extraConfiguration = extraConfiguration
            self.users = users
            self.tls = tls
        }
    }

    /// Why the broker could not be started.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, with the broker's output when there is any.
        public let description: String
    }

    /// The broker executable.
    public static let executablePath = "/usr/sbin/mosquitto"
    /// How long ``init(options:)`` and ``restart()`` wait for the port to accept connections, in seconds.
    public static let startTimeout: Duration = .seconds(5)

    /// The TCP port on 127.0.0.1 the broker listens on (kept across restarts).
    public let port: Int
    /// The temporary directory holding config, log and persistence files.
    public let directory: String
    /// The broker's log file (mosquitto `log_dest file`), for diagnostics.
    public let logFilePath: String
    /// The broker's stdout/stderr (start-up errors that happen before logging is set up).
    public let outputFilePath: String
    /// The configuration file passed with `-c`.
    public let configurationFilePath: String
    /// The options the broker was configured with.
    public let options: Options
    /// The certificates of the TLS listener (in ``directory``), when ``Options/tls`` is set.
    public let certificates: TestCertificates?

    private let processID = Mutex<pid_t?>(nil)

    /// `mqtt://127.0.0.1:PORT`.
    /// The broker's process identifier while it runs (for measuring its CPU), `nil` when stopped.
    public var processIdentifier: pid_t? { processID.withLock { $0 } }

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    /// The broker address for an ``MQTTClientConfiguration``.
    public var address: MQTTBrokerAddress { MQTTBrokerAddress(host: "127.0.0.1", port: port) }
    /// Whether the broker process is running (it has not exited).
    public var isRunning: Bool {
        processID.withLock { pid in
            guard let running = pid else { return false }
            var status: Int32 = 0
            if waitpid(running, &status, WNOHANG) == running {
                pid = nil
                return false
            }
            return true
        }
    }

    /// Starts a broker on a free loopback port and waits until it accepts TCP connections.
    /// - Throws: ``StartError`` when mosquitto is not installed or does not come up (with its output).
    public init(options: Options = Options()) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executablePath) else {
            throw StartError(
                description: "\(Self.executablePath) not found or not executable: install the mosquitto package")
        }
        self.options = options
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mosquitto-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        logFilePath = directory + "/mosquitto.log"
        outputFilePath = directory + "/mosquitto.out"
        configurationFilePath = directory + "/mosquitto.conf"
        do {
            certificates = try options.tls.map { _ in try TestCertificates(directory: directory) }
            if !options.users.isEmpty { try Self.writePasswordFile(directory + "/passwords", users: options.users) }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }

        // Another process may take the free port between our probe and mosquitto's bind: retry then.
        var lastError: Error?
        for _ in 0..<5 {
            let candidate = try Self.freeLoopbackPort()
            do {
                try Self.writeConfiguration(
                    to: configurationFilePath, port: candidate, directory: directory, logFile: logFilePath,
                    options: options)
                let pid = try Self.launch(configurationFile: configurationFilePath, outputFile: outputFilePath)
                try Self.waitUntilAccepting(port: candidate, pid: pid, outputFile: outputFilePath, logFile: logFilePath)
                port = candidate
                processID.withLock { $0 = pid }
                return
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError ?? StartError(description: "mosquitto did not start")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the broker with SIGTERM (it saves persistence and drops clients) and waits up to 5 s for it
    /// to exit, then SIGKILLs it. Does nothing if it is not running.
    public func stop() {
        terminate(signal: SIGTERM, grace: .seconds(5))
    }

    /// Kills the broker with SIGKILL (nothing saved, connections reset) and waits for it to exit.
    public func kill() {
        terminate(signal: SIGKILL, grace: .seconds(5))
    }

    /// Starts the broker again on the same port with the same configuration (stops it first if running).
    /// - Throws: ``StartError`` if it does not come up (for example the port was taken meanwhile).
    public func restart() throws {
        stop()
        let pid = try Self.launch(configurationFile: configurationFilePath, outputFile: outputFilePath)
        do {
            try Self.waitUntilAccepting(port: port, pid: pid, outputFile: outputFilePath, logFile: logFilePath)
        } catch {
            sendSignal(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw error
        }
        processID.withLock { $0 = pid }
    }

    /// The broker's log so far (empty if it cannot be read).
    public func log() -> String {
        (try? String(contentsOfFile: logFilePath, encoding: .utf8)) ?? ""
    }

    /// Waits until the log contains `text` (the broker writes it a few milliseconds after the event).
    /// - Returns: whether it appeared within `timeout`.
    public func waitForLog(containing text: String, timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if log().contains(text) { return true }
            usleep(10_000)
        }
        return log().contains(text)
    }

    // MARK: Process handling

    private func terminate(signal: Int32, grace: Duration) {
        processID.withLock { pid in
            guard let running = pid else { return }
            pid = nil
            sendSignal(running, signal)
            if !Self.waitForExit(running, timeout: grace) {
                sendSignal(running, SIGKILL)
                var status: Int32 = 0
                waitpid(running, &status, 0)
            }
        }
    }

    /// Reaps `pid` if it exits within `timeout`.
    private static func waitForExit(_ pid: pid_t, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var status: Int32 = 0
        repeat {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result == -1 && errno == ECHILD) { return true }
            usleep(2_000)
        } while ContinuousClock.now < deadline
        return false
    }

    /// Starts mosquitto with a clean signal slate (see ``CommandLineTool/spawn(_:_:outputPath:appending:)``),
    /// its output appended to `outputFile`.
    private static func launch(configurationFile: String, outputFile: String) throws -> pid_t {
        do {
            return try CommandLineTool.spawn(executablePath, ["-c", configurationFile], outputPath: outputFile, appending: true)
        } catch {
            throw StartError(description: error.description)
        }
    }

    private static func waitUntilAccepting(port: Int, pid: pid_t, outputFile: String, logFile: String) throws {
        let deadline = ContinuousClock.now.advanced(by: startTimeout)
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw StartError(
                    description: "mosquitto exited during start-up (port \(port)): "
                        + diagnostics(outputFile: outputFile, logFile: logFile))
            }
            if canConnect(port: port) { return }
            usleep(5_000)
        }
        sendSignal(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        throw StartError(
            description: "mosquitto did not accept connections on 127.0.0.1:\(port) within 5 s: "
                + diagnostics(outputFile: outputFile, logFile: logFile))
    }

    private static func diagnostics(outputFile: String, logFile: String) -> String {
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        return "output: \(output.suffix(2000)) log: \(log.suffix(2000))"
    }

    private static func writeConfiguration(
        to path: String, port: Int, directory: String, logFile: String, options: Options
    ) throws {
        var lines = [
            "listener \(port) 127.0.0.1",
            "allow_anonymous \(options.allowAnonymous)",
            "set_tcp_nodelay true",
            "log_dest file \(logFile)",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
        ]
        // Run as root, mosquitto switches to the `mosquitto` user and could not write our files.
        if getuid() == 0 { lines.append("user root") }
        if options.unlimitedQueues { lines.append("max_queued_messages 0") }
        if options.persistence {
            lines += ["persistence true", "persistence_location \(directory)/"]
        } else {
            lines.append("persistence false")
        }
        if !options.users.isEmpty { lines.append("password_file \(directory)/passwords") }
        if let tls = options.tls {
            lines += [
                "cafile \(directory)/ca.crt", "certfile \(directory)/server.crt", "keyfile \(directory)/server.key",
                "require_certificate \(tls == .requireClientCertificate)",
            ]
        }
        lines += options.extraConfiguration
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func writePasswordFile(_ path: String, users: [String: String]) throws {
        for (index, user) in users.keys.sorted().enumerated() {
            let arguments = (index == 0 ? ["-c"] : []) + ["-b", path, user, users[user]!]
            let result = try CommandLineTool.run("/usr/bin/mosquitto_passwd", arguments)
            guard result.status == 0 else {
                throw StartError(description: "mosquitto_passwd failed for user \(user): \(result.output)")
            }
        }
    }

    // MARK: Sockets

    /// A port the kernel considers free on 127.0.0.1: bind port 0, read the port back, close.
    public static func freeLoopbackPort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw StartError(description: "socket(): \(String(cString: strerror(errno)))") }
        defer { close(socketFD) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw StartError(description: "bind(127.0.0.1:0): \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard named == 0 else { throw StartError(description: "getsockname(): \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds (it is closed right away).
    private static func canConnect(port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { close(socketFD) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// `kill(2)`, outside the class whose `kill()` method would shadow it.
private func sendSignal(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
}
