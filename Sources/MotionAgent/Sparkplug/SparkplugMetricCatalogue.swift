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
