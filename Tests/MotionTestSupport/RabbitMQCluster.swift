import Foundation
import PrivateBroker
#if canImport(Glibc)
import Glibc
#endif

/// A RabbitMQ cluster on this machine for tests: N nodes of Debian's `rabbitmq-server` with the MQTT
/// plugin, each with its own node name, ports (MQTT, AMQP, Erlang distribution; all on 127.0.0.1, epmd
/// too) and data directory under one temporary directory, clustered with the first node; stopped and
/// removed with the value. Runs the server scripts of /usr/lib/rabbitmq/bin directly (Debian's
/// /usr/sbin wrappers would switch to the system's rabbitmq user and its /var/lib/rabbitmq).
///
/// Threading: one test uses a cluster at a time; the methods block until the nodes did what was asked.
public final class RabbitMQCluster: @unchecked Sendable {
    // Safety: `pids` is guarded by `lock`; everything else is immutable after init.

    /// One node.
    public struct Node: Sendable {
        /// The Erlang node name, `NAME@localhost`.
        public let name: String
        /// The MQTT listener's port on 127.0.0.1.
        public let mqttPort: Int
        /// `mqtt://127.0.0.1:PORT`.
        public var url: String { "mqtt://127.0.0.1:\(mqttPort)" }
        let amqpPort: Int
        let distributionPort: Int
        let directory: String
    }

    /// Why the cluster could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The server scripts.
    public static let binDirectory = "/usr/lib/rabbitmq/bin"
    /// Whether Debian's rabbitmq-server is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "\(binDirectory)/rabbitmq-server") }

    /// The nodes; `nodes[0]` is the one the others joined.
    public let nodes: [Node]
    /// The temporary directory with the cookie, the configuration and every node's data and logs.
    public let directory: String
    private let lock = NSLock()
    private var pids: [Int: pid_t] = [:]

