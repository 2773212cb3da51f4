/// The samples of one ``CMSensorRecorder`` query (Apple's `CMSensorDataList`): enumerated with
/// ``NSFastEnumeration``, each element a ``CMRecordedAccelerometerData`` (or, for the Linux queries of the
/// gyroscope and the barometer, a ``CMRecordedRotationRateData`` or a ``CMRecordedPressureData``), in the
/// order they were taken.
///
/// The samples are read from the recorder's store 512 at a time as the enumeration goes, so a list of 12
/// hours (2.16 million samples at 50 Hz) does not sit in memory; each enumeration starts from the first
/// sample again, and enumerations of one list may be nested or interleaved (each keeps its place in its
/// own state; the objects go to the caller's buffer). As on Apple's devices, use a list from one thread at
/// a time, and not on the main thread for long spans.
///
/// Apps make the list a Swift `Sequence` themselves, as on iOS:
///
///     extension CMSensorDataList: Sequence {
///         public func makeIterator() -> NSFastEnumerationIterator { NSFastEnumerationIterator(self) }
///     }
open class CMSensorDataList: NSObject, NSFastEnumeration {
    private let query: Query?
    /// Never changes: the list is a fixed query (samples recorded later than an enumeration's place still
    /// join it, as they would on Apple's devices, but nothing is ever removed from under it).
    private let mutations = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    /// Samples read ahead from the store, and the cursor they follow.
    private var cache: (start: RecordingCursor, samples: [RecordedSample])?

    /// The query a list stands for: a store, the sensor and the span (from, to] in s since 1970.
    struct Query {
        var store: SensorRecordingStore
        var sensor: RecordedSensor = .accelerometer
        var from: Double
        var to: Double
    }

    private static let pageSize = 512

    /// Creates an empty list.
    public override init() {
        query = nil
        super.init()
        mutations.initialize(to: 0)
    }

    /// A list of the samples `query` selects.
    init(query: Query) {
        self.query = query
        super.init()
        mutations.initialize(to: 0)
    }

    deinit {
        mutations.deallocate()
    }

    /// Hands out the next samples (``NSFastEnumeration``), at most `len`, in `buffer`. The enumeration's
    /// place is in its state: `state` is 1 once it has begun, `extra.0` and `extra.1` the row and the date
    /// bits of the last sample handed out, `extra.2` 1 once the samples are exhausted.
    public func countByEnumerating(
        with state: UnsafeMutablePointer<NSFastEnumerationState>, objects buffer: UnsafeMutablePointer<AnyObject?>, count len: Int
    ) -> Int {
        state.pointee.mutationsPtr = mutations
        guard let query, state.pointee.extra.2 == 0, len > 0 else { return 0 }
        let cursor =
            state.pointee.state == 0
            ? RecordingCursor.after(query.from)
            : RecordingCursor(date: Double(bitPattern: UInt64(state.pointee.extra.1)), row: Int64(bitPattern: UInt64(state.pointee.extra.0)))
        let samples = next(min(len, Self.pageSize), after: cursor, in: query)
        guard let last = samples.last else {
            state.pointee.extra.2 = 1
            return 0
        }
        for (index, sample) in samples.enumerated() {
            buffer[index] = Self.element(sample, of: query.sensor)
        }
        state.pointee.state = 1
        state.pointee.extra.0 = UInt(UInt64(bitPattern: last.row))
        state.pointee.extra.1 = UInt(last.date.bitPattern)
        state.pointee.itemsPtr = buffer
        return samples.count
    }

    /// Up to `count` samples after `cursor`: from the read-ahead when it holds them, else a new page.
    private func next(_ count: Int, after cursor: RecordingCursor, in query: Query) -> ArraySlice<RecordedSample> {
        if let cache {
            let start = cursor == cache.start ? 0 : cache.samples.firstIndex { $0.cursor == cursor }.map { $0 + 1 }
            if let start, start < cache.samples.count {
                return cache.samples[start..<min(start + count, cache.samples.count)]
            }
        }
        guard let page = try? query.store.samples(of: query.sensor, after: cursor, to: query.to, limit: Self.pageSize) else { return [] }
        cache = (cursor, page.samples)
        return page.samples.prefix(count)
    }

    /// Apple's object of a recorded sample of `sensor`.
    private static func element(_ sample: RecordedSample, of sensor: RecordedSensor) -> CMLogItem {
        let date = Date(timeIntervalSince1970: sample.date)
        switch sensor {
        case .accelerometer:
            return CMRecordedAccelerometerData(
                acceleration: CMAcceleration(x: sample.x, y: sample.y, z: sample.z), timestamp: sample.timestamp,
                identifier: sample.batch, startDate: date)
        case .rotationRate:
            return CMRecordedRotationRateData(
                linuxRotationRate: CMRotationRate(x: sample.x, y: sample.y, z: sample.z), timestamp: sample.timestamp, startDate: date)
        case .pressure:
            return CMRecordedPressureData(
                linuxPressure: sample.x, temperature: sample.y, timestamp: sample.timestamp, identifier: sample.batch, startDate: date)
        }
    }
}
