import Foundation
import MotionHAL
import Synchronization
import MotionTestSupport

/// Collects what an ``IMUDevice`` delivers, in order, and lets a test wait for it (the driver tests' handler).
final class DeviceEventCollector: Sendable {
    private let events = Mutex<[IMUDeviceEvent]>([])

    /// The handler to pass to `start`.
    var handler: @Sendable (IMUDeviceEvent) -> Void {
        { event in self.events.withLock { $0.append(event) } }
    }

    /// Every event so far.
    var all: [IMUDeviceEvent] { events.withLock { $0 } }

    /// Every sample so far, in delivery order.
    var samples: [IMUSample] {
        all.flatMap { event -> [IMUSample] in
            if case .samples(let samples) = event { return samples }
            return []
        }
    }

    /// Every fault so far.
    var faults: [IMUDeviceError] {
        all.compactMap { event in
            if case .fault(let fault) = event { return fault }
            return nil
        }
    }

    /// Waits up to `timeout` seconds until `condition` holds; returns whether it did.
    @discardableResult
    func wait(timeout: Double = 2, until condition: (DeviceEventCollector) -> Bool) -> Bool {
        eventually(within: .milliseconds(Int(timeout * 1000))) { condition(self) }
    }
}
