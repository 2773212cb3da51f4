#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One IIO device's buffer during one run of ``IIOIMU``: configured and enabled when created, read by the
/// run's reader thread, disabled by `stop` and closed when the reader thread ends.
///
/// Configuration, in the order the kernel allows it (scan elements, trigger, length and watermark only
/// change while the buffer is off):
/// 1. `buffer/enable` ← 0.
/// 2. Every sampling-frequency attribute of the streamed sensors (the device's and `in_<type>_…`) ← the
///    slowest available rate at least the requested one; the device's rate is what the attribute then
///    reads back.
/// 3. `current_timestamp_clock` ← `monotonic`, checked by reading it back; only then is the timestamp
///    channel used (without the attribute the kernel stamps with `CLOCK_REALTIME`, so records are stamped
///    with the read time instead, through ``FIFOTimestamper``).
/// 4. `scan_elements/*_en` ← 1 for the streamed sensors' axes (and the timestamp), 0 for every other
///    channel, each checked by reading it back.
/// 5. `trigger/current_trigger` ← the device's own trigger `NAME-devN` when one is listed under the sysfs
///    root as `triggerM/name` and another (or none) is selected; otherwise the selection is left alone
///    (a hardware-FIFO device needs none; a trigger set up by the system stays).
/// 6. `buffer/watermark` ← the records of one read interval; `buffer/length` raised to a second of records
///    (at least two watermarks) when shorter.
/// 7. The node is opened non-blocking and records left from an earlier run are discarded.
/// 8. `buffer/enable` ← 1, checked by reading it back.
final class IIOBufferedCapture: @unchecked Sendable {
    /// One record in MotionHAL's units and the board's axes.
    struct Reading {
        /// ns of `CLOCK_MONOTONIC`.
        var timestamp: UInt64
        /// m/s².
        var acceleration: SIMD3<Double>?
        /// rad/s.
        var rotationRate: SIMD3<Double>?
        /// µT.
        var magneticField: SIMD3<Double>?
    }

    /// The device as read at `start`.
    let info: IIODeviceInfo
    /// The record layout of the enabled channels.
    let layout: IIOScanLayout
    /// The open node, non-blocking.
    let descriptor: Int32
    /// Least time between two reads, s: ``IIOIMU/readInterval(sampleRate:)`` of the device's rate.
    let readInterval: Double

    private let device: IIOSysfsDevice
    /// Each streamed sensor: its three channels, their places in ``layout``, chip → board matrix.
    private let sensors: [(kind: IIOChannel.Kind, channels: [IIOChannel], slots: [Int], mountMatrix: MountMatrix)]
    private let timestampSlot: Int?
    private var timestamper: FIFOTimestamper?
    /// Bytes read that do not yet make a whole record.
    private var partialRecord: [UInt8] = []
    private var readBuffer: [UInt8]

