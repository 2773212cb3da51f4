import CoreMotion
import Foundation

// Every public type, method and property of Apple's CoreMotion, named with Apple's Swift signature, so that
// the build fails when one is missing or differs. The list this follows, with the SDK and sources, is
// APPLE-COREMOTION-SURFACE.md beside this file; one file per part of it. The functions are type-checked,
// not run (AppleSurfaceTests runs what needs no device).

/// Part 1: the motion manager, its data and its value types.
func nameTheMotionSurface() {
    // CMMotionManager
    let _: () -> CMMotionManager = CMMotionManager.init
    let _: () -> CMAttitudeReferenceFrame = CMMotionManager.availableAttitudeReferenceFrames
    let _: CMAuthorizationStatus = CMMotionManager.authorizationStatus
    let _: KeyPath<CMMotionManager, Bool> = \.isAccelerometerAvailable
    let _: KeyPath<CMMotionManager, Bool> = \.isAccelerometerActive
    let _: KeyPath<CMMotionManager, CMAccelerometerData?> = \.accelerometerData
    let _: ReferenceWritableKeyPath<CMMotionManager, TimeInterval> = \.accelerometerUpdateInterval
    let _: KeyPath<CMMotionManager, Bool> = \.isGyroAvailable
    let _: KeyPath<CMMotionManager, Bool> = \.isGyroActive
    let _: KeyPath<CMMotionManager, CMGyroData?> = \.gyroData
    let _: ReferenceWritableKeyPath<CMMotionManager, TimeInterval> = \.gyroUpdateInterval
    let _: KeyPath<CMMotionManager, Bool> = \.isMagnetometerAvailable
    let _: KeyPath<CMMotionManager, Bool> = \.isMagnetometerActive
    let _: KeyPath<CMMotionManager, CMMagnetometerData?> = \.magnetometerData
    let _: ReferenceWritableKeyPath<CMMotionManager, TimeInterval> = \.magnetometerUpdateInterval
    let _: KeyPath<CMMotionManager, Bool> = \.isDeviceMotionAvailable
    let _: KeyPath<CMMotionManager, Bool> = \.isDeviceMotionActive
    let _: KeyPath<CMMotionManager, CMDeviceMotion?> = \.deviceMotion
    let _: ReferenceWritableKeyPath<CMMotionManager, TimeInterval> = \.deviceMotionUpdateInterval
    let _: KeyPath<CMMotionManager, CMAttitudeReferenceFrame> = \.attitudeReferenceFrame
    let _: ReferenceWritableKeyPath<CMMotionManager, Bool> = \.showsDeviceMovementDisplay
    let _: ReferenceWritableKeyPath<CMMotionManager, (any CMBodyIdentifiable)?> = \.deviceMotionBody
    let _: (CMMotionManager) -> Void = { $0.startAccelerometerUpdates() }
    let _: (CMMotionManager, OperationQueue, @escaping CMAccelerometerHandler) -> Void = { $0.startAccelerometerUpdates(to: $1, withHandler: $2) }
    let _: (CMMotionManager) -> Void = { $0.stopAccelerometerUpdates() }
    let _: (CMMotionManager) -> Void = { $0.startGyroUpdates() }
    let _: (CMMotionManager, OperationQueue, @escaping CMGyroHandler) -> Void = { $0.startGyroUpdates(to: $1, withHandler: $2) }
    let _: (CMMotionManager) -> Void = { $0.stopGyroUpdates() }
    let _: (CMMotionManager) -> Void = { $0.startMagnetometerUpdates() }
    let _: (CMMotionManager, OperationQueue, @escaping CMMagnetometerHandler) -> Void = { $0.startMagnetometerUpdates(to: $1, withHandler: $2) }
    let _: (CMMotionManager) -> Void = { $0.stopMagnetometerUpdates() }
    let _: (CMMotionManager) -> Void = { $0.startDeviceMotionUpdates() }
    let _: (CMMotionManager, CMAttitudeReferenceFrame) -> Void = { $0.startDeviceMotionUpdates(using: $1) }
    let _: (CMMotionManager, OperationQueue, @escaping CMDeviceMotionHandler) -> Void = { $0.startDeviceMotionUpdates(to: $1, withHandler: $2) }
    let _: (CMMotionManager, CMAttitudeReferenceFrame, OperationQueue, @escaping CMDeviceMotionHandler) -> Void = { $0.startDeviceMotionUpdates(using: $1, to: $2, withHandler: $3) }
    let _: (CMMotionManager) -> Void = { $0.stopDeviceMotionUpdates() }

    // The handler types.
    let _: CMAccelerometerHandler = { (_: CMAccelerometerData?, _: (any Error)?) in }
    let _: CMGyroHandler = { (_: CMGyroData?, _: (any Error)?) in }
    let _: CMMagnetometerHandler = { (_: CMMagnetometerData?, _: (any Error)?) in }
    let _: CMDeviceMotionHandler = { (_: CMDeviceMotion?, _: (any Error)?) in }

    // CMLogItem and the samples.
    let _: KeyPath<CMLogItem, TimeInterval> = \.timestamp
    let _: KeyPath<CMAccelerometerData, CMAcceleration> = \.acceleration
    let _: KeyPath<CMGyroData, CMRotationRate> = \.rotationRate
    let _: KeyPath<CMMagnetometerData, CMMagneticField> = \.magneticField
    let _: KeyPath<CMDeviceMotion, CMAttitude> = \.attitude
    let _: KeyPath<CMDeviceMotion, CMRotationRate> = \.rotationRate
    let _: KeyPath<CMDeviceMotion, CMAcceleration> = \.gravity
    let _: KeyPath<CMDeviceMotion, CMAcceleration> = \.userAcceleration
    let _: KeyPath<CMDeviceMotion, CMCalibratedMagneticField> = \.magneticField
    let _: KeyPath<CMDeviceMotion, Double> = \.heading
    let _: KeyPath<CMDeviceMotion, CMDeviceMotion.SensorLocation> = \.sensorLocation
    let _: [CMDeviceMotion.SensorLocation] = [.default, .headphoneLeft, .headphoneRight]
    let _: KeyPath<CMRecordedDeviceMotion, UInt64> = \.identifier
    let _: KeyPath<CMRecordedDeviceMotion, Date> = \.startDate

    // CMAttitude
    let _: KeyPath<CMAttitude, Double> = \.roll
    let _: KeyPath<CMAttitude, Double> = \.pitch
    let _: KeyPath<CMAttitude, Double> = \.yaw
    let _: KeyPath<CMAttitude, CMRotationMatrix> = \.rotationMatrix
    let _: KeyPath<CMAttitude, CMQuaternion> = \.quaternion
    let _: (CMAttitude, CMAttitude) -> Void = { $0.multiply(byInverseOf: $1) }

    // Value types.
    let _ = CMAcceleration(x: 0, y: 0, z: -1)
    let _ = CMRotationRate(x: 0, y: 0, z: 0)
    let _ = CMMagneticField(x: 0, y: 0, z: 0)
    let _ = CMCalibratedMagneticField(field: CMMagneticField(), accuracy: .uncalibrated)
    let _ = CMQuaternion(x: 0, y: 0, z: 0, w: 1)
    let _ = CMRotationMatrix(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
    let _: [CMAttitudeReferenceFrame] = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical, .xTrueNorthZVertical]
    let _: [CMMagneticFieldCalibrationAccuracy] = [.uncalibrated, .low, .medium, .high]
    let _: [CMAuthorizationStatus] = [.notDetermined, .restricted, .denied, .authorized]

    // Errors.
    let _: String = CMErrorDomain
    let _: [CMError] = [
        CMErrorNULL, CMErrorDeviceRequiresMovement, CMErrorTrueNorthNotAvailable, CMErrorUnknown, CMErrorMotionActivityNotAvailable,
        CMErrorMotionActivityNotAuthorized, CMErrorMotionActivityNotEntitled, CMErrorInvalidParameter, CMErrorInvalidAction,
        CMErrorNotAvailable, CMErrorNotEntitled, CMErrorNotAuthorized, CMErrorNilData, CMErrorSize,
    ]
    let _: (UInt32) -> CMError = CMError.init(rawValue:)
    let _: (UInt32) -> CMError = CMError.init(_:)

    // CMBatchedSensorManager (watchOS 10)
    let _: Bool = CMBatchedSensorManager.isAccelerometerSupported
    let _: Bool = CMBatchedSensorManager.isDeviceMotionSupported
    let _: CMAuthorizationStatus = CMBatchedSensorManager.authorizationStatus
    let _: KeyPath<CMBatchedSensorManager, Int> = \.accelerometerDataFrequency
    let _: KeyPath<CMBatchedSensorManager, Int> = \.deviceMotionDataFrequency
    let _: KeyPath<CMBatchedSensorManager, Bool> = \.isAccelerometerActive
    let _: KeyPath<CMBatchedSensorManager, Bool> = \.isDeviceMotionActive
    let _: KeyPath<CMBatchedSensorManager, [CMAccelerometerData]?> = \.accelerometerBatch
    let _: KeyPath<CMBatchedSensorManager, [CMDeviceMotion]?> = \.deviceMotionBatch
    let _: (CMBatchedSensorManager) -> Void = { $0.startAccelerometerUpdates() }
    let _: (CMBatchedSensorManager, @escaping ([CMAccelerometerData]?, (any Error)?) -> Void) -> Void = { $0.startAccelerometerUpdates(handler: $1) }
    let _: (CMBatchedSensorManager) -> Void = { $0.stopAccelerometerUpdates() }
    let _: (CMBatchedSensorManager) -> CMBatchedSensorManager.AccelerometerUpdates = { $0.accelerometerUpdates() }
    let _: (CMBatchedSensorManager) -> Void = { $0.startDeviceMotionUpdates() }
    let _: (CMBatchedSensorManager, @escaping ([CMDeviceMotion]?, (any Error)?) -> Void) -> Void = { $0.startDeviceMotionUpdates(handler: $1) }
    let _: (CMBatchedSensorManager) -> Void = { $0.stopDeviceMotionUpdates() }
    let _: (CMBatchedSensorManager) -> CMBatchedSensorManager.DeviceMotionUpdates = { $0.deviceMotionUpdates() }
}

/// Apple's iOS 27 body protocol, adopted as an app would.
final class SurfaceBody: NSObject, CMBodyIdentifiable {}
