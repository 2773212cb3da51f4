import MotionContract

/// The metrics of the edge node or of one device as born: each name with its alias, datatype and
/// properties, in birth order, and its latest value. A pure value.
///
/// A birth names every metric with its alias and properties and gives the latest value (null before the
/// first); data messages then carry the alias alone. A metric whose name the catalogue lacks, or whose
/// datatype changed, needs a new birth (``record(_:)`` says so).
struct SparkplugMetricCatalogue: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var name: String
        var alias: UInt64?
        var dataType: SparkplugDataType
        var properties: [SparkplugProperty]
        /// The latest value (nil: null), and when it was acquired.
        var value: SparkplugValue?
        var timestamp: UInt64?
    }

    private(set) var entries: [Entry] = []
    private var positions: [String: Int] = [:]

    /// Records `metric`'s value (`metric` names it).
    /// - Parameters:
    ///   - nextAlias: the node's next free alias, taken by a metric new to the catalogue.
    ///   - aliased: whether a new metric gets an alias (`Node Control/Rebirth` has none: hosts write it by name).
    /// - Returns: whether the catalogue changed shape (a new name or datatype): a birth must follow.
    @discardableResult
    mutating func record(_ metric: SparkplugMetric, nextAlias: inout UInt64, aliased: Bool = true) -> Bool {
        guard let name = metric.name else { return false }
        if let position = positions[name] {
            let changed = entries[position].dataType != metric.dataType
            entries[position].dataType = metric.dataType
            entries[position].value = metric.value
            entries[position].timestamp = metric.timestamp
            if !metric.properties.isEmpty { entries[position].properties = metric.properties }
            return changed
        }
        positions[name] = entries.count
        var alias: UInt64?
        if aliased {
            alias = nextAlias
            nextAlias += 1
        }
        entries.append(
            Entry(
                name: name, alias: alias, dataType: metric.dataType, properties: metric.properties, value: metric.value,
                timestamp: metric.timestamp))
        return true
    }

    /// The entry named `name`, or the one with `alias`.
    func entry(named name: String?, alias: UInt64?) -> Entry? {
        if let name { return positions[name].map { entries[$0] } }
        guard let alias else { return nil }
        return entries.first { $0.alias == alias }
    }

    /// The latest value of `name` (nil when unknown or null).
    func value(of name: String) -> SparkplugValue? {
        positions[name].flatMap { entries[$0].value }
    }

    /// Every metric as a birth lists it: name, alias, datatype, properties and the latest value (null
    /// before the first), timestamped with its acquisition time or else `timestamp`.
    func birthMetrics(timestamp: UInt64) -> [SparkplugMetric] {
        entries.map { entry in
            var metric = SparkplugMetric(name: entry.name, alias: entry.alias, timestamp: entry.timestamp ?? timestamp, nullOf: entry.dataType)
            metric.value = entry.value
            metric.properties = entry.properties
            return metric
        }
    }

    /// `metric` as a data message carries it: the alias alone when it has one (else the name), no
    /// properties.
    func dataMetric(_ metric: SparkplugMetric) -> SparkplugMetric {
        var data = metric
        data.properties = []
        if let name = metric.name, let alias = positions[name].flatMap({ entries[$0].alias }) {
            data.alias = alias
            data.name = nil
        }
        return data
    }
}

/// What the edge node keeps while it may not publish (disconnected, or its primary host offline), to
/// forward as historical data when it may again: device metrics in arrival order, at most ``limit``; the
/// oldest go first when it is full, counted in ``dropped``. A pure value.
struct SparkplugHistory: Sendable {
    /// The most metrics kept.
    let limit: Int
    private(set) var stored: [(device: String, metric: SparkplugMetric)] = []
    private var head = 0
    /// Metrics dropped since the start because the store was full.
    private(set) var dropped: UInt64 = 0

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The metrics kept now.
    var count: Int { stored.count - head }

    /// Keeps `metrics` of `device`, marked historical, without their properties (the births carry them).
    mutating func append(_ metrics: [SparkplugMetric], of device: String) {
        for var metric in metrics {
            metric.isHistorical = true
            metric.properties = []
            stored.append((device, metric))
        }
        let excess = count - limit
        if excess > 0 {
            head += excess
            dropped += UInt64(excess)
        }
        // Compact once a quarter of the limit was dropped: the array holds at most 1.25 × the limit (plus a
        // few hundred), and moving the rest costs at most four moves per metric appended.
        if head >= max(256, limit / 4) {
            stored.removeFirst(head)
            head = 0
        }
    }

    /// Takes everything kept: runs of one device's metrics, at most `chunk` each, in arrival order.
    mutating func drain(chunk: Int) -> [(device: String, metrics: [SparkplugMetric])] {
        var runs: [(device: String, metrics: [SparkplugMetric])] = []
        for (device, metric) in stored[head...] {
            if let last = runs.last, last.device == device, last.metrics.count < chunk {
                runs[runs.count - 1].metrics.append(metric)
            } else {
                runs.append((device, [metric]))
            }
        }
        stored.removeAll()
        head = 0
        return runs
    }
}
