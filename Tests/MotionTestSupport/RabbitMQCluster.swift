import Foundation
import PrivateBroker
#if canImport(Glibc)
import Glibc
#endif

/// A RabbitMQ cluster on this machine for tests: the cluster of Benchmarks/capacity/rabbitmq-cluster.sh
/// (N nodes of Debian's `rabbitmq-server` with the MQTT plugin, each with its own node name, ports and data
/// directory under one temporary directory, everything on 127.0.0.1, clustered with the first node),
/// started, stopped node by node and removed with the value.
///
/// Threading: one test uses a cluster at a time; the methods block until the nodes did what was asked.
public final class RabbitMQCluster: Sendable {
    /// One node.
    public struct Node: Sendable {
        /// The Erlang node name, `NAME@localhost`.
        public let name: String
        /// The MQTT listener's port on 127.0.0.1.
        public let mqttPort: Int
        /// `mqtt://127.0.0.1:PORT`.
        public var url: String { "mqtt://127.0.0.1:\(mqttPort)" }
    }

    /// Why the cluster could not be set up, or a node not stopped or started.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The script that sets the nodes up (the one the capacity benchmark uses).
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Benchmarks/capacity/rabbitmq-cluster.sh").standardizedFileURL.path
    /// Whether Debian's rabbitmq-server is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/lib/rabbitmq/bin/rabbitmq-server") }

    /// The installed RabbitMQ's major version (3 on Debian 12, 4 on Debian 13), from dpkg; nil when unknown.
    public static var majorVersion: Int? {
        guard let result = try? CommandLineTool.run("/usr/bin/dpkg-query", ["-W", "-f=${Version}", "rabbitmq-server"]), result.status == 0
        else { return nil }
        return Int(result.output.prefix { $0.isNumber })
    }

    /// The nodes; `nodes[0]` is the one the others joined.
    public let nodes: [Node]
    /// The temporary directory with the cookie, the configuration and every node's data and logs.
    public let directory: String

    /// Starts `count` nodes and clusters them (about 20 s for two).
    /// - Throws: ``SetupError`` with the script's output when a node does not come up or join.
    public init(nodes count: Int = 2) throws {
        guard Self.isInstalled else { throw SetupError(description: "rabbitmq-server is not installed (Deploy/install-deps.sh)") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rabbitmq-test-\(UUID().uuidString.prefix(6))").path
        do {
            try Self.run(["start", directory, String(count)], timeout: .seconds(180))
            // INDEX NODE_NAME MQTT_PORT BEAM_PID, a line a node.
            nodes = try String(contentsOfFile: "\(directory)/nodes", encoding: .utf8).split(separator: "\n").map { line in
                let fields = line.split(separator: " ")
                guard fields.count == 4, let port = Int(fields[2]) else { throw SetupError(description: "unexpected line in nodes: \(line)") }
                return Node(name: String(fields[1]), mqttPort: port)
            }
        } catch {
            _ = try? Self.run(["stop", directory], timeout: .seconds(120))
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        _ = try? Self.run(["stop", directory], timeout: .seconds(120))
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops node `index` (`rabbitmqctl stop`: its clients are disconnected, the cluster goes on).
    public func stop(_ index: Int) throws {
        try Self.run(["stop-node", directory, String(index + 1)], timeout: .seconds(60))
    }

    /// Starts node `index` again (it rejoins the cluster by itself) and waits until it runs.
    public func start(_ index: Int) throws {
        try Self.run(["start-node", directory, String(index + 1)], timeout: .seconds(120))
    }

    /// Node `index`'s log (for diagnostics).
    public func log(_ index: Int) -> String {
        (try? String(contentsOfFile: "\(directory)/node\(index + 1)/log/\(nodes[index].name).log", encoding: .utf8)) ?? ""
    }

    private static func run(_ arguments: [String], timeout: Duration) throws {
        let result = try CommandLineTool.run("/bin/bash", [script] + arguments, timeout: timeout)
        guard result.status == 0 else {
            throw SetupError(description: "rabbitmq-cluster.sh \(arguments.joined(separator: " ")): status \(result.status): \(result.output.suffix(3000))")
        }
    }
}
