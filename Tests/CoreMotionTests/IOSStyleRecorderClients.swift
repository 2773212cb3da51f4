import CoreMotion
import Foundation

// Sensor-recorder code written the way a watchOS or iOS app writes it. It compiles unchanged against Apple's
// `import CoreMotion` (Swift 6 language mode); only the tests' choice of device and store is Linux's.

// Apple's list conforms to NSFastEnumeration only; apps make it a Sequence themselves.
extension CMSensorDataList: Sequence {
    public func makeIterator() -> NSFastEnumerationIterator {
        return NSFastEnumerationIterator(self)
    }
}

/// An activity logger: asks the recorder to record for a while, then reads the samples back.
final class AccelerometerLogger {
    private let recorder = CMSensorRecorder()

    /// Whether this device can record the accelerometer for the app.
    var isAvailable: Bool {
        CMSensorRecorder.isAccelerometerRecordingAvailable() && CMSensorRecorder.authorizationStatus() == .authorized
    }

    func startLogging(forSeconds seconds: TimeInterval) {
        guard isAvailable else { return }
        recorder.recordAccelerometer(forDuration: seconds)
    }

    /// The magnitude of each recorded sample between two dates, with its date and batch.
    func samples(from start: Date, to end: Date) -> [(date: Date, batch: UInt64, magnitude: Double)] {
        guard let list = recorder.accelerometerData(from: start, to: end) else { return [] }
        var result: [(date: Date, batch: UInt64, magnitude: Double)] = []
        for case let data as CMRecordedAccelerometerData in list {
            let a = data.acceleration
            result.append((data.startDate, data.identifier, (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot()))
        }
        return result
    }

    /// Whether the recorder accepts a query of this span (Apple: at most 12 hours).
    func canQuery(from start: Date, to end: Date) -> Bool {
        recorder.accelerometerData(from: start, to: end) != nil
    }
}
