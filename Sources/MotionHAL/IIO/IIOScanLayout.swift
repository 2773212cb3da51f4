/// Where each enabled channel sits in one record of an IIO buffer, as the kernel lays it out.
///
/// The kernel's rule (`iio_compute_scan_bytes` in drivers/iio/industrialio-buffer.c; libiio does the same):
/// elements in ascending `scan_elements/*_index` order, each starting at a multiple of its own size
/// (storage bytes × repeat), and the record padded to a multiple of its largest element. So
/// `s16 x, s16 y, s16 z, s64 timestamp` is 16 bytes: 6 bytes of values, 2 of padding, 8 of timestamp.
public struct IIOScanLayout: Sendable, Equatable {
    /// One channel's place in the record.
    public struct Element: Sendable, Equatable {
        /// The channel's name in `scan_elements`, e.g. `in_accel_x`.
        public var name: String
        /// Its `scan_elements/*_index`.
        public var index: Int
        /// Its storage format.
        public var type: IIOScanElementType
        /// Where it starts in the record, bytes.
        public var offset: Int
    }

    /// The enabled elements in record order.
    public let elements: [Element]
    /// Size of one record, bytes, padding included.
    public let recordSize: Int

    /// Lays out the enabled channels.
    /// - Parameter channels: name, scan index and type of each enabled channel, in any order.
    public init(channels: [(name: String, index: Int, type: IIOScanElementType)]) {
        var offset = 0
        var largest = 1
        var elements: [Element] = []
        for channel in channels.sorted(by: { $0.index < $1.index }) {
            let size = channel.type.storageBytes
            offset = Self.roundUp(offset, toMultipleOf: size)
            elements.append(Element(name: channel.name, index: channel.index, type: channel.type, offset: offset))
            offset += size
            largest = max(largest, size)
        }
        self.elements = elements
        recordSize = Self.roundUp(offset, toMultipleOf: largest)
    }

    /// Decodes every element of the record that starts at `offset` in `bytes`.
    /// - Parameters:
    ///   - bytes: buffer data holding at least `offset + recordSize` bytes.
    ///   - offset: where the record starts.
    /// - Returns: one value per element, in the order of ``elements``.
    public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> [Int64] {
        elements.map { $0.type.decode(bytes, at: offset + $0.offset) }
    }

    /// `value` rounded up to a multiple of `size` (the kernel's `ALIGN`, for the power-of-two sizes it sees).
    private static func roundUp(_ value: Int, toMultipleOf size: Int) -> Int {
        (value + size - 1) / size * size
    }
}
