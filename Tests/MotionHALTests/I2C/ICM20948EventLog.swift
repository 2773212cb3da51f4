import MotionHAL
import Synchronization

/// Every event a device delivered, in order.
final class ICM20948EventLog: Sendable {
    private let events = Mutex<[IMUDeviceEvent]>([])

    var handler: @Sendable (IMUDeviceEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }

    var all: [IMUDeviceEvent] { events.withLock { $0 } }

    var samples: [IMUSample] {
        all.flatMap { event -> [IMUSample] in
            if case .samples(let samples) = event { return samples }
            return []
        }
    }

    var faults: [IMUDeviceError] {
        all.compactMap { event in
            if case .fault(let fault) = event { return fault }
            return nil
        }
    }
}