    /// Configures the buffer of `info` for `kinds` (each with three buffered axes) and enables it.
    /// - Parameters:
    ///   - info: the device.
    ///   - kinds: the sensors to stream.
    ///   - requestedRate: Hz.
    ///   - triggers: the trigger names under the sysfs root.
    ///   - mountMatrixOverride: replaces the device's mount matrices when given.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` naming the attribute or node that failed.
    init(
        info: IIODeviceInfo, kinds: [IIOChannel.Kind], requestedRate: Double, triggers: [String],
        mountMatrixOverride: MountMatrix?
    ) throws(IMUDeviceError) {
        let device = IIOSysfsDevice(path: info.sysfsPath)
        guard info.hasBuffer else {
            throw .unavailable("\(info.label) has no buffer (\(device.path(of: "buffer/enable")) is missing)")
        }
        try device.writeText("buffer/enable", "0")
        let sampleRate = try Self.setSampleRate(of: info, device, kinds: kinds, requested: requestedRate)
        let timestamp = try Self.monotonicTimestampChannel(of: info, device)
        guard sampleRate != nil || timestamp != nil else {
            throw .unavailable(
                "\(info.label) has neither a sampling_frequency nor a monotonic timestamp channel to time its samples")
        }
        let streamed = try Self.enableScanElements(of: info, device, kinds: kinds, timestamp: timestamp)
        let layout = IIOScanLayout(channels: streamed.map { ($0.name, $0.scanIndex!, $0.scanType!) })
        let slot = { (name: String) in layout.elements.firstIndex { $0.name == name }! }
        try Self.selectOwnTrigger(of: info, device, triggers: triggers)
        let recordsPerSecond = sampleRate ?? requestedRate
        let readInterval = IIOIMU.readInterval(sampleRate: recordsPerSecond)
        try Self.sizeBuffer(device, recordsPerSecond: recordsPerSecond, readInterval: readInterval)

        let descriptor = open(info.nodePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unavailable("cannot open \(info.nodePath): \(IIOSysfsDevice.describe(errno))")
        }
        self.info = info
        self.device = device
        self.layout = layout
        self.descriptor = descriptor
        self.readInterval = readInterval
        sensors = kinds.map { kind in
            let channels = info.bufferedAxes(of: kind)!
            return (kind, channels, channels.map { slot($0.name) }, mountMatrixOverride ?? info.mountMatrix(for: kind))
        }
        timestampSlot = timestamp.map { slot($0.name) }
        timestamper = timestamp == nil ? FIFOTimestamper(sampleRate: sampleRate!) : nil
        readBuffer = [UInt8](repeating: 0, count: max(4096, 64 * layout.recordSize))
        discardStaleRecords()
        do {
            try device.writeAndVerify("buffer/enable", "1")
        } catch {
            closeNode()
            throw error
        }
    }

