/// The samples of one ``CMSensorRecorder`` query (Apple's `CMSensorDataList`): enumerated with
/// ``NSFastEnumeration``, each element a ``CMRecordedAccelerometerData``, in the order they were recorded.
/// The samples are read from the recorder's store a page at a time as the enumeration goes, so a list
/// of 12 hours (2.16 million samples at 50 Hz) does not sit in memory; each enumeration starts from the
/// first sample again. As on Apple's devices, enumerate one list from one thread at a time, and not on
/// the main thread for long spans.
///
/// Apps make the list a Swift `Sequence` themselves, as on iOS:
///
///     extension CMSensorDataList: Sequence {
///         public func makeIterator() -> NSFastEnumerationIterator { NSFastEnumerationIterator(self) }
///     }
open class CMSensorDataList: NSObject, NSFastEnumeration {
    private let query: Query?
    /// Never changes: the list is a fixed query (samples recorded later do not join an enumeration that
    /// has begun, because each page continues after the last row read).
    private let mutations = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    /// The page being handed out, kept alive while its objects are enumerated.
    private var page = Page()

    /// The query a list stands for: a store and the span (from, to] in s since 1970.
    struct Query {
        var store: SensorRecordingStore
        var from: Double
        var to: Double
    }

    private struct Page {
        var objects = UnsafeMutablePointer<AnyObject?>.allocate(capacity: CMSensorDataList.pageSize)
        var count = 0
    }

    private static let pageSize = 512

    /// Creates an empty list.
    public override init() {
        query = nil
        super.init()
        mutations.initialize(to: 0)
        page.objects.initialize(repeating: nil, count: Self.pageSize)
    }

    /// A list of the samples `query` selects.
    init(query: Query) {
        self.query = query
        super.init()
        mutations.initialize(to: 0)
        page.objects.initialize(repeating: nil, count: Self.pageSize)
    }

    deinit {
        mutations.deallocate()
        page.objects.deinitialize(count: Self.pageSize)
        page.objects.deallocate()
    }

    /// Hands out the next page of samples (``NSFastEnumeration``). `state.state` is 0 at the start and then
    /// the store row to continue after; `state.extra.0` is 1 once the samples are exhausted.
    public func countByEnumerating(
        with state: UnsafeMutablePointer<NSFastEnumerationState>, objects buffer: UnsafeMutablePointer<AnyObject?>, count len: Int
    ) -> Int {
        state.pointee.mutationsPtr = mutations
        guard let query, state.pointee.extra.0 == 0 else { return 0 }
        let afterRow = Int64(bitPattern: UInt64(state.pointee.state))
        guard let result = try? query.store.samples(from: query.from, to: query.to, afterRow: afterRow, limit: Self.pageSize),
            !result.samples.isEmpty
        else {
            state.pointee.extra.0 = 1
            return 0
        }
        for (index, sample) in result.samples.enumerated() {
            page.objects[index] = CMRecordedAccelerometerData(
                acceleration: CMAcceleration(x: sample.x, y: sample.y, z: sample.z), timestamp: sample.timestamp,
                identifier: sample.batch, startDate: Date(timeIntervalSince1970: sample.date))
        }
        if page.count > result.samples.count {
            for index in result.samples.count..<page.count { page.objects[index] = nil }
        }
        page.count = result.samples.count
        state.pointee.state = UInt(UInt64(bitPattern: result.lastRow))
        state.pointee.itemsPtr = page.objects
        return result.samples.count
    }
}