    /// Starts `count` nodes and clusters them (about 20 s for two).
    /// - Throws: ``SetupError`` with the node's log when a node does not come up or join.
    public init(nodes count: Int = 2) throws {
        guard Self.isInstalled else { throw SetupError(description: "rabbitmq-server is not installed (Deploy/install-deps.sh)") }
        let tag = UUID().uuidString.prefix(6).lowercased()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rabbitmq-test-\(tag)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // One Erlang cookie for the nodes and the CLI (read from $HOME, which must be private).
        let cookie = "MOTIONBRIDGE\(UInt64.random(in: 1...UInt64.max))"
        _ = FileManager.default.createFile(atPath: "\(directory)/.erlang.cookie", contents: Data(cookie.utf8), attributes: [.posixPermissions: 0o400])
        try "[rabbitmq_mqtt].\n".write(toFile: "\(directory)/enabled_plugins", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: "\(directory)/rabbitmq-env.conf", contents: Data())
        var nodes: [Node] = []
        for index in 1...count {
            let node = Node(
                name: "mbt\(tag)-\(index)@localhost", mqttPort: try MosquittoBroker.freeLoopbackPort(),
                amqpPort: try MosquittoBroker.freeLoopbackPort(), distributionPort: try MosquittoBroker.freeLoopbackPort(),
                directory: "\(directory)/node\(index)")
            try FileManager.default.createDirectory(atPath: node.directory, withIntermediateDirectories: true)
            try """
                listeners.tcp.default = 127.0.0.1:\(node.amqpPort)
                mqtt.listeners.tcp.default = 127.0.0.1:\(node.mqttPort)
                mqtt.allow_anonymous = true
                log.console = false
                log.file.level = info

                """.write(toFile: "\(node.directory)/rabbitmq.conf", atomically: true, encoding: .utf8)
            nodes.append(node)
        }
        self.nodes = nodes
        do {
            for index in nodes.indices { try launch(index) }
            for index in nodes.indices { try awaitStartup(index) }
            for index in nodes.indices.dropFirst() {
                for step in [["stop_app"], ["join_cluster", nodes[0].name], ["start_app"]] {
                    let result = try control(index, step, timeout: .seconds(60))
                    guard result.status == 0 else {
                        throw SetupError(description: "\(nodes[index].name) \(step.joined(separator: " ")): \(result.output)")
                    }
                }
            }
        } catch {
            stopAll()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        stopAll()
        // epmd was started by the first node (on 127.0.0.1); it ends once no node is registered.
        _ = try? CommandLineTool.run("/usr/bin/epmd", ["-kill"], timeout: .seconds(5))
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops node `index` (`rabbitmqctl stop`: its clients are disconnected, the cluster goes on).
    public func stop(_ index: Int) throws {
        _ = try control(index, ["stop"], timeout: .seconds(60))
        let pid = lock.withLock { pids.removeValue(forKey: index) }
        if let pid {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Starts node `index` again (it rejoins the cluster by itself) and waits until it runs.
    public func start(_ index: Int) throws {
        try launch(index)
        try awaitStartup(index)
    }

    /// Runs `rabbitmqctl -n NODE arguments` for node `index`.
    public func control(_ index: Int, _ arguments: [String], timeout: Duration = .seconds(30)) throws -> CommandLineTool.Result {
        try CommandLineTool.run("/usr/bin/env", environment(of: nodes[index]) + ["\(Self.binDirectory)/rabbitmqctl", "-n", nodes[index].name] + arguments, timeout: timeout)
    }

    /// Node `index`'s log (for diagnostics).
    public func log(_ index: Int) -> String {
        (try? String(contentsOfFile: "\(nodes[index].directory)/log/\(nodes[index].name).log", encoding: .utf8)) ?? ""
    }

    private func launch(_ index: Int) throws {
        let pid = try CommandLineTool.spawn(
            "/usr/bin/env", environment(of: nodes[index]) + ["\(Self.binDirectory)/rabbitmq-server"],
            outputPath: "\(nodes[index].directory)/server.out", appending: true)
        lock.withLock { pids[index] = pid }
    }

    private func awaitStartup(_ index: Int) throws {
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            // Fails at once while the node is not registered with epmd yet: try again.
            if try control(index, ["await_startup", "--timeout", "60"], timeout: .seconds(70)).status == 0 { return }
            let exited = lock.withLock { () -> Bool in
                guard let pid = pids[index] else { return true }
                var status: Int32 = 0
                return waitpid(pid, &status, WNOHANG) == pid
            }
            if exited { break }
            usleep(500_000)
        }
        throw SetupError(description: "\(nodes[index].name) did not start: \(log(index).suffix(3000))")
    }

    private func stopAll() {
        for index in nodes.indices where lock.withLock({ pids[index] != nil }) {
            try? stop(index)
        }
        for pid in lock.withLock({ Array(pids.values) }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// The variables that give a node its own name, ports, files and loopback-only networking.
    private func environment(of node: Node) -> [String] {
        [
            "HOME=\(directory)", "RABBITMQ_CONF_ENV_FILE=\(directory)/rabbitmq-env.conf",
            "RABBITMQ_NODENAME=\(node.name)", "RABBITMQ_NODE_IP_ADDRESS=127.0.0.1", "RABBITMQ_NODE_PORT=\(node.amqpPort)",
            "RABBITMQ_DIST_PORT=\(node.distributionPort)", "RABBITMQ_MNESIA_BASE=\(node.directory)/mnesia",
            "RABBITMQ_LOG_BASE=\(node.directory)/log", "RABBITMQ_CONFIG_FILE=\(node.directory)/rabbitmq.conf",
            "RABBITMQ_ENABLED_PLUGINS_FILE=\(directory)/enabled_plugins",
            "RABBITMQ_PLUGINS_EXPAND_DIR=\(node.directory)/plugins-expand", "RABBITMQ_PID_FILE=\(node.directory)/pid",
            "ERL_EPMD_ADDRESS=127.0.0.1", "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}",
        ]
    }
}