    /// Reads what the node holds and converts the whole records.
    /// - Parameter readTime: `CLOCK_MONOTONIC` ns just before the read (stamps records without a timestamp
    ///   channel).
    /// - Returns: the records, oldest first, and why reading ended if the node failed:
    ///   ``IMUDeviceError/unavailable(_:)`` when the device is gone (end of file, `ENODEV`),
    ///   ``IMUDeviceError/readFailed(_:)`` for another error.
    func readRecords(at readTime: UInt64) -> (readings: [Reading], failure: IMUDeviceError?) {
        var failure: IMUDeviceError?
        while true {
            let count = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                partialRecord += readBuffer[..<count]
                if count < readBuffer.count { break }
                continue
            }
            if count == 0 {
                failure = .unavailable("\(info.nodePath) reached its end: \(info.label) is gone")
            } else if errno == EINTR {
                continue
            } else if errno == ENODEV {
                failure = .unavailable(
                    "\(info.nodePath): \(info.label) is gone (\(IIOSysfsDevice.describe(ENODEV)))")
            } else if errno != EAGAIN {
                failure = .readFailed("cannot read \(info.nodePath): \(IIOSysfsDevice.describe(errno))")
            }
            break
        }
        return (convertWholeRecords(readTime: readTime), failure)
    }

    /// Whether the device's sysfs directory is still there.
    var isPresent: Bool { device.isPresent }

    /// Turns the buffer off (`buffer/enable` ← 0); a device that is gone is ignored.
    func disable() {
        try? device.writeText("buffer/enable", "0")
    }

    /// Closes the node.
    func closeNode() {
        _ = close(descriptor)
    }

    private func convertWholeRecords(readTime: UInt64) -> [Reading] {
        let size = layout.recordSize
        let count = partialRecord.count / size
        guard count > 0 else { return [] }
        let stamps = timestamper?.timestamps(count: count, readTime: readTime)
        var readings: [Reading] = []
        readings.reserveCapacity(count)
        partialRecord.withUnsafeBytes { bytes in
            for index in 0..<count {
                let raw = layout.decode(bytes, at: index * size)
                let timestamp = timestampSlot.map { UInt64(bitPattern: raw[$0]) } ?? stamps![index]
                var reading = Reading(timestamp: timestamp)
                for sensor in sensors {
                    let chip = SIMD3(
                        sensor.channels[0].value(raw: raw[sensor.slots[0]]),
                        sensor.channels[1].value(raw: raw[sensor.slots[1]]),
                        sensor.channels[2].value(raw: raw[sensor.slots[2]]))
                    let board = sensor.mountMatrix.apply(chip)
                    switch sensor.kind {
                    case .acceleration: reading.acceleration = board
                    case .angularVelocity: reading.rotationRate = board
                    case .magneticField: reading.magneticField = board
                    case .timestamp: break
                    }
                }
                readings.append(reading)
            }
        }
        partialRecord.removeFirst(count * size)
        return readings
    }

    /// Reads and drops whatever the node holds while the buffer is off.
    private func discardStaleRecords() {
        while readBuffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Step 2: every sampling-frequency attribute of `kinds` ← the slowest available rate at least
    /// `requested`; returns what the main one reads back (`nil` without one), Hz.
    private static func setSampleRate(
        of info: IIODeviceInfo, _ device: IIOSysfsDevice, kinds: [IIOChannel.Kind], requested: Double
    ) throws(IMUDeviceError) -> Double? {
        let main = info.samplingFrequency(for: kinds)
        let attributes = Set(["sampling_frequency"] + kinds.map { "in_\($0.rawValue)_sampling_frequency" })
        var sampleRate: Double?
        for frequency in info.samplingFrequencies where attributes.contains(frequency.attribute) {
            try device.writeText(frequency.attribute, format(frequency.rate(atLeast: requested)))
            let readBack = try device.readNumber(frequency.attribute)
            if frequency == main { sampleRate = readBack }
        }
        return sampleRate
    }

    /// Step 3: the timestamp channel, once `current_timestamp_clock` reads `monotonic`; `nil` when the
    /// device has no timestamp channel or no clock attribute.
    private static func monotonicTimestampChannel(of info: IIODeviceInfo, _ device: IIOSysfsDevice)
        throws(IMUDeviceError) -> IIOChannel?
    {
        guard let channel = info.timestampChannel, device.has("current_timestamp_clock") else { return nil }
        try device.writeAndVerify("current_timestamp_clock", "monotonic")
        return channel
    }

    /// Step 4: enables the axes of `kinds` and the timestamp, disables every other scan element; returns
    /// the enabled channels.
    private static func enableScanElements(
        of info: IIODeviceInfo, _ device: IIOSysfsDevice, kinds: [IIOChannel.Kind], timestamp: IIOChannel?
    ) throws(IMUDeviceError) -> [IIOChannel] {
        var streamed: [IIOChannel] = []
        for kind in kinds {
            guard let axes = info.bufferedAxes(of: kind) else {
                throw .unavailable("\(info.label) cannot buffer in_\(kind.rawValue)_x, _y and _z")
            }
            streamed += axes
        }
        if let timestamp { streamed.append(timestamp) }
        let names = Set(streamed.map(\.name))
        for entry in device.entries(in: "scan_elements") where entry.hasSuffix("_en") {
            try device.writeAndVerify("scan_elements/\(entry)", names.contains(String(entry.dropLast(3))) ? "1" : "0")
        }
        return streamed
    }

    /// Step 5: the device's own trigger `NAME-devN`, when it exists and another (or none) is selected.
    private static func selectOwnTrigger(of info: IIODeviceInfo, _ device: IIOSysfsDevice, triggers: [String])
        throws(IMUDeviceError)
    {
        let own = "\(info.name)-dev\(info.number)"
        guard device.has("trigger/current_trigger"), triggers.contains(own),
            try device.readText("trigger/current_trigger") != own
        else { return }
        try device.writeAndVerify("trigger/current_trigger", own)
    }

    /// Step 6: the watermark at one read interval's records, the length at least a second's (and two
    /// watermarks).
    private static func sizeBuffer(_ device: IIOSysfsDevice, recordsPerSecond: Double, readInterval: Double)
        throws(IMUDeviceError)
    {
        let watermark = max(1, Int((recordsPerSecond * readInterval).rounded()))
        if device.has("buffer/watermark") { try device.writeText("buffer/watermark", String(watermark)) }
        let length = max(2 * watermark, Int(recordsPerSecond.rounded(.up)))
        if let current = try device.readNumberIfPresent("buffer/length"), current < Double(length) {
            try device.writeText("buffer/length", String(length))
        }
    }

    /// A rate as sysfs takes it: `104`, `12.5`.
    private static func format(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate)
    }
}
