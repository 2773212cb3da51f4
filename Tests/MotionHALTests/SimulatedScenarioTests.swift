import MotionHAL
import MotionMath
import Testing

/// The simulator's scenarios are physics: velocity and acceleration are the exact derivatives of the
/// position, the body rate is the attitude's, and each scenario's own truth (fall time, steps, floors)
/// matches its trajectory.
@Suite(.serialized) struct SimulatedScenarioTests {
    static let scenarios: [(String, SimulatedMotion)] = [
        ("drop", .drop(SimulatedDrop())), ("shake", .shake(SimulatedShake())), ("tap", .taps(SimulatedTaps())),
        ("tilt", .tilt(SimulatedTilt())), ("walk", .gait(.walking)), ("run", .gait(.running)), ("stairs", .gait(.stairs())),
        ("vibrate", .vibration(SimulatedVibration())), ("fall", .fall(SimulatedFall())), ("table_drop", .drop(.ontoTable)),
        ("sit", .sitDown(SimulatedSitDown())), ("machine", .machine(SimulatedMachine())),
    ]

    @Test(arguments: scenarios.map(\.0))
    func theDeviceStringSelectsTheScenario(name: String) throws {
        let expected = try #require(Self.scenarios.first { $0.0 == name }?.1)
        guard case .simulated(let configuration) = try IMUDeviceSpecification.parse("sim:motion=\(name),rate=100") else {
            Issue.record("not the simulator")
            return
        }
        #expect(configuration.motion == expected)
    }

    @Test func anUnknownMotionNamesTheChoices() {
        #expect(throws: IMUDeviceError.invalidSpecification(
            "option 'motion' of driver sim: 'jog' is not one of demo, stationary, spin, drop, shake, tap, tilt, walk, run, stairs, vibrate, fall, table_drop, sit, machine")) {
            try IMUDeviceSpecification.parse("sim:motion=jog")
        }
    }

    /// Central differences of the exact position and attitude, away from the instants where a scenario
    /// switches abruptly (a release, a step's start), agree with the exact derivatives.
    @Test(arguments: scenarios.map(\.0))
    func velocityAndAccelerationAreTheDerivativesOfThePosition(name: String) throws {
        let motion = try #require(Self.scenarios.first { $0.0 == name }?.1)
        let device = SimulatedIMU(configuration: .init(sampleRate: 200, motion: motion).withoutSensorErrors)
        let step = 1e-5
        var worst = (velocity: 0.0, acceleration: 0.0, rate: 0.0)
        var compared = 0
        for index in 0..<6000 {
            let time = Double(index) * 0.01 + 0.0031
            let before = device.groundTruth(at: time - step), now = device.groundTruth(at: time), after = device.groundTruth(at: time + step)
            let velocity = (after.position - before.position) / (2 * step)
            let acceleration = (after.velocity - before.velocity) / (2 * step)
            let scale = max(now.linearAcceleration.length, 1)
            // An abrupt switch within the step shows as a jump of the second difference: skip those instants.
            let secondDifference = (after.position - 2 * now.position + before.position) / (step * step)
            guard (secondDifference - now.linearAcceleration).length < 0.05 * scale + 0.5 else { continue }
            compared += 1
            worst.velocity = max(worst.velocity, (velocity - now.velocity).length)
            worst.acceleration = max(worst.acceleration, (acceleration - now.linearAcceleration).length / scale)
            // For a small turn q ≈ (1, θ/2): the rotation vector is twice the vector part.
            func turned(_ other: SimulatedGroundTruth) -> SIMD3<Double> { 2 * (now.attitude.conjugate * other.attitude).vector }
            let turn = turned(after) - turned(before)
            worst.rate = max(worst.rate, (turn / (2 * step) - now.angularVelocity).length)
        }
        #expect(compared > 5700, "\(compared) instants compared")
        #expect(worst.velocity < 1e-4 && worst.acceleration < 1e-3 && worst.rate < 1e-4, "\(name): \(worst)")
    }

    @Test func aDropFallsFreelyForTheTimeItsHeightImpliesAndStopsWithOneBlow() {
        let drop = SimulatedDrop()
        let device = SimulatedIMU(configuration: .init(sampleRate: 1000, motion: .drop(drop)).withoutSensorErrors)
        let forces = (0..<20_000).map { (Double($0) / 1000, device.groundTruth(at: Double($0) / 1000).specificForce.length) }
        let falling = forces.filter { $0.1 < 0.01 }
        // Two drops in 20 s, each of √(2 · 1 / 9.81) = 0.4515 s.
        #expect(abs(Double(falling.count) / 1000 - 2 * 0.4515) < 0.004, "\(falling.count) ms in free fall")
        #expect(abs(drop.fallDuration(gravity: 9.81) - 0.4515) < 1e-4)
        let peak = forces.map(\.1).max() ?? 0
        #expect(abs(peak - (drop.peakDeceleration(gravity: 9.81) + 9.81)) < 0.5, "peak \(peak / 9.81) g")
        // At rest after the blow, a few centimetres below the point of contact.
        let rest = device.groundTruth(at: 9)
        #expect(rest.velocity.length == 0 && abs(rest.position.z + drop.impactSpeed(gravity: 9.81) * 0.02) < 1e-9)
    }

    @Test func theGaitsStepsAndTheStairsHeightAreKnown() {
        let walk = SimulatedGait.walking
        #expect(walk.steps(at: 6) == 0 && walk.steps(at: 6 + 0.5 / 1.8 + 1e-9) == 1 && walk.steps(at: 26) == 36)
        #expect(walk.steps(at: walk.cycleDuration) == 72)
        let stairs = SimulatedGait.stairs()
        let device = SimulatedIMU(configuration: .init(motion: .gait(stairs)).withoutSensorErrors)
        // Two floors up (36 steps of 1/6 m), a pause at the top, and back down.
        let top = 5 + stairs.boutDuration
        #expect(abs(device.groundTruth(at: top + 2).position.z - 6) < 1e-9)
        #expect(abs(device.groundTruth(at: stairs.cycleDuration - 0.001).position.z) < 1e-6)
        #expect(device.groundTruth(at: 2).position.z == 0)
    }
}
