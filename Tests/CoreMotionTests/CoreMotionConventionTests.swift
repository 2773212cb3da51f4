import CoreMotion
import Foundation
import MotionHAL
import MotionMath
import Testing

/// Apple's units, signs and frames, checked against the simulator's ground truth (attitudes are body → ENU:
/// x east, y north, z up; the simulated earth field points to magnetic north along ENU y).
///
/// Conventions pinned here, from Apple's documentation: acceleration in g with gravity included (face up at
/// rest z = −1), `gravity` a unit vector pointing down in device axes, `acceleration = gravity +
/// userAcceleration`; rotation rate in rad/s, counter-clockwise positive (right-hand rule); in
/// ``CMAttitudeReferenceFrame/xMagneticNorthZVertical`` the reference x-axis points to magnetic north and z up
/// (so y points west); pitch is the rotation about x, roll about y, yaw about z (counter-clockwise
/// positive); `rotationMatrix` maps reference coordinates into device coordinates (its rows are the device
/// axes in the reference frame); `heading` is the compass bearing of the device's top edge in degrees
/// clockwise from north, 0–360, negative in frames without north.
extension CMMotionManagerDeviceTests {
    /// Body → ENU attitude of a device lying face up with its x-axis to magnetic north (its top edge to the
    /// west), turned by `angle` about its own `axis` — in the magnetic-north reference frame exactly the
    /// rotation `(axis, angle)`.
    private static func northAlignedAttitude(turnedAbout axis: SIMD3<Double>, by angle: Double) -> Quaternion {
        Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2) * Quaternion(axis: axis, angle: angle)
    }

    /// Compass bearing of the device's top edge (or of its back, −z, when the top is clearly steeper than
    /// the back, as for a device held upright), degrees clockwise from north, from the ground truth.
    private static func trueHeading(of attitude: Quaternion) -> Double {
        let top = attitude.rotate(SIMD3(0, 1, 0)), back = attitude.rotate(SIMD3(0, 0, -1))
        let pointing = abs(top.z) > abs(back.z) + 0.2 ? back : top
        let degrees = atan2(pointing.x, pointing.y) * 180 / .pi  // east over north
        return degrees < 0 ? degrees + 360 : degrees
    }

    private static func angularDistance(degrees a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    /// Waits until the device motion of every manager in `managers` is `seconds` of sample time newer than
    /// the one it holds now (each must hold one); returns whether they all got there within 10 s.
    private static func waitForSampleTime(_ seconds: TimeInterval, of managers: CMMotionManager...) -> Bool {
        let starts = managers.map { $0.deviceMotion?.timestamp ?? .infinity }
        return waitUntil(timeout: 10) {
            zip(managers, starts).allSatisfy { manager, start in (manager.deviceMotion?.timestamp ?? 0) >= start + seconds }
        }
    }

    /// The newest device motion in `frame` once the filter has settled, and the newest accelerometer data.
    private static func settledMotion(
        _ manager: CMMotionManager, frame: CMAttitudeReferenceFrame
    ) throws -> (CMDeviceMotion, CMAccelerometerData) {
        manager.startAccelerometerUpdates()
        manager.startDeviceMotionUpdates(using: frame)
        #expect(waitUntil { manager.deviceMotion != nil && manager.accelerometerData != nil })
        // The filter converges from its first sample within 0.3 s of samples.
        #expect(waitForSampleTime(0.3, of: manager))
        return (try #require(manager.deviceMotion), try #require(manager.accelerometerData))
    }

    @Test(arguments: [
        ("pitch +90° (about x)", SIMD3<Double>(1, 0, 0), Double.pi / 2),
        ("pitch -90° (about x)", SIMD3<Double>(1, 0, 0), -Double.pi / 2),
        ("roll +90° (about y)", SIMD3<Double>(0, 1, 0), Double.pi / 2),
        ("roll -90° (about y)", SIMD3<Double>(0, 1, 0), -Double.pi / 2),
        ("yaw +90° (about z)", SIMD3<Double>(0, 0, 1), Double.pi / 2),
        ("yaw -90° (about z)", SIMD3<Double>(0, 0, 1), -Double.pi / 2),
    ])
    func aQuarterTurnAboutEachAxisInTheMagneticNorthFrame(name: String, axis: SIMD3<Double>, angle: Double) throws {
        let truth = Self.northAlignedAttitude(turnedAbout: axis, by: angle)
        _ = Self.useStationarySimulator(truth)
        let manager = CMMotionManager()
        defer {
            manager.stopAccelerometerUpdates()
            manager.stopDeviceMotionUpdates()
        }
        let (motion, accelerometer) = try Self.settledMotion(manager, frame: .xMagneticNorthZVertical)
        let tolerance = 0.035  // 2°, in rad and as a matrix entry

        // The attitude relative to the reference frame is the rotation itself.
        let expected = Quaternion(axis: axis, angle: angle)
        let measured = motion.attitude.quaternion
        let attitude = Quaternion(w: measured.w, x: measured.x, y: measured.y, z: measured.z)
        #expect(attitude.angle(to: expected) < tolerance, "\(name): \(attitude) vs \(expected)")

        // Euler angles: the turned axis carries the whole angle (pitch ±90° leaves roll and yaw undefined).
        let attitudeAngles = (roll: motion.attitude.roll, pitch: motion.attitude.pitch, yaw: motion.attitude.yaw)
        switch axis {
        case SIMD3(1, 0, 0):
            #expect(abs(attitudeAngles.pitch - angle) < tolerance, "\(name): pitch \(attitudeAngles.pitch)")
        case SIMD3(0, 1, 0):
            #expect(abs(attitudeAngles.roll - angle) < tolerance, "\(name): roll \(attitudeAngles.roll)")
            #expect(abs(attitudeAngles.pitch) < tolerance && abs(attitudeAngles.yaw) < tolerance, "\(name)")
        default:
            #expect(abs(attitudeAngles.yaw - angle) < tolerance, "\(name): yaw \(attitudeAngles.yaw)")
            #expect(abs(attitudeAngles.pitch) < tolerance && abs(attitudeAngles.roll) < tolerance, "\(name)")
        }

        // rotationMatrix rows are the device axes in reference coordinates.
        let matrix = motion.attitude.rotationMatrix
        let rows = [
            SIMD3(matrix.m11, matrix.m12, matrix.m13), SIMD3(matrix.m21, matrix.m22, matrix.m23),
            SIMD3(matrix.m31, matrix.m32, matrix.m33),
        ]
        for (row, deviceAxis) in zip(rows, [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]) {
            let inReference = expected.rotate(deviceAxis)
            let largest = ((row - inReference) * (row - inReference)).max().squareRoot()
            #expect(largest < tolerance, "\(name): row \(row) vs device axis \(inReference)")
        }

        // Gravity points down in device axes, the accelerometer reads it at rest, nothing is left over.
        let down = truth.conjugate.rotate(SIMD3(0, 0, -1))
        let gravity = SIMD3(motion.gravity.x, motion.gravity.y, motion.gravity.z)
        let acceleration = SIMD3(accelerometer.acceleration.x, accelerometer.acceleration.y, accelerometer.acceleration.z)
        #expect(((gravity - down) * (gravity - down)).sum().squareRoot() < 0.01, "\(name): gravity \(gravity)")
        #expect(((acceleration - down) * (acceleration - down)).sum().squareRoot() < 0.02, "\(name): \(acceleration)")
        let user = motion.userAcceleration
        #expect(abs(user.x) < 0.02 && abs(user.y) < 0.02 && abs(user.z) < 0.02, "\(name): user \(user)")

        // Heading: compass bearing of the top edge (of the back when the top points up or down).
        let heading = Self.trueHeading(of: truth)
        #expect(Self.angularDistance(degrees: motion.heading, heading) < 2, "\(name): heading \(motion.heading)° vs \(heading)°")
    }

    /// A device at rest, with what Apple's conventions say it reads.
    struct RestingPosition: Sendable, CustomTestStringConvertible {
        let name: String
        /// Body → ENU.
        let attitude: Quaternion
        /// Acceleration in g (gravity included) and gravity, device axes.
        let acceleration: SIMD3<Double>
        /// rad; nil where pitch is ±90° and roll and yaw are not defined (gimbal lock of Apple's angles).
        let roll: Double?
        /// rad.
        let pitch: Double

        var testDescription: String { name }

        static let all: [RestingPosition] = [
            .init(name: "face up", attitude: .identity, acceleration: SIMD3(0, 0, -1), roll: 0, pitch: 0),
            .init(
                name: "face down", attitude: Quaternion(axis: SIMD3(0, 1, 0), angle: .pi),
                acceleration: SIMD3(0, 0, 1), roll: .pi, pitch: 0),
            .init(
                name: "portrait, top edge up", attitude: Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2),
                acceleration: SIMD3(0, -1, 0), roll: nil, pitch: .pi / 2),
            .init(
                name: "upside down, top edge down",
                attitude: Quaternion(axis: SIMD3(1, 0, 0), angle: -.pi / 2),
                acceleration: SIMD3(0, 1, 0), roll: nil, pitch: -.pi / 2),
            .init(
                name: "landscape, right edge up", attitude: Quaternion(axis: SIMD3(0, 1, 0), angle: -.pi / 2),
                acceleration: SIMD3(-1, 0, 0), roll: -.pi / 2, pitch: 0),
            .init(
                name: "landscape, left edge up", attitude: Quaternion(axis: SIMD3(0, 1, 0), angle: .pi / 2),
                acceleration: SIMD3(1, 0, 0), roll: .pi / 2, pitch: 0),
        ]
    }

    @Test(arguments: RestingPosition.all)
    func atRestInSixOrientations(position: RestingPosition) throws {
        let (name, attitude, expected, roll, pitch) = (
            position.name, position.attitude, position.acceleration, position.roll, position.pitch
        )
        _ = Self.useStationarySimulator(attitude)
        let manager = CMMotionManager()
        defer {
            manager.stopAccelerometerUpdates()
            manager.stopDeviceMotionUpdates()
        }
        let (motion, accelerometer) = try Self.settledMotion(manager, frame: .xArbitraryZVertical)
        let acceleration = accelerometer.acceleration
        for (value, truth) in [(acceleration.x, expected.x), (acceleration.y, expected.y), (acceleration.z, expected.z)] {
            #expect(abs(value - truth) < 0.02, "\(name): acceleration \(acceleration)")
        }
        let gravity = motion.gravity
        for (value, truth) in [(gravity.x, expected.x), (gravity.y, expected.y), (gravity.z, expected.z)] {
            #expect(abs(value - truth) < 0.01, "\(name): gravity \(gravity)")
        }
        // Roll of a face-down device is ±π: compare on the circle.
        if let roll {
            let rollError = abs(remainder(motion.attitude.roll - roll, 2 * .pi))
            #expect(rollError < 0.035, "\(name): roll \(motion.attitude.roll)")
        }
        #expect(abs(motion.attitude.pitch - pitch) < 0.035, "\(name): pitch \(motion.attitude.pitch)")
        #expect(motion.heading < 0, "\(name): no north in xArbitraryZVertical")
    }

    @Test func spinningCounterClockwiseAtAKnownRate() throws {
        // Face up, top edge to magnetic north at t = 0, spinning about z at +0.8 rad/s (counter-clockwise
        // seen from above): yaw grows at the rate, the compass heading falls at it.
        let rate = 0.8
        CMLinuxMotionDevice.use(SimulatedIMU(configuration: .init(
            sampleRate: 200, motion: .rotation(axis: SIMD3(0, 0, 1), rate: rate), seed: 11)))
        let manager = CMMotionManager()
        manager.deviceMotionUpdateInterval = 0.01
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        defer { manager.stopDeviceMotionUpdates() }
        #expect(waitUntil { manager.deviceMotion != nil })
        #expect(Self.waitForSampleTime(0.5, of: manager))
        let first = try #require(manager.deviceMotion)
        #expect(Self.waitForSampleTime(0.5, of: manager))
        let second = try #require(manager.deviceMotion)
        let elapsed = second.timestamp - first.timestamp
        #expect(elapsed > 0.4)
        #expect(abs(second.rotationRate.z - rate) < 0.02, "bias removed: \(second.rotationRate.z)")
        #expect(abs(second.rotationRate.x) < 0.02 && abs(second.rotationRate.y) < 0.02)
        let yawChange = remainder(second.attitude.yaw - first.attitude.yaw, 2 * .pi)
        #expect(abs(yawChange - rate * elapsed) < 0.03, "yaw +\(yawChange) rad in \(elapsed) s")
        let headingChange = remainder(second.heading - first.heading, 360)
        #expect(abs(headingChange + rate * elapsed * 180 / .pi) < 2, "heading \(headingChange)° in \(elapsed) s")
    }

    @Test func trueNorthIsMagneticNorthTurnedByTheDeclination() throws {
        // Top edge 30° east of magnetic north; declination 10° east: 40° from true north.
        let truth = Quaternion(axis: SIMD3(0, 0, 1), angle: -30 * Double.pi / 180)
        _ = Self.useStationarySimulator(truth)
        try CMLinuxMotionDevice.useMagneticDeclination(10)
        defer { try? CMLinuxMotionDevice.useMagneticDeclination(nil) }
        #expect(CMLinuxMotionDevice.magneticDeclination == 10)
        #expect(CMMotionManager.availableAttitudeReferenceFrames().contains(.xTrueNorthZVertical))

        let magnetic = CMMotionManager(), trueNorth = CMMotionManager()
        let queue = OperationQueue()
        let errors = Recorder<NSError>()
        magnetic.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        trueNorth.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: queue) { _, error in
            if let error { errors.append(error as NSError) }
        }
        defer {
            magnetic.stopDeviceMotionUpdates()
            trueNorth.stopDeviceMotionUpdates()
        }
        #expect(waitUntil { magnetic.deviceMotion != nil && trueNorth.deviceMotion != nil })
        #expect(Self.waitForSampleTime(0.3, of: magnetic, trueNorth))  // the filters settle
        let inMagnetic = try #require(magnetic.deviceMotion), inTrue = try #require(trueNorth.deviceMotion)
        #expect(errors.count == 0)
        #expect(Self.angularDistance(degrees: inMagnetic.heading, 30) < 2, "magnetic heading \(inMagnetic.heading)°")
        #expect(Self.angularDistance(degrees: inTrue.heading, 40) < 2, "true heading \(inTrue.heading)°")
        // Yaw is counter-clockwise from the reference x-axis: 10° less from true north.
        let yawDifference = remainder(inTrue.attitude.yaw - inMagnetic.attitude.yaw, 2 * .pi)
        #expect(abs(yawDifference + 10 * Double.pi / 180) < 0.01, "yaw difference \(yawDifference) rad")
        // Tilt is the same in both frames.
        #expect(abs(inTrue.attitude.roll - inMagnetic.attitude.roll) < 0.01)
        #expect(abs(inTrue.attitude.pitch - inMagnetic.attitude.pitch) < 0.01)

        // A new declination reaches the running service within 0.1 s of samples.
        try CMLinuxMotionDevice.useMagneticDeclination(-5)
        #expect(Self.waitForSampleTime(0.1, of: trueNorth))
        let updated = try #require(trueNorth.deviceMotion)
        #expect(Self.angularDistance(degrees: updated.heading, 25) < 2, "true heading \(updated.heading)°")
    }

    @Test func aLocationGivesTheWorldMagneticModelsDeclination() throws {
        _ = Self.useStationarySimulator()
        defer { try? CMLinuxMotionDevice.useMagneticDeclination(nil) }
        try CMLinuxMotionDevice.useLocation(latitude: 52.52, longitude: 13.40, altitude: 34)  // Berlin
        let declination = try #require(CMLinuxMotionDevice.magneticDeclination)
        // WMM2025 in Berlin: 5.20° east at 2026.9, growing by about 0.17° a year.
        #expect((4.7...6.2).contains(declination), "\(declination)°")
        #expect(CMMotionManager.availableAttitudeReferenceFrames().contains(.xTrueNorthZVertical))
        do {
            try CMLinuxMotionDevice.useLocation(latitude: 95, longitude: 0)
            Issue.record("a latitude of 95° was accepted")
        } catch let error as NSError {
            #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorInvalidParameter.rawValue))
            #expect(error.localizedDescription.contains("latitude 95"))
        }
        #expect(CMLinuxMotionDevice.magneticDeclination == declination)  // unchanged by the refused call
    }

    @Test func aDeclinationMustBeDegreesWithin180() throws {
        _ = Self.useStationarySimulator()
        for invalid in [Double.nan, .infinity, 180.5, -720] {
            #expect(throws: NSError.self) { try CMLinuxMotionDevice.useMagneticDeclination(invalid) }
            do {
                try CMLinuxMotionDevice.useMagneticDeclination(invalid)
            } catch let error as NSError {
                #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorInvalidParameter.rawValue))
            }
        }
        #expect(CMLinuxMotionDevice.magneticDeclination == nil)
        #expect(!CMMotionManager.availableAttitudeReferenceFrames().contains(.xTrueNorthZVertical))
    }
}
