import CoreMotion
import Foundation

/// Part 2: steps, activity, altitude, and the types a board has no hardware for (odometer, heart rate,
/// movement disorders). Deprecated because it names Apple's deprecated API on purpose (CMStepCounter,
/// iOS 7; CMSensorRecorder.isAuthorizedForRecording) without a warning.
@available(*, deprecated, message: "names Apple's deprecated API on purpose")
func nameTheActivitySurface() {
    // CMPedometer
    let _: () -> Bool = CMPedometer.isStepCountingAvailable
    let _: () -> Bool = CMPedometer.isDistanceAvailable
    let _: () -> Bool = CMPedometer.isFloorCountingAvailable
    let _: () -> Bool = CMPedometer.isPaceAvailable
    let _: () -> Bool = CMPedometer.isCadenceAvailable
    let _: () -> Bool = CMPedometer.isPedometerEventTrackingAvailable
    let _: () -> CMAuthorizationStatus = CMPedometer.authorizationStatus
    let _: (CMPedometer, Date, Date, @escaping CMPedometerHandler) -> Void = { $0.queryPedometerData(from: $1, to: $2, withHandler: $3) }
    let _: (CMPedometer, Date, @escaping CMPedometerHandler) -> Void = { $0.startUpdates(from: $1, withHandler: $2) }
    let _: (CMPedometer) -> Void = { $0.stopUpdates() }
    let _: (CMPedometer, @escaping CMPedometerEventHandler) -> Void = { $0.startEventUpdates(handler: $1) }
    let _: (CMPedometer) -> Void = { $0.stopEventUpdates() }
    let _: CMPedometerHandler = { (_: CMPedometerData?, _: (any Error)?) in }
    let _: CMPedometerEventHandler = { (_: CMPedometerEvent?, _: (any Error)?) in }
    let _: KeyPath<CMPedometerData, Date> = \.startDate
    let _: KeyPath<CMPedometerData, Date> = \.endDate
    let _: KeyPath<CMPedometerData, NSNumber> = \.numberOfSteps
    let _: KeyPath<CMPedometerData, NSNumber?> = \.distance
    let _: KeyPath<CMPedometerData, NSNumber?> = \.floorsAscended
    let _: KeyPath<CMPedometerData, NSNumber?> = \.floorsDescended
    let _: KeyPath<CMPedometerData, NSNumber?> = \.currentPace
    let _: KeyPath<CMPedometerData, NSNumber?> = \.currentCadence
    let _: KeyPath<CMPedometerData, NSNumber?> = \.averageActivePace
    let _: KeyPath<CMPedometerEvent, Date> = \.date
    let _: KeyPath<CMPedometerEvent, CMPedometerEventType> = \.type
    let _: [CMPedometerEventType] = [.pause, .resume]

    // CMMotionActivityManager and CMMotionActivity
    let _: () -> Bool = CMMotionActivityManager.isActivityAvailable
    let _: () -> CMAuthorizationStatus = CMMotionActivityManager.authorizationStatus
    let _: (CMMotionActivityManager, Date, Date, OperationQueue, @escaping CMMotionActivityQueryHandler) -> Void = { $0.queryActivityStarting(from: $1, to: $2, to: $3, withHandler: $4) }
    let _: (CMMotionActivityManager, OperationQueue, @escaping CMMotionActivityHandler) -> Void = { $0.startActivityUpdates(to: $1, withHandler: $2) }
    let _: (CMMotionActivityManager) -> Void = { $0.stopActivityUpdates() }
    let _: CMMotionActivityHandler = { (_: CMMotionActivity?) in }
    let _: CMMotionActivityQueryHandler = { (_: [CMMotionActivity]?, _: (any Error)?) in }
    let _: KeyPath<CMMotionActivity, CMMotionActivityConfidence> = \.confidence
    let _: KeyPath<CMMotionActivity, Date> = \.startDate
    for path: KeyPath<CMMotionActivity, Bool> in [\.unknown, \.stationary, \.walking, \.running, \.automotive, \.cycling] { _ = path }
    let _: [CMMotionActivityConfidence] = [.low, .medium, .high]

    // CMAltimeter
    let _: () -> Bool = CMAltimeter.isRelativeAltitudeAvailable
    let _: () -> Bool = CMAltimeter.isAbsoluteAltitudeAvailable
    let _: () -> CMAuthorizationStatus = CMAltimeter.authorizationStatus
    let _: (CMAltimeter, OperationQueue, @escaping CMAltitudeHandler) -> Void = { $0.startRelativeAltitudeUpdates(to: $1, withHandler: $2) }
    let _: (CMAltimeter) -> Void = { $0.stopRelativeAltitudeUpdates() }
    let _: (CMAltimeter, OperationQueue, @escaping CMAbsoluteAltitudeHandler) -> Void = { $0.startAbsoluteAltitudeUpdates(to: $1, withHandler: $2) }
    let _: (CMAltimeter) -> Void = { $0.stopAbsoluteAltitudeUpdates() }
    let _: CMAltitudeHandler = { (_: CMAltitudeData?, _: (any Error)?) in }
    let _: CMAbsoluteAltitudeHandler = { (_: CMAbsoluteAltitudeData?, _: (any Error)?) in }
    let _: KeyPath<CMAltitudeData, NSNumber> = \.relativeAltitude
    let _: KeyPath<CMAltitudeData, NSNumber> = \.pressure
    let _: KeyPath<CMAbsoluteAltitudeData, Double> = \.altitude
    let _: KeyPath<CMAbsoluteAltitudeData, Double> = \.accuracy
    let _: KeyPath<CMAbsoluteAltitudeData, Double> = \.precision

    // CMStepCounter (deprecated since iOS 8)
    let _: () -> Bool = CMStepCounter.isStepCountingAvailable
    let _: (CMStepCounter, Date, Date, OperationQueue, @escaping CMStepQueryHandler) -> Void = { $0.queryStepCountStarting(from: $1, to: $2, to: $3, withHandler: $4) }
    let _: (CMStepCounter, OperationQueue, Int, @escaping CMStepUpdateHandler) -> Void = { $0.startStepCountingUpdates(to: $1, updateOn: $2, withHandler: $3) }
    let _: (CMStepCounter) -> Void = { $0.stopStepCountingUpdates() }
    let _: CMStepQueryHandler = { (_: Int, _: (any Error)?) in }
    let _: CMStepUpdateHandler = { (_: Int, _: Date, _: (any Error)?) in }

    // CMOdometerData
    let _: KeyPath<CMOdometerData, Date> = \.startDate
    let _: KeyPath<CMOdometerData, Date> = \.endDate
    let _: KeyPath<CMOdometerData, Date> = \.gpsDate
    let _: KeyPath<CMOdometerData, CLLocationDistance> = \.deltaDistance
    let _: KeyPath<CMOdometerData, CLLocationAccuracy> = \.deltaDistanceAccuracy
    let _: KeyPath<CMOdometerData, CLLocationSpeed> = \.speed
    let _: KeyPath<CMOdometerData, CLLocationSpeedAccuracy> = \.speedAccuracy
    let _: KeyPath<CMOdometerData, CLLocationDistance> = \.deltaAltitude
    let _: KeyPath<CMOdometerData, CLLocationAccuracy> = \.verticalAccuracy
    let _: KeyPath<CMOdometerData, Double> = \.slope
    let _: KeyPath<CMOdometerData, Double> = \.maxAbsSlope
    let _: KeyPath<CMOdometerData, CMOdometerOriginDevice> = \.originDevice
    let _: [CMOdometerOriginDevice] = [.unknown, .local, .remote]

    // CMHighFrequencyHeartRateData
    let _: KeyPath<CMHighFrequencyHeartRateData, Double> = \.heartRate
    let _: KeyPath<CMHighFrequencyHeartRateData, CMHighFrequencyHeartRateDataConfidence> = \.confidence
    let _: KeyPath<CMHighFrequencyHeartRateData, Date?> = \.date
    let _: [CMHighFrequencyHeartRateDataConfidence] = [.low, .medium, .high, .highest]

    // CMMovementDisorderManager, CMTremorResult, CMDyskineticSymptomResult
    let _: () -> Bool = CMMovementDisorderManager.isAvailable
    let _: () -> CMAuthorizationStatus = CMMovementDisorderManager.authorizationStatus
    let _: (CMMovementDisorderManager, TimeInterval) -> Void = { $0.monitorKinesias(forDuration: $1) }
    let _: (CMMovementDisorderManager, Date, Date, @escaping CMDyskineticSymptomResultHandler) -> Void = { $0.queryDyskineticSymptom(from: $1, to: $2, withHandler: $3) }
    let _: (CMMovementDisorderManager, Date, Date, @escaping CMTremorResultHandler) -> Void = { $0.queryTremor(from: $1, to: $2, withHandler: $3) }
    let _: (CMMovementDisorderManager) -> Date? = { $0.lastProcessedDate() }
    let _: (CMMovementDisorderManager) -> Date? = { $0.monitorKinesiasExpirationDate() }
    let _: KeyPath<CMTremorResult, Date> = \.startDate
    let _: KeyPath<CMTremorResult, Date> = \.endDate
    for path: KeyPath<CMTremorResult, Float> in [\.percentUnknown, \.percentNone, \.percentSlight, \.percentMild, \.percentModerate, \.percentStrong] {
        _ = path
    }
    let _: KeyPath<CMDyskineticSymptomResult, Date> = \.startDate
    let _: KeyPath<CMDyskineticSymptomResult, Date> = \.endDate
    let _: KeyPath<CMDyskineticSymptomResult, Float> = \.percentUnlikely
    let _: KeyPath<CMDyskineticSymptomResult, Float> = \.percentLikely
}

/// Part 2's `async` forms, apart from the unapplied method references above (Swift 6.0.3 asks a method
/// referenced unapplied inside an `async` function for a `Sendable` receiver).
@available(*, deprecated, message: "names Apple's deprecated API on purpose")
func callTheActivitySurfaceAsyncForms() async throws {
    let _: CMPedometerData = try await CMPedometer().queryPedometerData(from: Date(), to: Date())
    let _: [CMMotionActivity] = try await CMMotionActivityManager().queryActivityStarting(from: Date(), to: Date(), to: .main)
    let _: Int = try await CMStepCounter().queryStepCountStarting(from: Date(), to: Date(), to: .main)
    let _: [CMTremorResult] = try await CMMovementDisorderManager().queryTremor(from: Date(), to: Date())
    let _: [CMDyskineticSymptomResult] = try await CMMovementDisorderManager().queryDyskineticSymptom(from: Date(), to: Date())
}
