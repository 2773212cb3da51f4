import MotionFusion

/// A client of a ``MotionDetectorHost`` with a state of its own (the agent's events and states pipeline):
/// stepped with every sample the host's bank analyses, in the frame it was added with, on the device's
/// thread under the host's lock.
public protocol MotionDetectorProcessor: Sendable {
    /// What one device delivery made, handed to the channel's `deliver`.
    associatedtype Output: Sendable
    /// One sample: the filter's output (whose attitude is in the processor's frame), what the bank found
    /// in it, and the bank after it (its states and levels). Must not allocate per sample where it can help it.
    mutating func step(_ sample: FusedMotionSample, found: MotionDetectorBank.Output, bank: borrowing MotionDetectorBank)
    /// The end of one device delivery.
    /// - Returns: what to hand on, or nil when there is nothing.
    mutating func finishDelivery() -> Output?
}

/// A processor in the host's state, whatever its type; touched only under the host's lock.
protocol ProcessorSlot: AnyObject {
    /// The frame of the attitude it is fed.
    var frame: AttitudeReferenceFrame { get }
    func step(_ sample: FusedMotionSample, found: MotionDetectorBank.Output, bank: borrowing MotionDetectorBank)
    func finishDelivery()
}

/// The processor of one channel and where its output goes.
///
/// `@unchecked Sendable`: its mutable processor is read and changed only under the host's lock, which is
/// also why its accesses skip the runtime's exclusivity check (a `swift_beginAccess` per sample otherwise).
final class ProcessorBox<Processor: MotionDetectorProcessor>: ProcessorSlot, @unchecked Sendable {
    @exclusivity(unchecked) var processor: Processor
    let frame: AttitudeReferenceFrame
    private let deliver: @Sendable (Processor.Output) -> Void

    init(_ processor: Processor, frame: AttitudeReferenceFrame, deliver: @escaping @Sendable (Processor.Output) -> Void) {
        self.processor = processor
        self.frame = frame
        self.deliver = deliver
    }

    func step(_ sample: FusedMotionSample, found: MotionDetectorBank.Output, bank: borrowing MotionDetectorBank) {
        processor.step(sample, found: found, bank: bank)
    }

    func finishDelivery() {
        if let output = processor.finishDelivery() { deliver(output) }
    }
}

/// A processor added to a ``MotionDetectorHost``; pass it to ``MotionDetectorHost/removeProcessor(_:)``.
public struct MotionDetectorChannel<Processor: MotionDetectorProcessor>: Sendable {
    fileprivate let id: UInt64
    fileprivate let host: MotionDetectorHost

    /// Reads or changes the processor between deliveries (from any thread; waits for a delivery being
    /// processed).
    /// - Returns: what `body` returned, or nil once the processor was removed.
    public func withProcessor<Result>(_ body: (inout Processor) -> Result) -> Result? {
        host.state.withLock { state in
            guard let box = state.processors.first(where: { $0.id == id })?.slot as? ProcessorBox<Processor> else { return nil }
            return body(&box.processor)
        }
    }
}

extension MotionDetectorHost {
    /// Adds `processor`, stepped with the bank's analysis of every sample from the next device delivery on,
    /// and makes `detectors` the bank (afresh, in the same step, so the processor sees it from its start).
    /// The bank then reads the filter's output in `frame`, whose attitude the processor is given, and the
    /// listeners read that bank too.
    ///
    /// `deliver` runs on the device's thread under the host's lock, once per device delivery that made an
    /// output: it must only hand the output on (queue it), never wait or call the host or the engine.
    /// - Parameters:
    ///   - processor: its state at the start.
    ///   - frame: the reference frame of the attitude it is fed; every processor of a host has the same.
    ///   - detectors: the bank from now on: the detectors the processor and the listeners need.
    ///   - deliver: takes what each delivery made.
    /// - Returns: the channel, or nil when the source cannot deliver the filter's output in `frame` (no
    ///   device with an accelerometer and a gyroscope, a frame not available, not an engine's host) or
    ///   another processor runs in another frame.
    public func addProcessor<Processor: MotionDetectorProcessor>(
        _ processor: Processor, frame: AttitudeReferenceFrame, detectors: MotionDetectorBank,
        deliver: @escaping @Sendable (Processor.Output) -> Void
    ) -> MotionDetectorChannel<Processor>? {
        let id = state.withLock { state -> UInt64? in
            guard state.processors.allSatisfy({ $0.slot.frame == frame }) else { return nil }
            state.nextID += 1
            state.processors.append((state.nextID, ProcessorBox(processor, frame: frame, deliver: deliver)))
            state.detectors = detectors
            state.bank = detectors
            return state.nextID
        }
        guard let id else { return nil }
        let channel = MotionDetectorChannel<Processor>(id: id, host: self)
        guard updateSubscription() else {
            removeProcessor(channel)
            return nil
        }
        return channel
    }

    /// Removes a processor added with ``addProcessor(_:frame:detectors:deliver:)``: after it returns, the
    /// processor is not stepped and nothing more is delivered. The bank stays as it is for the listeners.
    /// - Returns: the processor's final state (nil when it was removed already).
    @discardableResult
    public func removeProcessor<Processor>(_ channel: MotionDetectorChannel<Processor>) -> Processor? {
        let box = state.withLock { state -> ProcessorBox<Processor>? in
            guard let index = state.processors.firstIndex(where: { $0.id == channel.id }) else { return nil }
            return state.processors.remove(at: index).slot as? ProcessorBox<Processor>
        }
        updateSubscription()
        return box?.processor
    }
}
