import CoreMotion
import Foundation

// Fall-detection code written the way a watchOS app writes it. It compiles unchanged against Apple's
// `import CoreMotion` (Swift 6 language mode); only the tests' choice of device is Linux's.

/// A caregiver app's fall monitor, with the completion-handler form of the delegate method.
final class FallMonitor: NSObject, CMFallDetectionDelegate {
    private let manager = CMFallDetectionManager()
    private let lock = NSLock()
    private var events: [(date: Date, resolution: CMFallDetectionEvent.UserResolution)] = []

    static var isSupported: Bool { CMFallDetectionManager.isAvailable }

    func begin(responseWindow: TimeInterval? = nil) {
        if let responseWindow { manager.linuxResponseWindow = responseWindow }
        if manager.authorizationStatus != .authorized {
            manager.requestAuthorization { _ in }
        }
        manager.delegate = self
    }

    func end() { manager.delegate = nil }

    var allEvents: [(date: Date, resolution: CMFallDetectionEvent.UserResolution)] { lock.withLock { events } }

    func fallDetectionManager(
        _ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent, completionHandler handler: @escaping () -> Void
    ) {
        lock.withLock { events.append((event.date, event.resolution)) }
        handler()
    }

    func fallDetectionManagerDidChangeAuthorization(_ fallDetectionManager: CMFallDetectionManager) {}
}

/// The same with Swift's `async` form of the delegate method.
final class AsyncFallMonitor: NSObject, CMFallDetectionDelegate {
    private let manager = CMFallDetectionManager()
    private let lock = NSLock()
    private var resolutions: [CMFallDetectionEvent.UserResolution] = []

    func begin(responseWindow: TimeInterval) async {
        _ = await manager.requestAuthorization()
        manager.linuxResponseWindow = responseWindow
        manager.delegate = self
    }

    func end() { manager.delegate = nil }

    var allResolutions: [CMFallDetectionEvent.UserResolution] { lock.withLock { resolutions } }

    func fallDetectionManager(_ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent) async {
        let resolution = event.resolution
        lock.withLock { resolutions.append(resolution) }
    }
}
