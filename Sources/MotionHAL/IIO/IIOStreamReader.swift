#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// The thread of one run of ``IIOIMU``: waits in `poll` on the buffer nodes and a wake-up pipe, reads what
/// came, merges the magnetometer device's values into the accelerometer/gyroscope samples, screens them
/// (``IMUSampleScreen``) and delivers each read as one batch.
///
/// - Reads happen at most every `readInterval` (the kernel's watermark makes `poll` wait for that many
///   records too), so a consumer is woken once per batch, not per sample.
/// - ``cancel()`` writes to the wake-up pipe: the thread leaves `poll` at once, delivers nothing more
///   and closes the nodes.
/// - A node at its end or failing with `ENODEV`, or the device's sysfs directory gone, is delivered as one
///   `.fault(.unavailable)` and ends the thread.
final class IIOStreamReader: @unchecked Sendable {
    private let primary: IIOBufferedCapture
    private let magnetometer: IIOBufferedCapture?
    private let queue: DispatchQueue
    private let handler: @Sendable (IMUDeviceEvent) -> Void
    private let readInterval: UInt64
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let cancelled = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    // Touched only by the reader thread.
    private var screen: IMUSampleScreen
    private var pendingMagneticFields: [IIOBufferedCapture.Reading] = []
    private var lastTimestamp: UInt64?

    /// The most magnetometer readings kept while waiting for an accelerometer/gyroscope sample.
    private static let pendingMagneticFieldLimit = 256

