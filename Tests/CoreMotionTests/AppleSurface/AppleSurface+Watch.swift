import CoreMotion
import Foundation

/// Part 3: headphones, the sensor recorder and its recorded data, fall detection and water submersion.
@available(*, deprecated, message: "names Apple's deprecated API on purpose")
func nameTheWatchSurface() {
    // CMHeadphoneMotionManager and its delegate
    let _: () -> CMAuthorizationStatus = CMHeadphoneMotionManager.authorizationStatus
    let _: ReferenceWritableKeyPath<CMHeadphoneMotionManager, (any CMHeadphoneMotionManagerDelegate)?> = \.delegate
    let _: KeyPath<CMHeadphoneMotionManager, Bool> = \.isDeviceMotionAvailable
    let _: KeyPath<CMHeadphoneMotionManager, Bool> = \.isDeviceMotionActive
    let _: KeyPath<CMHeadphoneMotionManager, Bool> = \.isConnectionStatusActive
    let _: KeyPath<CMHeadphoneMotionManager, CMDeviceMotion?> = \.deviceMotion
    let _: (CMHeadphoneMotionManager) -> Void = { $0.startDeviceMotionUpdates() }
    let _: (CMHeadphoneMotionManager, OperationQueue, @escaping CMHeadphoneDeviceMotionHandler) -> Void = { $0.startDeviceMotionUpdates(to: $1, withHandler: $2) }
    let _: (CMHeadphoneMotionManager) -> Void = { $0.stopDeviceMotionUpdates() }
    let _: (CMHeadphoneMotionManager) -> Void = { $0.startConnectionStatusUpdates() }
    let _: (CMHeadphoneMotionManager) -> Void = { $0.stopConnectionStatusUpdates() }
    let _: CMHeadphoneMotionManager.DeviceMotionHandler = { (_: CMDeviceMotion?, _: (any Error)?) in }
    let _: (any CMHeadphoneMotionManagerDelegate, CMHeadphoneMotionManager) -> Void = { $0.headphoneMotionManagerDidConnect($1) }
    let _: (any CMHeadphoneMotionManagerDelegate, CMHeadphoneMotionManager) -> Void = { $0.headphoneMotionManagerDidDisconnect($1) }

    // CMHeadphoneActivityManager (iOS 18)
    let _: () -> CMAuthorizationStatus = CMHeadphoneActivityManager.authorizationStatus
    let _: KeyPath<CMHeadphoneActivityManager, Bool> = \.isActivityAvailable
    let _: KeyPath<CMHeadphoneActivityManager, Bool> = \.isActivityActive
    let _: KeyPath<CMHeadphoneActivityManager, Bool> = \.isStatusAvailable
    let _: KeyPath<CMHeadphoneActivityManager, Bool> = \.isStatusActive
    let _: (CMHeadphoneActivityManager, OperationQueue, @escaping CMHeadphoneActivityManager.ActivityHandler) -> Void = { $0.startActivityUpdates(to: $1, withHandler: $2) }
    let _: (CMHeadphoneActivityManager) -> Void = { $0.stopActivityUpdates() }
    let _: (CMHeadphoneActivityManager, OperationQueue, @escaping CMHeadphoneActivityManager.StatusHandler) -> Void = { $0.startStatusUpdates(to: $1, withHandler: $2) }
    let _: (CMHeadphoneActivityManager) -> Void = { $0.stopStatusUpdates() }
    let _: [CMHeadphoneActivityManager.Status] = [.disconnected, .connected]
    let _: CMHeadphoneActivityHandler = { (_: CMMotionActivity?, _: (any Error)?) in }
    let _: CMHeadphoneActivityStatusHandler = { (_: CMHeadphoneActivityManager.Status, _: (any Error)?) in }

    // CMSensorRecorder, CMSensorDataList and the recorded data
    let _: () -> Bool = CMSensorRecorder.isAccelerometerRecordingAvailable
    let _: () -> CMAuthorizationStatus = CMSensorRecorder.authorizationStatus
    let _: () -> Bool = CMSensorRecorder.isAuthorizedForRecording
    let _: (CMSensorRecorder, Date, Date) -> CMSensorDataList? = { $0.accelerometerData(from: $1, to: $2) }
    let _: (CMSensorRecorder, TimeInterval) -> Void = { $0.recordAccelerometer(forDuration: $1) }
    let _: any NSFastEnumeration = CMSensorDataList()
    var iterator = NSFastEnumerationIterator(CMSensorDataList())
    let _: Any? = iterator.next()
    let _: KeyPath<CMRecordedAccelerometerData, UInt64> = \.identifier
    let _: KeyPath<CMRecordedAccelerometerData, Date> = \.startDate
    let _: KeyPath<CMRecordedAccelerometerData, CMAcceleration> = \.acceleration
    let _: KeyPath<CMRotationRateData, CMRotationRate> = \.rotationRate
    let _: KeyPath<CMRecordedRotationRateData, Date> = \.startDate
    let _: KeyPath<CMAmbientPressureData, Measurement<UnitPressure>> = \.pressure
    let _: KeyPath<CMAmbientPressureData, Measurement<UnitTemperature>> = \.temperature
    let _: KeyPath<CMRecordedPressureData, UInt64> = \.identifier
    let _: KeyPath<CMRecordedPressureData, Date> = \.startDate

    // CMFallDetectionManager, its delegate and CMFallDetectionEvent (watchOS)
    let _: Bool = CMFallDetectionManager.isAvailable
    let _: KeyPath<CMFallDetectionManager, CMAuthorizationStatus> = \.authorizationStatus
    let _: ReferenceWritableKeyPath<CMFallDetectionManager, (any CMFallDetectionDelegate)?> = \.delegate
    let _: (CMFallDetectionManager, @escaping (CMAuthorizationStatus) -> Void) -> Void = { $0.requestAuthorization(handler: $1) }
    let _: KeyPath<CMFallDetectionEvent, Date> = \.date
    let _: KeyPath<CMFallDetectionEvent, CMFallDetectionEvent.UserResolution> = \.resolution
    let _: [CMFallDetectionEvent.UserResolution] = [.confirmed, .dismissed, .rejected, .unresponsive]
    let _: (any CMFallDetectionDelegate, CMFallDetectionManager, CMFallDetectionEvent, @escaping () -> Void) -> Void = {
        $0.fallDetectionManager($1, didDetect: $2, completionHandler: $3)
    }
    let _: (any CMFallDetectionDelegate, CMFallDetectionManager) -> Void = { $0.fallDetectionManagerDidChangeAuthorization($1) }

    // CMWaterSubmersionManager, its delegate and data (watchOS 9)
    let _: Bool = CMWaterSubmersionManager.waterSubmersionAvailable
    let _: CMAuthorizationStatus = CMWaterSubmersionManager.authorizationStatus
    let _: ReferenceWritableKeyPath<CMWaterSubmersionManager, (any CMWaterSubmersionManagerDelegate)?> = \.delegate
    let _: KeyPath<CMWaterSubmersionManager, Measurement<UnitLength>?> = \.maximumDepth
    let _: KeyPath<CMWaterSubmersionEvent, Date> = \.date
    let _: KeyPath<CMWaterSubmersionEvent, CMWaterSubmersionEvent.State> = \.state
    let _: [CMWaterSubmersionEvent.State] = [.unknown, .notSubmerged, .submerged]
    let _: KeyPath<CMWaterSubmersionMeasurement, Date> = \.date
    let _: KeyPath<CMWaterSubmersionMeasurement, Measurement<UnitLength>?> = \.depth
    let _: KeyPath<CMWaterSubmersionMeasurement, Measurement<UnitPressure>?> = \.pressure
    let _: KeyPath<CMWaterSubmersionMeasurement, Measurement<UnitPressure>> = \.surfacePressure
    let _: KeyPath<CMWaterSubmersionMeasurement, CMWaterSubmersionMeasurement.DepthState> = \.submersionState
    let _: [CMWaterSubmersionMeasurement.DepthState] = [
        .unknown, .notSubmerged, .submergedShallow, .submergedDeep, .approachingMaxDepth, .pastMaxDepth, .sensorDepthError,
    ]
    let _: KeyPath<CMWaterTemperature, Date> = \.date
    let _: KeyPath<CMWaterTemperature, Measurement<UnitTemperature>> = \.temperature
    let _: KeyPath<CMWaterTemperature, Measurement<UnitTemperature>> = \.temperatureUncertainty
    let _: (any CMWaterSubmersionManagerDelegate, CMWaterSubmersionManager, CMWaterSubmersionEvent) -> Void = { $0.manager($1, didUpdate: $2) }
    let _: (any CMWaterSubmersionManagerDelegate, CMWaterSubmersionManager, CMWaterSubmersionMeasurement) -> Void = { $0.manager($1, didUpdate: $2) }
    let _: (any CMWaterSubmersionManagerDelegate, CMWaterSubmersionManager, CMWaterTemperature) -> Void = { $0.manager($1, didUpdate: $2) }
    let _: (any CMWaterSubmersionManagerDelegate, CMWaterSubmersionManager, any Error) -> Void = { $0.manager($1, errorOccurred: $2) }
}

/// Part 3's `async` forms, apart from the unapplied method references above (see Part 2's).
func callTheWatchSurfaceAsyncForms() async {
    let _: CMAuthorizationStatus = await CMFallDetectionManager().requestAuthorization()
}
