import MotionMath
import MotionModel
import Testing

/// The model's vocabulary is written on the wire, in configuration files and in archives by its raw
/// values and case order: these are pinned here, where they are declared.
@Suite struct VocabularyTests {
    @Test("magnetic-field accuracies have Apple's raw values, worst first")
    func magneticFieldAccuracy() {
        // CMMagneticFieldCalibrationAccuracy: uncalibrated -1, low 0, medium 1, high 2.
        #expect(MagneticFieldAccuracy.allCases.map(\.rawValue) == [-1, 0, 1, 2])
        #expect(MagneticFieldAccuracy.allCases == MagneticFieldAccuracy.allCases.sorted())
        #expect(MagneticFieldAccuracy.low < .medium && !(MagneticFieldAccuracy.high < .uncalibrated))
    }

    @Test("reference frames carry Apple's case names, in the order of CMAttitudeReferenceFrame's bits")
    func referenceFrames() {
        #expect(AttitudeReferenceFrame.allCases.map(\.rawValue) == [
            "xArbitraryZVertical", "xArbitraryCorrectedZVertical", "xMagneticNorthZVertical", "xTrueNorthZVertical",
        ])
        #expect(AttitudeReferenceFrame.allCases.filter { !$0.usesMagnetometer } == [.xArbitraryZVertical])
        #expect(AttitudeReferenceFrame.xArbitraryCorrectedZVertical.toEastNorthUp == nil)
        // x north, y west → x east, y north: north (1, 0, 0) becomes (0, 1, 0) in East-North-Up.
        let north = AttitudeReferenceFrame.xMagneticNorthZVertical.toEastNorthUp!.rotate(SIMD3(1, 0, 0))
        #expect(abs(north.x) < 1e-12 && abs(north.y - 1) < 1e-12 && abs(north.z) < 1e-12)
    }

    @Test("services are named as their topics and configuration keys; their hashes do not depend on the name")
    func services() {
        #expect(MotionService.allCases.map(\.rawValue) == [
            "accelerometer", "gyro", "magnetometer", "device-motion", "steps", "activity", "altitude", "vibration",
        ])
        #expect(MotionService.sensorServices == [.accelerometer, .gyro, .magnetometer, .deviceMotion])
        #expect(Set(MotionService.allCases).count == MotionService.allCases.count)
        #expect(Set(MotionService.allCases.map(\.hashValue)).count == MotionService.allCases.count)
    }

    @Test("samples say when they were measured")
    func timestampedSamples() {
        let samples: [any TimestampedSample] = [
            VectorSample(timestamp: 1.5, value: SIMD3(0, 0, -1)),
        ]
        #expect(samples.map(\.timestamp) == [1.5])
        #expect(AttitudeUncertaintyEstimate(heading: 3, inclination: 1) == AttitudeUncertaintyEstimate(heading: 3, inclination: 1))
    }

    @Test("event, state and detector kinds carry the contract's and the configuration's names, in archive order")
    func detectorVocabulary() {
        #expect(MotionEventKind.allCases.map(\.rawValue) == ["free_fall", "impact", "tap", "double_tap", "shake"])
        #expect(MotionStateKind.allCases.map(\.rawValue) == ["moving", "orientation", "tilt", "vibration", "activity"])
        #expect(MotionDetectorKind.allCases.map(\.rawValue) == [
            "free_fall", "impact", "tap", "shake", "orientation", "tilt", "moving", "vibration", "activity",
        ])
        #expect(DeviceOrientation.allCases.map(\.rawValue) == [
            "face_up", "face_down", "portrait", "portrait_upside_down", "landscape_left", "landscape_right",
        ])
        #expect(MotionActivityKind.allCases.map(\.rawValue) == ["stationary", "walking", "running", "unknown"])
        // CMMotionActivityConfidence: low 0, medium 1, high 2.
        #expect(MotionActivityConfidence.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(MotionActivityConfidence.allCases == MotionActivityConfidence.allCases.sorted())
    }

    @Test("every event kind is found by exactly one detector, and every state kind is kept by exactly one")
    func detectorsCoverTheVocabulary() {
        let events = MotionDetectorKind.allCases.flatMap(\.eventKinds)
        #expect(events.sorted { $0.rawValue < $1.rawValue } == MotionEventKind.allCases.sorted { $0.rawValue < $1.rawValue })
        let states = MotionDetectorKind.allCases.compactMap(\.stateKind)
        #expect(Set(states) == Set(MotionStateKind.allCases) && states.count == MotionStateKind.allCases.count)
        // A detector finds events or keeps a state, never both.
        #expect(MotionDetectorKind.allCases.allSatisfy { $0.eventKinds.isEmpty != ($0.stateKind == nil) })
        #expect(MotionDetectorKind.tap.eventKinds == [.tap, .doubleTap])
    }
}
