import CoreMotion
import Foundation
import Testing

/// What of Apple's surface can be checked by running: every type exists (the list's count), the raw
/// values of Apple's enumerations, the protocol conformances Apple declares (and not more), and the
/// answers of the types a board has no hardware for.
@Suite struct AppleSurfaceTests {
    /// Every public type of APPLE-COREMOTION-SURFACE.md (classes, protocols, structures, enumerations,
    /// type aliases of handlers), in its order.
    static let types: [Any.Type] = [
        CMMotionManager.self, CMLogItem.self, CMAccelerometerData.self, CMGyroData.self, CMMagnetometerData.self,
        CMDeviceMotion.self, CMDeviceMotion.SensorLocation.self, CMAttitude.self, CMRecordedDeviceMotion.self,
        (any CMBodyIdentifiable).self, CMAcceleration.self, CMRotationRate.self, CMMagneticField.self,
        CMCalibratedMagneticField.self, CMQuaternion.self, CMRotationMatrix.self, CMAttitudeReferenceFrame.self,
        CMMagneticFieldCalibrationAccuracy.self, CMAuthorizationStatus.self, CMError.self, CMAccelerometerHandler.self,
        CMGyroHandler.self, CMMagnetometerHandler.self, CMDeviceMotionHandler.self, CMBatchedSensorManager.self,
        CMBatchedSensorManager.AccelerometerUpdates.self, CMBatchedSensorManager.DeviceMotionUpdates.self,
        // Part 2
        CMPedometer.self, CMPedometerData.self, CMPedometerEvent.self, CMPedometerEventType.self, CMPedometerHandler.self,
        CMPedometerEventHandler.self, CMMotionActivityManager.self, CMMotionActivity.self, CMMotionActivityConfidence.self,
        CMMotionActivityHandler.self, CMMotionActivityQueryHandler.self, CMAltimeter.self, CMAltitudeData.self,
        CMAbsoluteAltitudeData.self, CMAltitudeHandler.self, CMAbsoluteAltitudeHandler.self, CMStepQueryHandler.self,
        CMStepUpdateHandler.self, CMOdometerData.self, CMOdometerOriginDevice.self, CMHighFrequencyHeartRateData.self,
        CMHighFrequencyHeartRateDataConfidence.self, CMMovementDisorderManager.self, CMTremorResult.self,
        CMDyskineticSymptomResult.self, CMTremorResultHandler.self, CMDyskineticSymptomResultHandler.self,
        // Part 3
        CMHeadphoneMotionManager.self, (any CMHeadphoneMotionManagerDelegate).self, CMHeadphoneDeviceMotionHandler.self,
        CMHeadphoneActivityManager.self, CMHeadphoneActivityManager.Status.self, CMHeadphoneActivityHandler.self,
        CMHeadphoneActivityStatusHandler.self, CMSensorRecorder.self, CMSensorDataList.self, CMRecordedAccelerometerData.self,
        CMRotationRateData.self, CMRecordedRotationRateData.self, CMAmbientPressureData.self, CMRecordedPressureData.self,
        CMFallDetectionManager.self, (any CMFallDetectionDelegate).self, CMFallDetectionEvent.self,
        CMFallDetectionEvent.UserResolution.self, CMWaterSubmersionManager.self, (any CMWaterSubmersionManagerDelegate).self,
        CMWaterSubmersionEvent.self, CMWaterSubmersionEvent.State.self, CMWaterSubmersionMeasurement.self,
        CMWaterSubmersionMeasurement.DepthState.self, CMWaterTemperature.self,
    ]

    @Test func everyTypeOfTheListExists() {
        // (Handler type aliases of the same function type print alike, so the names are not compared.)
        #expect(Self.types.count == 79)
    }

    @Test func theEnumerationsHaveApplesRawValues() {
        #expect((100...113).map { CMError(rawValue: UInt32($0)) } == [
            CMErrorNULL, CMErrorDeviceRequiresMovement, CMErrorTrueNorthNotAvailable, CMErrorUnknown, CMErrorMotionActivityNotAvailable,
            CMErrorMotionActivityNotAuthorized, CMErrorMotionActivityNotEntitled, CMErrorInvalidParameter, CMErrorInvalidAction,
            CMErrorNotAvailable, CMErrorNotEntitled, CMErrorNotAuthorized, CMErrorNilData, CMErrorSize,
        ])
        #expect([CMAttitudeReferenceFrame.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical, .xTrueNorthZVertical]
            .map(\.rawValue) == [1, 2, 4, 8])
        #expect(CMMagneticFieldCalibrationAccuracy.uncalibrated.rawValue == -1 && CMMagneticFieldCalibrationAccuracy.high.rawValue == 2)
        #expect(CMAuthorizationStatus.authorized.rawValue == 3 && CMDeviceMotion.SensorLocation.headphoneRight.rawValue == 2)
        #expect(CMPedometerEventType.resume.rawValue == 1 && CMMotionActivityConfidence.high.rawValue == 2)
        #expect(CMOdometerOriginDevice.remote.rawValue == 2 && CMHighFrequencyHeartRateDataConfidence.highest.rawValue == 3)
        #expect(CMHeadphoneActivityManager.Status.connected.rawValue == 1 && CMFallDetectionEvent.UserResolution.unresponsive.rawValue == 3)
        #expect(CMWaterSubmersionEvent.State.submerged.rawValue == 2)
        #expect([CMWaterSubmersionMeasurement.DepthState.unknown, .notSubmerged, .submergedShallow, .submergedDeep, .approachingMaxDepth,
            .pastMaxDepth, .sensorDepthError].map(\.rawValue) == [0, 100, 200, 300, 400, 500, 600])
    }

    @Test func theDataClassesConformAsApplesDo() {
        let coded: [AnyClass] = [
            CMLogItem.self, CMAttitude.self, CMPedometerData.self, CMPedometerEvent.self, CMOdometerData.self, CMTremorResult.self,
            CMDyskineticSymptomResult.self, CMWaterSubmersionEvent.self, CMWaterSubmersionMeasurement.self, CMWaterTemperature.self,
        ]
        for type in coded {
            #expect(type is NSSecureCoding.Type && type is NSCopying.Type, "\(type)")
        }
        // Apple's fall event is a plain NSObject, and its list a fast enumeration only.
        #expect(!(CMFallDetectionEvent.self is NSSecureCoding.Type) && !(CMFallDetectionEvent.self is NSCopying.Type))
        #expect(!(CMSensorDataList.self is NSSecureCoding.Type))
    }

    @Test func whatABoardHasNoHardwareForAnswersAsSuchADevice() async {
        #expect(!CMMovementDisorderManager.isAvailable())
        let manager = CMMovementDisorderManager()
        manager.monitorKinesias(forDuration: 3600)
        #expect(manager.lastProcessedDate() == nil && manager.monitorKinesiasExpirationDate() == nil)
        do {
            _ = try await manager.queryTremor(from: Date(timeIntervalSinceNow: -3600), to: Date())
            Issue.record("the query should fail")
        } catch {
            #expect((error as NSError).domain == CMErrorDomain && (error as NSError).code == Int(CMErrorNotAvailable.rawValue))
        }
        let delivered = await withCheckedContinuation { continuation in
            manager.queryDyskineticSymptom(from: Date(timeIntervalSinceNow: -3600), to: Date()) { results, error in
                continuation.resume(returning: (results.count, (error as NSError?)?.code))
            }
        }
        #expect(delivered.0 == 0 && delivered.1 == Int(CMErrorNotAvailable.rawValue))
        #expect(CMOdometerData().speed < 0 && CMHighFrequencyHeartRateData().date == nil)
    }
}
