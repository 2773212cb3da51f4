import CoreMotion
import Foundation

// Dive-computer code written the way a watchOS app writes it against CMWaterSubmersionManager. It compiles
// unchanged against Apple's `import CoreMotion` (Swift 6 language mode); only the tests' choice of sensor is
// Linux's.

/// A dive log: the manager's delegate, keeping what it hears.
final class DiveLog: NSObject, CMWaterSubmersionManagerDelegate {
    struct Sample: Sendable {
        var date: Date
        var depth: Double?
        var pressure: Double?
        var surfacePressure: Double
        var state: CMWaterSubmersionMeasurement.DepthState
    }

    private let manager = CMWaterSubmersionManager()
    private let lock = NSLock()
    private var events: [CMWaterSubmersionEvent.State] = []
    private var samples: [Sample] = []
    private var temperatures: [Double] = []
    private var errors: [Error] = []

    static var isSupported: Bool {
        CMWaterSubmersionManager.waterSubmersionAvailable && CMWaterSubmersionManager.authorizationStatus == .authorized
    }

    var maximumDepthMetres: Double? { manager.maximumDepth?.converted(to: .meters).value }

    func begin() { manager.delegate = self }
    func end() { manager.delegate = nil }

    var allEvents: [CMWaterSubmersionEvent.State] { lock.withLock { events } }
    var allSamples: [Sample] { lock.withLock { samples } }
    var allTemperatures: [Double] { lock.withLock { temperatures } }
    var errorCount: Int { lock.withLock { errors.count } }

    func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent) {
        lock.withLock { events.append(event.state) }
    }

    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement) {
        let sample = Sample(
            date: measurement.date, depth: measurement.depth?.converted(to: .meters).value,
            pressure: measurement.pressure?.converted(to: .kilopascals).value,
            surfacePressure: measurement.surfacePressure.converted(to: .kilopascals).value, state: measurement.submersionState)
        lock.withLock { samples.append(sample) }
    }

    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature) {
        let celsius = measurement.temperature.converted(to: .celsius).value
        lock.withLock { temperatures.append(celsius) }
    }

    func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error) {
        lock.withLock { errors.append(error) }
    }
}
