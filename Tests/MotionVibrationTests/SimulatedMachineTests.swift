import MotionVibration
import MotionHAL
import Testing

/// The simulator's rotating machine, with its truth, read by the time-domain velocity meter and judged in
/// ISO 20816's zones (issue 34's "done when" figures, before the vibration service exists).
@Suite struct SimulatedMachineTests {
    @Test func theDeviceStringSetsSpeedAndSeverity() throws {
        guard case .simulated(let configuration) = try IMUDeviceSpecification.parse("sim:motion=machine,rpm=1480,severity=5.0,rate=2000")
        else {
            Issue.record("not the simulator")
            return
        }
        #expect(configuration.motion == .machine(SimulatedMachine(rpm: 1480, severity: 5)))
        #expect(throws: IMUDeviceError.invalidSpecification("option 'rpm' of driver sim needs 'motion=machine'")) {
            try IMUDeviceSpecification.parse("sim:rpm=1480")
        }
        #expect(throws: IMUDeviceError.self) { try IMUDeviceSpecification.parse("sim:motion=machine,severity=-1") }
    }

    @Test func theSharesAddUpAndTheOneTimesLineIsTheRunningSpeed() {
        let machine = SimulatedMachine(rpm: 1480, severity: 5)
        #expect(abs(machine.components.map(\.share).reduce(0, +) - 1) < 1e-12)
        #expect(abs(machine.runningFrequency - 24.667) < 0.001)
        #expect(machine.components.map(\.order).max()! * machine.runningFrequency < 100, "every line below 100 Hz")
    }

    @Test func aClassTwoMachineAtFiveMillimetresASecondReadsFiveAndZoneC() throws {
        let rate = 2000.0
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: .machine(SimulatedMachine(rpm: 1480, severity: 5)), seed: 4))
        var meter = VibrationVelocityMeter()
        for index in 0..<Int(8 * rate) {
            guard let acceleration = device.sample(index: index, sampleRate: rate).acceleration else { continue }
            meter.update(specificForce: acceleration, deltaTime: 1 / rate)
        }
        // The band's low edge takes 2.6 % off the 1× line (two 10 Hz high-passes at 24.7 Hz); within 5 %.
        #expect(abs(meter.vector / 5 - 1) < 0.05, "\(meter.vector) mm/s")
        var severity = VibrationSeverity(limits: try #require(VibrationSeverity.Limits.machineClass(2)))
        #expect(severity.update(velocity: meter.vector) == .c)
    }
}

/// The machine's options: a choice of faults, the bearing's order, broadband noise, start-up and coast-down.
@Suite struct SimulatedMachineOptionTests {
    /// The simulator's configuration `specification` gives.
    static func configuration(_ specification: String) throws -> SimulatedIMU.Configuration {
        guard case .simulated(let configuration) = try IMUDeviceSpecification.parse(specification) else {
            throw IMUDeviceError.invalidSpecification("not the simulator: \(specification)")
        }
        return configuration
    }

    /// The machine `specification` describes.
    static func machine(_ specification: String) throws -> SimulatedMachine {
        guard case .machine(let machine) = try configuration(specification).motion else {
            throw IMUDeviceError.invalidSpecification("not a machine: \(specification)")
        }
        return machine
    }

    /// Why `specification` is refused; nil when it is not.
    static func refusal(_ specification: String) -> String? {
        do {
            _ = try IMUDeviceSpecification.parse(specification)
            return nil
        } catch {
            guard case .invalidSpecification(let message) = error else { return "\(error)" }
            return message
        }
    }

    /// The summary of `device`'s samples from `start` to `end` s at `rate` Hz, as one interval of an
    /// analyser with `settings`.
    static func summary(
        of device: SimulatedIMU, rate: Double, from start: Double = 0, to end: Double, settings: VibrationAnalyzer.Settings = .init()
    ) -> VibrationSummary? {
        var analyzer = VibrationAnalyzer(settings: settings, sampleRate: rate)
        for index in Int((start * rate).rounded())..<Int((end * rate).rounded()) {
            guard let acceleration = device.sample(index: index, sampleRate: rate).acceleration else { continue }
            analyzer.add(specificForce: acceleration, timestamp: Double(index) / rate)
        }
        return analyzer.finishInterval()
    }

