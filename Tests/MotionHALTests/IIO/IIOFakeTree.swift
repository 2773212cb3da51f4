import Foundation
import Glibc
import MotionHAL
import Synchronization

/// A fake Linux IIO tree in a temporary directory: `sys/iio:deviceN/…` with the attribute files the
/// kernel creates, `sys/triggerN/name`, and `dev/iio:deviceN` as a FIFO that the test writes buffer
/// records into, as the kernel's buffer would hand them out.
///
/// The test holds the FIFO open for reading and writing, so the driver's reads never see an end of file
/// until ``IIOFakeDevice/vanish()`` closes it (as a device that is unplugged).
final class IIOFakeTree {
    /// The temporary directory holding `sys` and `dev`.
    let root: String
    /// Where the driver should look: `root/sys` and `root/dev`.
    let discovery: IIODeviceDiscovery

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("iio-\(UUID().uuidString)").path
        discovery = IIODeviceDiscovery(sysfsRoot: root + "/sys", deviceDirectory: root + "/dev")
        try FileManager.default.createDirectory(atPath: discovery.sysfsRoot, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: discovery.deviceDirectory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Adds `iio:deviceN` with `name`, the channels' files (`_raw`, `scan_elements/_en|_index|_type`), the
    /// buffer (`enable` 0, `length` 16, `watermark` 1), `current_timestamp_clock` (realtime, as the
    /// kernel starts), `trigger/current_trigger` (empty), any further `attributes` (path → text), and
    /// the node.
    @discardableResult
    func addDevice(
        number: Int = 0, name: String, channels: [IIOFakeChannel], attributes: [String: String] = [:]
    ) throws -> IIOFakeDevice {
        let directory = "\(discovery.sysfsRoot)/iio:device\(number)"
        var files: [String: String] = [
            "name": name, "buffer/enable": "0", "buffer/length": "16", "buffer/watermark": "1",
            "current_timestamp_clock": "realtime", "trigger/current_trigger": "",
        ]
        for channel in channels {
            if channel.name != "in_timestamp" { files["\(channel.name)_raw"] = "0" }
            files["scan_elements/\(channel.name)_en"] = "0"
            files["scan_elements/\(channel.name)_index"] = String(channel.index)
            files["scan_elements/\(channel.name)_type"] = channel.type
        }
        files.merge(attributes) { _, given in given }
        for (path, text) in files {
            let file = "\(directory)/\(path)"
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (text + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        }
        return try IIOFakeDevice(directory: directory, node: "\(discovery.deviceDirectory)/iio:device\(number)")
    }

    /// Adds `triggerN` with its `name`.
    func addTrigger(number: Int, name: String) throws {
        let directory = "\(discovery.sysfsRoot)/trigger\(number)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try (name + "\n").write(toFile: directory + "/name", atomically: false, encoding: .utf8)
    }
}

/// A channel of a fake device: its attribute prefix, scan index and `*_type` text.
struct IIOFakeChannel {
    var name: String
    var index: Int
    var type: String

    /// `in_accel_x…z`, `in_anglvel_x…z`, then `in_timestamp`, all `le:s16/16>>0` but the timestamp (`le:s64/64>>0`):
    /// a 6-axis IMU whose record is 6 × 2 bytes, 4 bytes of padding and 8 of timestamp (24 bytes).
    static let sixAxis = axes("accel", from: 0, type: "le:s16/16>>0") + axes("anglvel", from: 3, type: "le:s16/16>>0")
        + [IIOFakeChannel(name: "in_timestamp", index: 6, type: "le:s64/64>>0")]

    /// `in_<kind>_x`, `_y`, `_z` with indices `first`, `first + 1`, `first + 2`.
    static func axes(_ kind: String, from first: Int, type: String) -> [IIOFakeChannel] {
        ["x", "y", "z"].enumerated().map { IIOFakeChannel(name: "in_\(kind)_\($1)", index: first + $0, type: type) }
    }
}

/// One fake device: its attribute files and the FIFO standing in for its node.
final class IIOFakeDevice: Sendable {
    /// `…/sys/iio:deviceN`.
    let directory: String
    /// `…/dev/iio:deviceN`.
    let node: String
    /// The FIFO, open for reading and writing (so it never reports an end of file while the device lives);
    /// −1 once closed.
    private let descriptor: Mutex<Int32>
    private let streaming = Atomic<Bool>(false)
    private let streamStopped = DispatchSemaphore(value: 0)

    fileprivate init(directory: String, node: String) throws {
        self.directory = directory
        self.node = node
        guard mkfifo(node, 0o600) == 0 || errno == EEXIST else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let opened = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        descriptor = Mutex(opened)
    }

    deinit {
        stopStreaming()
        closeNode()
    }

    /// An attribute's text without its line break, `nil` when the file is missing.
    func attribute(_ path: String) -> String? {
        (try? String(contentsOfFile: "\(directory)/\(path)", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes buffer data into the node, as the kernel hands records out.
    func write(_ bytes: [UInt8]) {
        let written = writeToNode(bytes)
        precondition(written == bytes.count, "the fake node took \(written) of \(bytes.count) bytes")
    }

    /// Unplugs the device: the node reaches its end (the last writer closes) and the sysfs directory goes.
    func vanish() {
        stopStreaming()
        closeNode()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// How many descriptors of this process have the node open, the fake's own aside: the reader's, while
    /// its thread runs (it closes the node as the thread ends).
    var readerDescriptors: Int {
        let own = descriptor.withLock { $0 }
        guard let resolved = realpath(node, nil) else { return 0 }
        defer { free(resolved) }
        let target = String(cString: resolved)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            guard let number = Int32(entry), number != own else { return false }
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == target
        }.count
    }

    /// Closes the FIFO once (a second close could hit a descriptor another test has opened since).
    private func closeNode() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// `write(2)` to the FIFO; the count written, or −1.
    private func writeToNode(_ bytes: [UInt8]) -> Int {
        descriptor.withLock { descriptor in
            bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Starts a thread that, while `buffer/enable` reads 1, writes one record per period of `rate`:
    /// sample k at `t₀ + k × period` from the moment it saw the buffer enabled, written when that time has
    /// come, as `record(time)` encodes it.
    func startStreaming(rate: Double, record: @escaping @Sendable (UInt64) -> [UInt8]) {
        streaming.store(true, ordering: .releasing)
        let period = UInt64(1e9 / rate)
        Thread.detachNewThread { [self] in
            var next: UInt64?
            while streaming.load(ordering: .acquiring) {
                if attribute("buffer/enable") == "1" {
                    let now = MonotonicClock.now()
                    var due = next ?? now + period
                    var bytes: [UInt8] = []
                    while due <= now {
                        bytes += record(due)
                        due += period
                    }
                    next = due
                    if !bytes.isEmpty { _ = writeToNode(bytes) }
                } else {
                    next = nil
                }
                usleep(1000)
            }
            streamStopped.signal()
        }
    }

    /// Stops the streaming thread, if running, and waits for it.
    func stopStreaming() {
        guard streaming.exchange(false, ordering: .acquiringAndReleasing) else { return }
        streamStopped.wait()
    }
}

/// Little-endian bytes of a 16-bit value, as `le:s16/16>>0` stores it.
func littleEndian(_ value: Int16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

/// Little-endian bytes of a 64-bit value, as `le:s64/64>>0` stores it.
func littleEndian(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

/// A record of ``IIOFakeChannel/sixAxis``: accelerometer and gyroscope raw values, 4 bytes of padding, the
/// timestamp.
func sixAxisRecord(accel: SIMD3<Int16>, gyro: SIMD3<Int16>, timestamp: UInt64) -> [UInt8] {
    [accel.x, accel.y, accel.z, gyro.x, gyro.y, gyro.z].flatMap(littleEndian) + [0xEE, 0xEE, 0xEE, 0xEE]
        + littleEndian(Int64(bitPattern: timestamp))
}
