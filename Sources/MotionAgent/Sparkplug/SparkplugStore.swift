import MQTT
import MotionContract

/// The edge node's store on disk (`sparkplug.store_file`): the batches of ``SparkplugHistory`` kept in the
/// same journal as the MQTT client's durable offline buffer (``OfflineMessageJournal``: SQLite in WAL mode,
/// full sync, changes committed at most every ``commitInterval``, a damaged file set aside and replaced,
/// an unusable one leaving the store in memory), so that data kept while the node could not publish
/// survive a restart, a SIGKILL or a power cut and follow the next run's births.
///
/// Each batch is a row: its device's DDATA topic and a Sparkplug payload of its named historical metrics
/// (QoS 1 in the row: the journal keeps only rows it could send; the node publishes them as DDATA, QoS 0).
/// Rows are marked with the node's group and edge node ID: those of another node stay in the file for it.
///
/// Threading: ``apply(_:)`` may be called from any thread, in the order the changes were made (the node
/// calls it under its session's lock); ``close()`` waits for the disk.
final class SparkplugStore: Sendable {
    private let journal: OfflineMessageJournal
    private let identity: SparkplugIdentity

    /// The longest a change waits before it is committed, s: what a power cut can lose of the store.
    static let commitInterval = 0.1

    /// Opens (or creates) the file at `path` for the node `identity`, keeping at most `limit` metrics of an
    /// earlier run (the oldest rows beyond go first).
    init(path: String, identity: SparkplugIdentity, limit: Int) {
        self.identity = identity
        journal = OfflineMessageJournal(
            configuration: MQTTDurableOfflineBuffer(path: path, commitInterval: Self.commitInterval, owner: Self.owner(identity)),
            limits: MQTTOfflineBufferLimits(maximumMessages: max(1, limit), maximumBytes: 1 << 30))
    }

    /// Whose the rows are: `spBv1.0/{group}/{edge_node}`.
    static func owner(_ identity: SparkplugIdentity) -> String {
        "\(SparkplugTopic.namespace)/\(identity.group)/\(identity.edgeNode)"
    }

    /// The largest key in the file when it was opened (new batches take keys above it).
    var largestKey: Int64 { journal.largestKey }

    /// Whether the store reaches the disk (false when the file could not be used or writing failed).
    var isDurable: Bool { journal.isDurable }

    /// The batches the last run left, oldest first; a row that is not a batch of this node is deleted
    /// and counted. Empty after the first call.
    func recovered() -> (batches: [SparkplugHistory.Batch], unreadable: Int) {
        var batches: [SparkplugHistory.Batch] = []
        var unreadable = 0
        for row in journal.takeRecovered() {
            guard case .message(.deviceData, identity.group, identity.edgeNode, let device?)? = SparkplugTopic(row.message.topic),
                  let payload = try? SparkplugPayload(decoding: row.message.payload),
                  !payload.metrics.isEmpty, payload.metrics.allSatisfy({ $0.name != nil })
            else {
                unreadable += 1
                journal.delete(row.key)
                continue
            }
            batches.append(SparkplugHistory.Batch(key: row.key, device: device, metrics: payload.metrics))
        }
        return (batches, unreadable)
    }

    /// Hands every problem with the file so far, and every later one, to `report` (from another queue).
    func startReporting(_ report: @escaping @Sendable (String) -> Void) {
        journal.startReporting(report)
    }

    /// Mirrors the history's changes, in order.
    func apply(_ changes: [SparkplugHistory.Change]) {
        for change in changes {
            switch change {
            case .stored(let batch):
                let topic = SparkplugTopic.message(.deviceData, group: identity.group, edgeNode: identity.edgeNode, device: batch.device)
                let payload = SparkplugPayload(timestamp: batch.metrics.first?.timestamp, metrics: batch.metrics)
                journal.insert(batch.key, MQTTMessage(topic: topic.name, payload: payload.encoded(), qos: .atLeastOnce, retain: false))
            case .removed(let key):
                journal.delete(key)
            }
        }
    }

    /// Commits what is pending and closes the file; later changes are ignored. Idempotent.
    func close() {
        journal.close()
    }
}
