import MotionFusion
import Synchronization

/// A client of a ``MotionDetectorHost`` with a state of its own (the agent's events and states pipeline):
/// fed the attitude filter's output in the frame it was added with, every sample, on the device's thread.
public protocol MotionDetectorProcessor: Sendable {
    /// What one delivery of samples made, handed to the channel's `deliver`.
    associatedtype Output: Sendable
    /// Feeds the samples of one device delivery, oldest first.
    /// - Returns: what to hand on, or nil when there is nothing.
    mutating func process(_ samples: [FusedMotionSample]) -> Output?
}

/// A processor added to a ``MotionDetectorHost``: its state, and its subscription to the filter's output.
///
/// Thread safety: the processor is fed and its output delivered under the channel's lock, on the device's
/// thread; ``withProcessor(_:)`` takes the same lock from any thread.
public final class MotionDetectorChannel<Processor: MotionDetectorProcessor>: Sendable {
    /// The processor; nil once removed.
    private let processor: Mutex<Processor?>
    private let deliver: @Sendable (Processor.Output) -> Void
    /// The subscription feeding it (set once, right after creation).
    fileprivate let subscription: Mutex<MotionSubscription?> = Mutex(nil)

    fileprivate init(_ processor: Processor, deliver: @escaping @Sendable (Processor.Output) -> Void) {
        self.processor = Mutex(processor)
        self.deliver = deliver
    }

    /// Reads or changes the processor between deliveries (nil once it was removed).
    public func withProcessor<Result>(_ body: (inout Processor) -> Result) -> Result? {
        processor.withLock { processor in
            guard processor != nil else { return nil }
            return body(&processor!)
        }
    }

    /// Feeds a delivery and hands on what it made; the lock is held so that nothing is delivered after
    /// ``removed()`` returned.
    fileprivate func receive(_ samples: [MotionSample]) {
        let fused = samples.compactMap { if case .fused(let sample) = $0 { sample } else { nil } }
        processor.withLock { processor in
            guard processor != nil, !fused.isEmpty, let output = processor!.process(fused) else { return }
            deliver(output)
        }
    }

    /// Takes the processor out: it is not fed again, and its final state is returned.
    fileprivate func removed() -> Processor? {
        processor.withLock { processor in
            defer { processor = nil }
            return processor
        }
    }
}

extension MotionDetectorHost {
    /// Adds `processor`, fed the filter's output in `frame` from the next device delivery on.
    ///
    /// `deliver` runs on the device's thread under the channel's lock, once per delivery that made an
    /// output: it must only hand the output on (queue it), never wait or call the host or the engine.
    /// - Parameters:
    ///   - processor: its state at the start.
    ///   - frame: the reference frame of the attitude it is fed.
    ///   - deliver: takes what each delivery made.
    /// - Returns: the channel, or nil when the source cannot deliver the filter's output in `frame` (no
    ///   device with an accelerometer and a gyroscope, a frame not available, or not an engine's host).
    public func addProcessor<Processor: MotionDetectorProcessor>(
        _ processor: Processor, frame: AttitudeReferenceFrame, deliver: @escaping @Sendable (Processor.Output) -> Void
    ) -> MotionDetectorChannel<Processor>? {
        let channel = MotionDetectorChannel(processor, deliver: deliver)
        let subscription = MotionSubscription(
            service: .fusedMotion(frame), interval: 0,
            sink: .batch { [weak channel] subscription, samples, _ in
                guard !subscription.isCancelled, let samples else { return }
                channel?.receive(samples)
            })
        channel.subscription.withLock { $0 = subscription }
        guard source.subscribe(subscription) else { return nil }
        return channel
    }

    /// Removes a processor added with ``addProcessor(_:frame:deliver:)``: after it returns, the processor
    /// is not fed and nothing more is delivered.
    /// - Returns: the processor's final state (nil when it was removed already).
    @discardableResult
    public func removeProcessor<Processor>(_ channel: MotionDetectorChannel<Processor>) -> Processor? {
        let processor = channel.removed()
        if let subscription = channel.subscription.withLock({ $0 }) { source.unsubscribe(subscription) }
        return processor
    }
}
