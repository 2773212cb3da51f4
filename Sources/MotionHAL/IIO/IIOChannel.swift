/// One channel of an IIO device that an IMU uses: an axis of the accelerometer, gyroscope or magnetometer,
/// or the buffer's timestamp.
///
/// Units after `(raw + offset) × scale` are the kernel ABI's (Documentation/ABI/testing/sysfs-bus-iio):
/// `in_accel_*` m/s², `in_anglvel_*` rad/s, `in_magn_*` Gauss. ``value(raw:)`` turns Gauss into µT
/// (1 G = 100 µT), so every value comes out in MotionHAL's units.
public struct IIOChannel: Sendable, Equatable {
    /// What the channel measures; the raw value is its name's middle part (`in_<kind>_<axis>`).
    public enum Kind: String, Sendable {
        /// Specific force, m/s² (`in_accel_*`).
        case acceleration = "accel"
        /// Angular velocity, rad/s (`in_anglvel_*`).
        case angularVelocity = "anglvel"
        /// Magnetic flux density, Gauss in the kernel, µT here (`in_magn_*`).
        case magneticField = "magn"
        /// The buffer's timestamp, ns of the device's `current_timestamp_clock` (`in_timestamp`).
        case timestamp

        /// Factor from the kernel's unit to MotionHAL's: 100 µT per Gauss for the magnetometer, else 1.
        public var unitFactor: Double { self == .magneticField ? 100 : 1 }
    }

    /// The channel's attribute prefix, e.g. `in_accel_x` (its raw value is `in_accel_x_raw`).
    public var name: String
    /// What it measures.
    public var kind: Kind
    /// 0, 1, 2 for x, y, z; `nil` for the timestamp.
    public var axis: Int?
    /// `*_scale`: the channel's own (`in_accel_x_scale`), else the shared one (`in_accel_scale`), else 1.
    public var scale: Double
    /// `*_offset`, in raw units: the channel's own, else the shared one, else 0.
    public var offset: Double
    /// `scan_elements/*_index`; `nil` when the channel cannot be buffered.
    public var scanIndex: Int?
    /// `scan_elements/*_type`; `nil` when the channel cannot be buffered.
    public var scanType: IIOScanElementType?

    /// Creates a channel.
    /// - Parameters:
    ///   - name: attribute prefix, e.g. `in_accel_x`.
    ///   - kind: what it measures.
    ///   - axis: 0, 1, 2 for x, y, z; `nil` for the timestamp.
    ///   - scale: kernel units per raw count.
    ///   - offset: raw counts added before scaling.
    ///   - scanIndex: position among the scan elements.
    ///   - scanType: storage format in the buffer.
    public init(
        name: String, kind: Kind, axis: Int?, scale: Double = 1, offset: Double = 0, scanIndex: Int? = nil,
        scanType: IIOScanElementType? = nil
    ) {
        self.name = name
        self.kind = kind
        self.axis = axis
        self.scale = scale
        self.offset = offset
        self.scanIndex = scanIndex
        self.scanType = scanType
    }

    /// The kind and axis an attribute prefix names: `in_accel_x` → (acceleration, 0), `in_timestamp` →
    /// (timestamp, nil); `nil` for channels an IMU does not use (`in_temp`, `in_accel_x&y&z`, …).
    /// - Parameter name: an attribute prefix such as `in_anglvel_z`.
    public static func kindAndAxis(of name: String) -> (kind: Kind, axis: Int?)? {
        guard name.hasPrefix("in_") else { return nil }
        let parts = name.dropFirst(3).split(separator: "_", omittingEmptySubsequences: false)
        if parts == ["timestamp"] { return (.timestamp, nil) }
        guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])), kind != .timestamp,
            let axis = ["x", "y", "z"].firstIndex(of: String(parts[1]))
        else { return nil }
        return (kind, axis)
    }

    /// `(raw + offset) × scale` in MotionHAL's units: m/s², rad/s, µT, or ns for the timestamp.
    /// - Parameter raw: the raw reading (sysfs `*_raw` or a decoded buffer element).
    public func value(raw: Int64) -> Double {
        (Double(raw) + offset) * scale * kind.unitFactor
    }

    /// The largest magnitude the channel can report, in MotionHAL's units, from the range of its buffer
    /// type; `nil` without one.
    public var fullScale: Double? {
        guard let range = scanType?.valueRange else { return nil }
        return max(abs(value(raw: range.lowerBound)), abs(value(raw: range.upperBound)))
    }
}