    @Test func theOptionsParseWithTheirDefaults() throws {
        #expect(
            try Self.machine("sim:motion=machine,faults=unbalance+bearing,bearing=5.2,noise=1.5,ramp=10,cycle=45,rate=4000,seed=9")
                == SimulatedMachine(
                    bearingOrder: 5.2, faults: [.unbalance, .bearing], noise: 1.5, noiseBand: 10...1000, noiseSeed: 9, ramp: 10, cycle: 45))
        // The noise's band ends at 0.4 × the rate, its seed is the device's (given before or after).
        let noisy = try Self.machine("sim:seed=0x10,motion=machine,noise=2,rate=2000")
        #expect(noisy.noiseBand == 10...800 && noisy.noiseSeed == 16 && noisy.noise == 2)
        #expect(try Self.machine("sim:motion=machine,ramp=5") == SimulatedMachine(ramp: 5, cycle: 60))
        #expect(try Self.machine("sim:motion=machine,faults=looseness + misalignment").faults == [.looseness, .misalignment])
        // Without noise, neither the seed nor the rate changes the machine: it is still the plain one.
        #expect(try Self.machine("sim:motion=machine,seed=5,rate=6660,noise=0") == SimulatedMachine())
        #expect(SimulatedMotion(name: "machine") == .machine(SimulatedMachine()))
        let machine = SimulatedMachine()
        #expect(machine.faults == Set(SimulatedMachine.Fault.allCases) && machine.bearingOrder == 3.57 && machine.noise == 0 && machine.ramp == 0)
        #expect(machine.components.map(\.share) == [0.70, 0.15, 0.05, 0.05, 0.05], "the default shares exactly")
    }

    @Test(arguments: [
        ("sim:motion=machine,faults=unbalance+wobble",
         "option 'faults' of driver sim: 'wobble' is not one of unbalance, misalignment, looseness, bearing"),
        ("sim:motion=machine,faults=unbalance+", "option 'faults' of driver sim: '' is not one of unbalance, misalignment, looseness, bearing"),
        ("sim:motion=machine,bearing=0.4", "option 'bearing' of driver sim: 0.4 orders is outside 0.5...50 orders"),
        ("sim:motion=machine,bearing=51", "option 'bearing' of driver sim: 51 orders is outside 0.5...50 orders"),
        ("sim:motion=machine,bearing=fast", "option 'bearing' of driver sim: 'fast' is not a number of orders"),
        ("sim:motion=machine,noise=-1", "option 'noise' of driver sim: -1 mm/s is outside 0...100 mm/s"),
        ("sim:motion=machine,noise=101", "option 'noise' of driver sim: 101 mm/s is outside 0...100 mm/s"),
        ("sim:motion=machine,noise=1,rate=25", "option 'noise' of driver sim needs a rate above 25 Hz (its band is 10 Hz to 0.4 × rate), not 25.0 Hz"),
        ("sim:motion=machine,ramp=601", "option 'ramp' of driver sim: 601 s is outside 0...600 s"),
        ("sim:motion=machine,ramp=-1", "option 'ramp' of driver sim: -1 s is outside 0...600 s"),
        ("sim:motion=machine,ramp=10,cycle=20", "option 'cycle' of driver sim: 20.0 s must exceed twice ramp (2 × 10.0 s)"),
        ("sim:motion=machine,ramp=30", "option 'ramp' of driver sim: 30.0 s needs a cycle longer than twice it (cycle=SECONDS, default 60.0 s)"),
        ("sim:motion=machine,cycle=30", "option 'cycle' of driver sim needs 'ramp'"),
        ("sim:motion=machine,ramp=1,cycle=86401", "option 'cycle' of driver sim: 86401 s is outside 0...86400 s"),
        ("sim:faults=bearing", "option 'faults' of driver sim needs 'motion=machine'"),
        ("sim:bearing=4", "option 'bearing' of driver sim needs 'motion=machine'"),
        ("sim:motion=spin,noise=1", "option 'noise' of driver sim needs 'motion=machine'"),
        ("sim:ramp=10,motion=vibrate", "option 'ramp' of driver sim needs 'motion=machine'"),
        ("sim:cycle=60,rpm=1000", "option 'cycle' of driver sim needs 'motion=machine'"),
        ("sim:motion=machine,rate=8001", "option 'rate' of driver sim: 8001 Hz is outside 1...8000 Hz"),
    ])
    func badMachineOptionsAreRefusedNamingTheOption(specification: String, message: String) {
        #expect(Self.refusal(specification) == message, "\(specification)")
    }

    @Test func aSingleFaultHasItsLineOnlyAtItsOrderOnItsAxisWithTheWholeSeverity() throws {
        let machine = try Self.machine("sim:motion=machine,faults=misalignment,severity=5")
        #expect(machine.components.count == 1)
        let component = try #require(machine.components.first)
        #expect(component.order == 2 && component.axis == SIMD3(0, 0, 1) && component.share == 1 && component.fault == .misalignment)
        let (analyzer, summaries) = VibrationAnalyzerTests.run(machine, seconds: 10, interval: 10)
        let summary = try #require(summaries.last)
        #expect(abs(summary.velocityRMS / 5 - 1) < 0.03, "\(summary.velocityRMS) mm/s")
        #expect(summary.velocity.x < 0.1 && summary.velocity.y < 0.1, "\(summary.velocity) mm/s")
        let line = try #require(summary.peaks.first).peak
        let resolution = 2000 / Double(analyzer.settings.segmentLength)
        #expect(abs(line.frequency - 2 * 1480 / 60) <= resolution && line.dominantAxis == 2, "\(line)")
        #expect(abs(line.velocity / 5 - 1) < 0.03, "\(line.velocity) mm/s")
        #expect(summary.peaks.dropFirst().allSatisfy { $0.peak.velocity < 0.05 * line.velocity }, "\(summary.peaks.dropFirst().map(\.peak))")
        // The others alone, renormalised in the same way: bearing on x, looseness's two lines on y.
        let bearing = SimulatedMachine(bearingOrder: 6.5, faults: [.bearing])
        #expect(bearing.components.map(\.order) == [6.5] && bearing.components.map(\.share) == [1])
        let looseness = SimulatedMachine(faults: [.looseness, .unbalance]).components
        #expect(looseness.map(\.order) == [1, 3, 4] && abs(looseness.map(\.share).reduce(0, +) - 1) < 1e-12)
        #expect(abs(looseness[0].share - 0.7 / 0.8) < 1e-12)
    }

    @Test func broadbandNoiseReadsItsRMSWithAGaussianKurtosis() throws {
        let rate = 2000.0
        let noisy = SimulatedIMU(configuration: try Self.configuration("sim:motion=machine,severity=0,noise=2,rate=2000,seed=7"))
        let summary = try #require(Self.summary(of: noisy, rate: rate, to: 10))
        // The noise fills 10–800 Hz; the analyser's band ends at 781 Hz (2000 ÷ 2.56): 1.2 % short.
        #expect(abs(summary.velocityRMS / 2 - 1) < 0.05, "\(summary.velocityRMS) mm/s")
        #expect(summary.velocity.min() > 0.9 && summary.velocity.max() < 1.4, "about 2/√3 on each axis: \(summary.velocity)")
        #expect((0..<3).allSatisfy { abs(summary.levels.kurtosis[$0] - 3) < 0.3 }, "\(summary.levels.kurtosis)")
        // A pure sine (unbalance alone, on x) stays far from it.
        let sine = SimulatedIMU(configuration: try Self.configuration("sim:motion=machine,faults=unbalance,rate=2000,seed=7"))
        let pure = try #require(Self.summary(of: sine, rate: rate, to: 10))
        #expect(pure.levels.kurtosis.x < 2, "\(pure.levels.kurtosis)")
        // Added on top of the severity: 3 and 4 make 5.
        let both = SimulatedIMU(configuration: try Self.configuration("sim:motion=machine,severity=3,noise=4,rate=2000,seed=7"))
        let total = try #require(Self.summary(of: both, rate: rate, to: 10))
        #expect(abs(total.velocityRMS / 5 - 1) < 0.05, "\(total.velocityRMS) mm/s")
        // Deterministic: the same seed gives the same samples, in any order; another seed others.
        let again = SimulatedIMU(configuration: try Self.configuration("sim:motion=machine,severity=0,noise=2,rate=2000,seed=7"))
        let other = SimulatedIMU(configuration: try Self.configuration("sim:motion=machine,severity=0,noise=2,rate=2000,seed=8"))
        #expect(again.sample(index: 12_345, sampleRate: rate) == noisy.sample(index: 12_345, sampleRate: rate))
        #expect(other.groundTruth(at: 1.2345).velocity != noisy.groundTruth(at: 1.2345).velocity)
    }

    @Test func aSixKilohertzAccelerometerReadsTheNoiseUpToAKilohertz() throws {
        let rate = 6660.0
        let device = SimulatedIMU(configuration: try Self.configuration("sim:motion=machine,severity=0,noise=2,rate=6660"))
        #expect(device.info.supportedSampleRates.contains(rate))
        let summary = try #require(Self.summary(of: device, rate: rate, to: 5))
        #expect(summary.band == 10...1000)
        #expect(abs(summary.velocityRMS / 2 - 1) < 0.05, "\(summary.velocityRMS) mm/s")
    }

    @Test func theSpeedRampsUpRunsCoastsDownAndStands() throws {
        let machine = SimulatedMachine(rpm: 1480, severity: 5, ramp: 5, cycle: 30)
        #expect(machine.rpm(at: 0) == 0 && machine.rpm(at: 2.5) == 740 && machine.rpm(at: 5) == 1480 && machine.rpm(at: 19.99) == 1480)
        #expect(abs(machine.rpm(at: 22.5) - 740) < 1e-9 && machine.rpm(at: 25) == 0 && machine.rpm(at: 29.9) == 0)
        #expect(machine.rpm(at: 32.5) == 740, "the next cycle")
        // A cycle shorter than three ramps has no steady part: the ramps meet at (30 − 12) / 2 s.
        #expect(abs(SimulatedMachine(ramp: 12, cycle: 30).rpm(at: 9) - 1480 * 0.75) < 1e-9)
        let rate = 2000.0
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: .machine(machine), seed: 3))
        let steady = try #require(Self.summary(of: device, rate: rate, from: 6, to: 19))
        #expect(abs(steady.velocityRMS / 5 - 1) < 0.05, "\(steady.velocityRMS) mm/s")
        let still = try #require(Self.summary(of: device, rate: rate, from: 25.5, to: 29.5))
        #expect(still.velocityRMS < 0.1, "the sensor's noise only: \(still.velocityRMS) mm/s")
        #expect(stride(from: 25.0, to: 30, by: 0.01).allSatisfy { device.groundTruth(at: $0).velocity == .zero })
        // Half-way up a minute's run-up the machine turns at half its speed, with a quarter of its severity.
        let slow = SimulatedMachine(rpm: 1480, severity: 5, ramp: 60, cycle: 200)
        let slowRate = 1000.0
        let starting = SimulatedIMU(configuration: .init(sampleRate: slowRate, motion: .machine(slow), seed: 3))
        let settings = VibrationAnalyzer.Settings(band: 10...390, lines: 400)
        let midRunUp = try #require(Self.summary(of: starting, rate: slowRate, from: 29.5, to: 30.53, settings: settings))
        let speed = try #require(midRunUp.runningSpeed)
        #expect(abs(speed.frequency - 1480 / 120) <= slowRate / Double(settings.segmentLength), "\(speed.frequency) Hz")
        #expect(abs(midRunUp.velocityRMS / (5 / 4) - 1) < 0.1, "\(midRunUp.velocityRMS) mm/s")
    }

    @Test func theAccelerationIntegratesToTheVelocityAcrossTheRamps() {
        // Up [0, 2), steady [2, 6), down [6, 8), still [8, 10), and on into the next cycle.
        let machine = SimulatedMachine(rpm: 1480, severity: 5, ramp: 2, cycle: 10)
        let device = SimulatedIMU(configuration: .init(motion: .machine(machine)))
        #expect(Self.largestIntegrationError(of: device, from: 0, to: 12.5, step: 2e-5) < 5e-6, "0.1 % of 5 mm/s, in m/s")
        // With noise (lines up to 1 kHz) across the ends of the run-up and of the steady run.
        var noisy = machine
        noisy.noise = 3
        let noisyDevice = SimulatedIMU(configuration: .init(motion: .machine(noisy)))
        for boundary in [2.0, 6.0, 8.0] {
            #expect(
                Self.largestIntegrationError(of: noisyDevice, from: boundary - 0.1, to: boundary + 0.1, step: 5e-6) < 6e-6,
                "at \(boundary) s")
        }
    }

    /// The largest difference, m/s, between the ground truth's velocity and its value at `start` plus its
    /// acceleration integrated by the trapezoidal rule in steps of `step` s, up to `end` s.
    static func largestIntegrationError(of device: SimulatedIMU, from start: Double, to end: Double, step: Double) -> Double {
        var previous = device.groundTruth(at: start)
        var integrated = previous.velocity
        var largest = 0.0
        for index in 1...Int(((end - start) / step).rounded()) {
            let truth = device.groundTruth(at: start + Double(index) * step)
            integrated += (previous.linearAcceleration + truth.linearAcceleration) * (step / 2)
            let difference = integrated - truth.velocity
            largest = max(largest, abs(difference.x), abs(difference.y), abs(difference.z))
            previous = truth
        }
        return largest
    }
}
