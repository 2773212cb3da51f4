import Foundation
import MotionEngine
import MotionFusion
import Testing

@testable import CoreMotion

/// Apple's data classes conform to NSSecureCoding: every one archived with secure coding and read back
/// with the same values, an archive missing a value read as nil, and an iOS-style subclass with its own
/// initializer and `required init?(coder:)` compiling as it does on iOS.
@Suite struct CMSecureCodingTests {
    static func roundTrip<Item: NSObject & NSSecureCoding>(_ item: Item) throws -> Item {
        let data = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
        return try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: Item.self, from: data))
    }

    @Test func theSampleClassesKeepTheirValues() throws {
        #expect(CMLogItem.supportsSecureCoding && CMDeviceMotion.supportsSecureCoding && CMAttitude.supportsSecureCoding)
        let acceleration = try Self.roundTrip(CMAccelerometerData(acceleration: CMAcceleration(x: 0.1, y: -0.2, z: -0.98), timestamp: 12.5))
        #expect(acceleration.acceleration.x == 0.1 && acceleration.acceleration.z == -0.98 && acceleration.timestamp == 12.5)
        let gyro = try Self.roundTrip(CMGyroData(rotationRate: CMRotationRate(x: 1, y: 2, z: 3), timestamp: 1))
        #expect(gyro.rotationRate.y == 2 && gyro.timestamp == 1)
        let field = try Self.roundTrip(CMMagnetometerData(magneticField: CMMagneticField(x: 20, y: -5, z: -40), timestamp: 2))
        #expect(field.magneticField.z == -40)
        let attitude = CMAttitude(w: 0.9, x: 0.1, y: -0.3, z: 0.2)
        let readAttitude = try Self.roundTrip(attitude)
        #expect(abs(readAttitude.roll - attitude.roll) < 1e-12 && abs(readAttitude.yaw - attitude.yaw) < 1e-12)
        let motion = CMDeviceMotion(
            attitude: attitude, rotationRate: CMRotationRate(x: 0.1, y: 0, z: 0), gravity: CMAcceleration(x: 0, y: 0, z: -1),
            userAcceleration: CMAcceleration(x: 0.05, y: 0, z: 0),
            magneticField: CMCalibratedMagneticField(field: CMMagneticField(x: 20, y: 0, z: -40), accuracy: .high), heading: 123.5,
            uncertainty: (1.5, 0.4), timestamp: 99)
        let read = try Self.roundTrip(motion)
        #expect(read.timestamp == 99 && read.heading == 123.5 && read.userAcceleration.x == 0.05 && read.gravity.z == -1)
        #expect(read.magneticField.accuracy == .high && read.magneticField.field.x == 20 && read.sensorLocation == .default)
        #expect(read.linuxHeadingUncertainty == 1.5 && read.linuxInclinationUncertainty == 0.4)
        #expect(abs(read.attitude.pitch - attitude.pitch) < 1e-12)
    }

    @Test func theFitnessClassesKeepTheirValues() throws {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        let data = CMPedometerData(CMPedometerData.Values(
            startDate: start, endDate: start.addingTimeInterval(60),
            totals: PedometerLedger.Totals(steps: 108, distance: 75.6, floorsAscended: 2, floorsDescended: 0, activeTime: 58),
            floorCounting: true, currentCadence: 1.8, currentPace: 0.75))
        let read = try Self.roundTrip(data)
        #expect(read.numberOfSteps == 108 && read.distance == 75.6 && read.floorsAscended == 2 && read.floorsDescended == 0)
        #expect(read.startDate == start && read.endDate == start.addingTimeInterval(60))
        #expect(read.currentCadence == 1.8 && read.currentPace == 0.75 && read.averageActivePace == data.averageActivePace)
        let noBarometer = try Self.roundTrip(CMPedometerData())
        #expect(noBarometer.floorsAscended == nil && noBarometer.currentCadence == nil && noBarometer.numberOfSteps == 0)
        let event = try Self.roundTrip(CMPedometerEvent(date: start, type: .resume))
        #expect(event.date == start && event.type == .resume)
        let activity = try Self.roundTrip(CMMotionActivity(MotionActivityEstimate(activity: .running, confidence: .high, since: 40)))
        #expect(activity.running && !activity.walking && activity.confidence == .high && activity.timestamp == 40)
        let reading = MotionAltimeter.Reading(timestamp: 5, relativeAltitude: 6.1, pressure: 100_580, temperature: 21, absoluteAltitude: 61)
        let altitude = try Self.roundTrip(CMAltitudeData(reading))
        #expect(altitude.relativeAltitude == 6.1 && altitude.pressure == 100.58 && altitude.timestamp == 5)
        let absolute = try Self.roundTrip(CMAbsoluteAltitudeData(reading, accuracy: 10))
        #expect(absolute.altitude == 61 && absolute.accuracy == 10)
        let fall = try Self.roundTrip(CMLinuxMotionEvent(MotionEvent(kind: .freeFall, timestamp: 3, duration: 0.45, magnitude: 1)))
        #expect(fall.kind == .freeFall && fall.duration == 0.45 && fall.magnitude == 1 && fall.timestamp == 3)
        let face = try Self.roundTrip(try #require(CMLinuxMotionStateChange(.orientation(.portrait), at: 7)))
        #expect(face.kind == .orientation && face.orientation == "portrait" && face.value == nil)
    }

    @Test func anArchiveWithoutTheValuesIsRefused() throws {
        // Only a timestamp: every data class needs more and reads as nothing; the log item itself is fine.
        let coder = KeyedValues(["timestamp": 5.0])
        #expect(CMLogItem(coder: coder)?.timestamp == 5)
        #expect(CMAccelerometerData(coder: coder) == nil && CMGyroData(coder: coder) == nil)
        #expect(CMDeviceMotion(coder: coder) == nil && CMAttitude(coder: coder) == nil)
        #expect(CMPedometerData(coder: coder) == nil && CMPedometerEvent(coder: coder) == nil)
        #expect(CMMotionActivity(coder: coder) == nil && CMAltitudeData(coder: coder) == nil)
        // A quaternion without a direction is no attitude; an unknown event type is no event.
        #expect(CMAttitude(coder: KeyedValues(["quaternion.w": 0.0, "quaternion.x": 0.0, "quaternion.y": 0.0, "quaternion.z": 0.0])) == nil)
        #expect(CMPedometerEvent(coder: KeyedValues(["date": 0.0, "type": 7])) == nil)
        // Activity changes come as CMMotionActivity, never as a state change, archived or not.
        #expect(CMLinuxMotionStateChange(coder: KeyedValues(["timestamp": 1.0, "kind": 4, "active": 1])) == nil)
        #expect(CMLinuxMotionStateChange(coder: KeyedValues(["timestamp": 1.0, "kind": 3, "active": 1, "value": 0.2]))?.kind == .vibration)
    }

    @Test("every kind of event keeps its kind through Apple's class and its archive")
    func everyEventKindSurvives() throws {
        for kind in MotionEvent.Kind.allCases {
            let event = CMLinuxMotionEvent(MotionEvent(kind: kind, timestamp: 1, duration: 0.1, magnitude: 2))
            #expect(event.kind == kind)
            #expect(try Self.roundTrip(event).kind == kind)
        }
    }

    @Test func anIOSStyleSubclassArchives() throws {
        let double = try Self.roundTrip(CachedSteps(steps: 42))
        #expect(double.numberOfSteps == 42 && double.distance == 0)
        // The iPhone-style cache (IOSStyleFitnessClients.swift) keeps the last reading across launches.
        let data = CMPedometerData(CMPedometerData.Values(
            startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 60),
            totals: PedometerLedger.Totals(steps: 72, distance: 50, floorsAscended: 0, floorsDescended: 0, activeTime: 40),
            floorCounting: false, currentCadence: nil, currentPace: nil))
        let walking = CMMotionActivity(MotionActivityEstimate(activity: .walking, confidence: .medium, since: 3))
        let restored = try #require(try FitnessCache.restore(try FitnessCache.archive(data, walking)))
        #expect(restored.steps == 72 && restored.walking)
    }
}

