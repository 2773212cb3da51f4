/// What one Linux IIO device offers an IMU driver, as read from its sysfs directory: its channels with
/// their scales, offsets and buffer formats, its sample rates and its mount matrices.
public struct IIODeviceInfo: Sendable, Equatable {
    /// The device's directory name, e.g. `iio:device0`.
    public var directoryName: String
    /// The `N` of `iio:deviceN`.
    public var number: Int
    /// The `name` attribute, typically the chip's part number, e.g. `mpu6050`.
    public var name: String
    /// The sysfs directory, e.g. `/sys/bus/iio/devices/iio:device0`.
    public var sysfsPath: String
    /// The character device the buffer is read from, e.g. `/dev/iio:device0`.
    public var nodePath: String
    /// The accelerometer, gyroscope, magnetometer and timestamp channels, by name.
    public var channels: [IIOChannel]
    /// The sampling-frequency attributes: the device's own first, then the channel types'.
    public var samplingFrequencies: [IIOSamplingFrequency]
    /// The mount matrix of each sensor that has one (`in_<type>_mount_matrix`, else `in_mount_matrix`,
    /// else `mount_matrix`).
    public var mountMatrices: [IIOChannel.Kind: MountMatrix]
    /// Whether the device has a buffer (`buffer/enable`) to stream from.
    public var hasBuffer: Bool

    /// How messages name the device, e.g. `IIO device mpu6050 (iio:device0)`.
    public var label: String { "IIO device \(name) (\(directoryName))" }

    /// The x, y and z channels of `kind` when all three can be buffered, else `nil`.
    /// - Parameter kind: accelerometer, gyroscope or magnetometer.
    public func bufferedAxes(of kind: IIOChannel.Kind) -> [IIOChannel]? {
        let axes = (0..<3).compactMap { axis in
            channels.first { $0.kind == kind && $0.axis == axis && $0.scanType != nil }
        }
        return axes.count == 3 ? axes : nil
    }

    /// The sensors whose three axes can be buffered, in the order accelerometer, gyroscope, magnetometer.
    public var bufferedSensors: [IIOChannel.Kind] {
        [.acceleration, .angularVelocity, .magneticField].filter { bufferedAxes(of: $0) != nil }
    }

    /// The buffered timestamp channel, if the device has one.
    public var timestampChannel: IIOChannel? {
        channels.first { $0.kind == .timestamp && $0.scanType != nil }
    }

    /// The attribute that sets the rate of `kinds`: the device's `sampling_frequency`, else the first
    /// kind's own (`in_accel_sampling_frequency`).
    /// - Parameter kinds: the sensors to be streamed, most important first.
    public func samplingFrequency(for kinds: [IIOChannel.Kind]) -> IIOSamplingFrequency? {
        let names = ["sampling_frequency"] + kinds.map { "in_\($0.rawValue)_sampling_frequency" }
        return names.lazy.compactMap { name in self.samplingFrequencies.first { $0.attribute == name } }.first
    }

    /// The mount matrix of `kind`, the identity when the device has none.
    public func mountMatrix(for kind: IIOChannel.Kind) -> MountMatrix {
        mountMatrices[kind] ?? .identity
    }

    /// Reads the device in `directory` (named `directoryName`, node in `deviceDirectory`).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` naming a file that is missing or does not parse.
    static func load(directory: String, directoryName: String, number: Int, deviceDirectory: String)
        throws(IMUDeviceError) -> IIODeviceInfo
    {
        let device = IIOSysfsDevice(path: directory)
        let name = try device.readText("name")
        var channelNames = Set<String>()
        for entry in device.entries() where entry.hasSuffix("_raw") {
            channelNames.insert(String(entry.dropLast(4)))
        }
        for entry in device.entries(in: "scan_elements") where entry.hasSuffix("_en") {
            channelNames.insert(String(entry.dropLast(3)))
        }
        var channels: [IIOChannel] = []
        for channelName in channelNames.sorted() {
            guard let (kind, axis) = IIOChannel.kindAndAxis(of: channelName) else { continue }
            channels.append(try loadChannel(channelName, kind: kind, axis: axis, of: device))
        }
        var frequencies: [IIOSamplingFrequency] = []
        if let own = try IIOSamplingFrequency.load("sampling_frequency", of: device) { frequencies.append(own) }
        for kind in [IIOChannel.Kind.acceleration, .angularVelocity, .magneticField] {
            let attribute = "in_\(kind.rawValue)_sampling_frequency"
            if let frequency = try IIOSamplingFrequency.load(
                attribute, of: device, fallbackAvailable: "sampling_frequency_available")
            {
                frequencies.append(frequency)
            }
        }
        var matrices: [IIOChannel.Kind: MountMatrix] = [:]
        for kind in [IIOChannel.Kind.acceleration, .angularVelocity, .magneticField] {
            let candidates = ["in_\(kind.rawValue)_mount_matrix", "in_mount_matrix", "mount_matrix"]
            guard let attribute = candidates.first(where: device.has) else { continue }
            let text = try device.readText(attribute)
            do {
                matrices[kind] = try MountMatrix(parsing: text)
            } catch {
                throw .unavailable("\(device.path(of: attribute)): \(error.description)")
            }
        }
        return IIODeviceInfo(
            directoryName: directoryName, number: number, name: name, sysfsPath: directory,
            nodePath: "\(deviceDirectory)/\(directoryName)", channels: channels, samplingFrequencies: frequencies,
            mountMatrices: matrices, hasBuffer: device.has("buffer/enable"))
    }

    /// One channel: scale and offset (own, else shared by its type), and its buffer index and type.
    private static func loadChannel(_ name: String, kind: IIOChannel.Kind, axis: Int?, of device: IIOSysfsDevice)
        throws(IMUDeviceError) -> IIOChannel
    {
        let shared = "in_\(kind.rawValue)"
        var channel = IIOChannel(name: name, kind: kind, axis: axis)
        if kind != .timestamp {
            func number(_ suffix: String) throws(IMUDeviceError) -> Double? {
                if let own = try device.readNumberIfPresent("\(name)_\(suffix)") { return own }
                return try device.readNumberIfPresent("\(shared)_\(suffix)")
            }
            channel.scale = try number("scale") ?? 1
            channel.offset = try number("offset") ?? 0
        }
        if device.has("scan_elements/\(name)_en") {
            let indexFile = "scan_elements/\(name)_index"
            let indexText = try device.readText(indexFile)
            guard let index = Int(indexText), index >= 0 else {
                throw .unavailable("\(device.path(of: indexFile)): '\(indexText)' is not a scan index")
            }
            let typeFile = "scan_elements/\(name)_type"
            channel.scanIndex = index
            channel.scanType = try IIOScanElementType(
                parsing: try device.readText(typeFile), file: device.path(of: typeFile))
        }
        return channel
    }
}
