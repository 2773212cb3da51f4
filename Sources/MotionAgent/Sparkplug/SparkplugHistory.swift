import MotionContract

/// What the edge node keeps while it may not publish (disconnected, or its primary host offline), to
/// forward as historical data when it may again. A pure value.
///
/// It holds batches in arrival order: each the metrics of one device handed over together (a sample's, or
/// a DDATA's that could not go out), marked historical, without properties (the births carry them), under
/// a key that grows with every batch. It holds at most ``limit`` metrics: beyond it the oldest go first (a
/// batch is cut from its front), counted in ``dropped``.
///
/// When it is journaled (the node keeps its store in a file, ``SparkplugStore``), every change is also
/// listed for the file to mirror, taken with ``takeChanges()``; batches the file kept from an earlier run
/// come back through ``restore(_:)``.
struct SparkplugHistory: Sendable {
    /// Metrics of one device kept together.
    struct Batch: Sendable, Equatable {
        /// Grows with every batch (a batch cut from its front keeps its key).
        var key: Int64
        var device: String
        /// Named, historical, without properties.
        var metrics: [SparkplugMetric]
    }

    /// A change for the file: a batch stored (or stored again, cut), or one gone (forwarded or dropped).
    enum Change: Sendable, Equatable {
        case stored(Batch)
        case removed(key: Int64)
    }

    /// The most metrics kept.
    let limit: Int
    /// The batches in arrival order; those before ``head`` are gone (emptied, until the array is compacted).
    private(set) var batches: [Batch] = []
    private var head = 0
    /// The metrics kept now.
    private(set) var count = 0
    /// Metrics dropped since the start because the store was full.
    private(set) var dropped: UInt64 = 0
    /// The key of the next batch.
    private(set) var nextKey: Int64 = 1
    /// Whether changes are listed for a file.
    private(set) var isJournaled = false
    private var changes: [Change] = []

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The batches kept now, oldest first.
    var kept: ArraySlice<Batch> { batches[head...] }

    /// Lists every change from now on for a file whose keys go up to `largestKey`: new batches take keys
    /// above it.
    mutating func startJournal(largestKey: Int64) {
        isJournaled = true
        nextKey = max(nextKey, largestKey + 1)
    }

    /// Takes the changes listed since the last call, in order.
    mutating func takeChanges() -> [Change] {
        defer { changes = [] }
        return changes
    }

    /// Keeps `metrics` of `device` as a batch, marked historical, without their properties.
    mutating func append(_ metrics: [SparkplugMetric], of device: String) {
        guard !metrics.isEmpty else { return }
        let batch = Batch(key: nextKey, device: device, metrics: metrics.map { metric in
            var kept = metric
            kept.isHistorical = true
            kept.properties = []
            return kept
        })
        nextKey += 1
        add(batch, journaled: true)
    }

    /// Takes back a batch the file kept from an earlier run (not listed again: the file has it); the limit
    /// applies as to any other.
    mutating func restore(_ batch: Batch) {
        nextKey = max(nextKey, batch.key + 1)
        add(batch, journaled: false)
    }

    private mutating func add(_ batch: Batch, journaled: Bool) {
        batches.append(batch)
        count += batch.metrics.count
        if journaled { note(.stored(batch)) }
        dropOldest()
    }

    /// Drops the oldest metrics beyond the limit.
    private mutating func dropOldest() {
        while count > limit {
            let excess = count - limit
            let oldest = batches[head].metrics.count
            if oldest <= excess {
                batches[head].metrics = []
                note(.removed(key: batches[head].key))
                head += 1
                count -= oldest
                dropped += UInt64(oldest)
            } else {
                batches[head].metrics.removeFirst(excess)
                note(.stored(batches[head]))
                count -= excess
                dropped += UInt64(excess)
            }
        }
        compact()
    }

    /// Removes the gone batches once they are as many as the kept ones (and a few hundred): each costs a
    /// few dozen bytes meanwhile, and moving the rest costs at most one move per batch appended.
    private mutating func compact() {
        guard head >= max(256, batches.count - head) else { return }
        batches.removeFirst(head)
        head = 0
    }

    /// Takes the batches of the devices `forwarded` accepts, in arrival order, as runs of one device's
    /// metrics of at most `chunk` each; the others stay.
    mutating func drain(chunk: Int, where forwarded: (String) -> Bool) -> [(device: String, metrics: [SparkplugMetric])] {
        var runs: [(device: String, metrics: [SparkplugMetric])] = []
        var remaining: [Batch] = []
        for batch in batches[head...] {
            guard forwarded(batch.device) else {
                remaining.append(batch)
                continue
            }
            note(.removed(key: batch.key))
            count -= batch.metrics.count
            for metric in batch.metrics {
                if let last = runs.last, last.device == batch.device, last.metrics.count < chunk {
                    runs[runs.count - 1].metrics.append(metric)
                } else {
                    runs.append((batch.device, [metric]))
                }
            }
        }
        batches = remaining
        head = 0
        return runs
    }

    private mutating func note(_ change: Change) {
        if isJournaled { changes.append(change) }
    }
}