/// A test double as iOS code writes one: its own initializer, and the `required init?(coder:)` that
/// NSSecureCoding makes Xcode ask for.
final class CachedSteps: CMPedometerData {
    private let steps: NSNumber

    init(steps: NSNumber) {
        self.steps = steps
        super.init()
    }

    override class var supportsSecureCoding: Bool { true }

    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(steps.intValue, forKey: "cachedSteps")
    }

    required init?(coder: NSCoder) {
        steps = NSNumber(value: coder.decodeInteger(forKey: "cachedSteps"))
        super.init(coder: coder)
    }

    override var numberOfSteps: NSNumber { steps }
}

/// A keyed coder over a dictionary of numbers: what a decoder is handed, without an archive around it.
final class KeyedValues: NSCoder {
    private let values: [String: Double]

    init(_ values: [String: Double]) {
        self.values = values
        super.init()
    }

    override var allowsKeyedCoding: Bool { true }
    override var requiresSecureCoding: Bool { true }
    override func containsValue(forKey key: String) -> Bool { values[key] != nil }
    override func decodeDouble(forKey key: String) -> Double { values[key] ?? 0 }
    override func decodeInteger(forKey key: String) -> Int { Int(values[key] ?? 0) }
    override func decodeBool(forKey key: String) -> Bool { (values[key] ?? 0) != 0 }
    override func decodeObject(forKey key: String) -> Any? { nil }
    override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? { nil }
}