    /// Starts the thread.
    /// - Parameters:
    ///   - primary: the accelerometer/gyroscope device's capture (or a 9-axis device's).
    ///   - magnetometer: a separate magnetometer device's capture.
    ///   - screen: the device's sample screen.
    ///   - readInterval: least time between two reads, s.
    ///   - queue: the delivery queue (targets ``IMUDeliveryQueue/root``).
    ///   - handler: the consumer.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the wake-up pipe cannot be made.
    init(
        primary: IIOBufferedCapture, magnetometer: IIOBufferedCapture?, screen: IMUSampleScreen,
        readInterval: Double, queue: DispatchQueue, handler: @escaping @Sendable (IMUDeviceEvent) -> Void
    ) throws(IMUDeviceError) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw .unavailable("cannot create the IIO reader's wake-up pipe: \(IIOSysfsDevice.describe(errno))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        self.primary = primary
        self.magnetometer = magnetometer
        self.screen = screen
        self.readInterval = UInt64(readInterval * 1e9)
        self.queue = queue
        self.handler = handler
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let reader = Unmanaged<IIOStreamReader>.fromOpaque(argument!).takeRetainedValue()
            reader.run()
            return nil
        }, box)
        precondition(created == 0, "cannot create the IIO reader thread (\(created))")
        pthread_detach(thread)
    }

    /// The wake-up pipe is closed only when nothing can write to it any more (``cancel()`` may come after
    /// the thread has ended by itself).
    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    /// Makes the thread deliver nothing more and end promptly.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    /// Turns the devices' buffers off.
    func disableBuffers() {
        primary.disable()
        magnetometer?.disable()
    }

    /// Blocks until the thread has ended (after ``cancel()`` or a fault that ends it). Must not be called
    /// from the delivery queue.
    func waitUntilFinished() {
        finished.wait()
        finished.signal()  // later waiters return at once
    }

    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    private func run() {
        let watched = [wakeReader, primary.descriptor] + (magnetometer.map { [$0.descriptor] } ?? [])
        var descriptors = watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var lastRead: UInt64 = 0
        while !isCancelled {
            let now = MonotonicClock.now()
            if lastRead + readInterval > now {
                waitForWakeUp(milliseconds: Int32((lastRead + readInterval - now + 999_999) / 1_000_000))
                continue
            }
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if isCancelled { break }
            if ready < 0 && errno == EINTR { continue }
            let readTime = MonotonicClock.now()
            let (readings, failure) =
                ready < 0
                ? ([], .readFailed("poll on \(primary.info.nodePath) failed: \(IIOSysfsDevice.describe(errno))"))
                : read(ready: descriptors, at: readTime)
            if !readings.isEmpty || failure != nil { lastRead = readTime }
            deliver(events(for: readings, failure: failure))
            if case .unavailable = failure { break }
        }
        primary.closeNode()
        magnetometer?.closeNode()
        finished.signal()
    }

    /// Reads the nodes `poll` found ready (the magnetometer's values wait in ``pendingMagneticFields``);
    /// when nothing came, checks that the devices' sysfs directories are still there.
    private func read(ready descriptors: [pollfd], at readTime: UInt64)
        -> (readings: [IIOBufferedCapture.Reading], failure: IMUDeviceError?)
    {
        var readings: [IIOBufferedCapture.Reading] = []
        var failure: IMUDeviceError?
        if descriptors[1].revents != 0 {
            (readings, failure) = primary.readRecords(at: readTime)
        }
        if let magnetometer, descriptors[2].revents != 0 {
            let (fields, magnetometerFailure) = magnetometer.readRecords(at: readTime)
            pendingMagneticFields += fields
            failure = failure ?? magnetometerFailure
        }
        if readings.isEmpty, failure == nil,
            let gone = [primary, magnetometer].compactMap({ $0 }).first(where: { !$0.isPresent })
        {
            failure = .unavailable(
                "\(gone.info.label) is gone (\(gone.info.sysfsPath) vanished)")
        }
        return (readings, failure)
    }

    /// What to deliver for one read: a fault for out-of-order or screened-out records, the samples, the
    /// read's failure.
    private func events(for readings: [IIOBufferedCapture.Reading], failure: IMUDeviceError?) -> [IMUDeviceEvent] {
        var events: [IMUDeviceEvent] = []
        let (samples, outOfOrder) = merge(readings)
        if outOfOrder > 0 {
            let records = outOfOrder == 1 ? "1 record" : "\(outOfOrder) records"
            events.append(.fault(.readFailed(
                "\(records) from \(primary.info.nodePath) with a timestamp not after the previous one dropped")))
        }
        if !samples.isEmpty {
            let (kept, fault) = screen.screen(samples)
            if let fault { events.append(.fault(fault)) }
            if !kept.isEmpty { events.append(.samples(kept)) }
        }
        if let failure { events.append(.fault(failure)) }
        return events
    }

    /// Samples from the primary device's readings, each with the newest magnetometer value measured at or
    /// before it that no earlier sample carried; and how many readings were dropped for a timestamp not
    /// after the previous one.
    private func merge(_ readings: [IIOBufferedCapture.Reading]) -> (samples: [IMUSample], outOfOrder: Int) {
        var samples: [IMUSample] = []
        samples.reserveCapacity(readings.count)
        var outOfOrder = 0
        for reading in readings {
            if let lastTimestamp, reading.timestamp <= lastTimestamp {
                outOfOrder += 1
                continue
            }
            lastTimestamp = reading.timestamp
            var sample = IMUSample(
                timestamp: reading.timestamp, acceleration: reading.acceleration, rotationRate: reading.rotationRate,
                magneticField: reading.magneticField)
            var newest: IIOBufferedCapture.Reading?
            while let first = pendingMagneticFields.first, first.timestamp <= reading.timestamp {
                newest = pendingMagneticFields.removeFirst()
            }
            if let newest { sample.magneticField = newest.magneticField }
            samples.append(sample)
        }
        let excess = pendingMagneticFields.count - Self.pendingMagneticFieldLimit
        if excess > 0 { pendingMagneticFields.removeFirst(excess) }
        return (samples, outOfOrder)
    }

    /// Hands `events` to the consumer on the delivery queue, unless the run was cancelled meanwhile.
    private func deliver(_ events: [IMUDeviceEvent]) {
        guard !events.isEmpty else { return }
        queue.sync {
            guard !isCancelled else { return }
            for event in events { handler(event) }
        }
    }

    /// Sleeps up to `milliseconds` unless ``cancel()`` wakes the thread.
    private func waitForWakeUp(milliseconds: Int32) {
        var wake = pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)
        _ = poll(&wake, 1, max(milliseconds, 1))
    }
}
