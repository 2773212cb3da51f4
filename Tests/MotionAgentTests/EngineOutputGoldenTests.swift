import Foundation
import MotionContract
import MotionFusion
import MotionHAL
import MotionMath
import Synchronization
import Testing

@testable import MotionAgent
@testable import MotionEngine

/// The bytes the whole chain makes from fixed sensor input, recorded before the engine, the detectors and
/// their settings were restructured (issue 31): the simulator's seeded samples through the engine's
/// router (fusion in every frame, calibration, decimation and batching), the topics' down-sampling in
/// `mean` mode, the contract's encoders (JSON and CBOR), and the detector pipeline with default and
/// configured thresholds. A refactoring of those parts must not change one byte; a change of the fusion's
/// arithmetic re-records the digests (the counts and events must stay), in the commit that makes it
/// (issue 32, 2026-12-05: the bias at rest and the first heading averaged instead of followed).
///
/// Each golden is a SHA-256 of every payload in order, with the payload count beside it so that a lost or
/// extra message shows as such. The arithmetic goes through the C library's `sin`, `atan2` and `exp`,
/// whose last bit may differ between C libraries and architectures: the digests are those of x86-64
/// glibc, and elsewhere only the counts are compared.
@Suite struct EngineOutputGoldenTests {
    /// The payloads' digest and count.
    struct Golden: Equatable, CustomStringConvertible {
        var count: Int
        var digest: String
        /// The events' types in order (the detector goldens), readable when the digest differs.
        var events: [String] = []
        var description: String { "Golden(count: \(count), digest: \"\(digest)\", events: \(events))" }
    }

    /// Collects payloads and digests them.
    struct Payloads {
        private(set) var bytes: [UInt8] = []
        private(set) var count = 0
        var events: [String] = []

        mutating func append(_ payload: [UInt8]) {
            bytes += payload
            bytes.append(0x0A)
            count += 1
        }

        var golden: Golden { Golden(count: count, digest: AgentConfiguration.sha256(bytes), events: events) }
    }

    /// Whether this platform computes the digests' exact bits (see the suite's comment).
    static var comparesDigests: Bool {
        #if arch(x86_64) && os(Linux)
            true
        #else
            false
        #endif
    }

    static func expect(_ actual: Golden, _ expected: Golden, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, "\(actual)", sourceLocation: sourceLocation)
        #expect(actual.events == expected.events, "\(actual)", sourceLocation: sourceLocation)
        if comparesDigests { #expect(actual.digest == expected.digest, "\(actual)", sourceLocation: sourceLocation) }
    }

    static let encoder = SamplePayloadEncoder(wallClockOffset: 1_796_118_483.67683)

    /// A calibration with every part, the magnetometer's graded medium.
    static let calibration = IMUCalibration(
        created: Date(timeIntervalSince1970: 0), device: "golden",
        gyroscope: .init(bias: SIMD3(0.005, -0.008, 0.003)),
        accelerometer: .init(
            offset: SIMD3(0.02, -0.01, 0.03), scale: .init(row0: SIMD3(1.01, 0, 0), row1: SIMD3(0, 0.99, 0), row2: SIMD3(0, 0, 1.002)),
            residual: 0),
        magnetometer: .init(
            hardIron: SIMD3(1, -2, 0.5), softIron: .init(row0: SIMD3(1.02, 0, 0), row1: SIMD3(0, 0.98, 0), row2: SIMD3(0, 0, 1)),
            fieldStrength: 48, residual: 0.3, coverage: 0.9, quality: .medium))

    /// The simulator's samples, `seconds` long, in the device's deliveries of 10.
    static func deliveries(_ motion: SimulatedMotion, seconds: Double, rate: Double = 200, seed: UInt64 = 7) -> [[IMUSample]] {
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: motion, seed: seed))
        let samples = (0..<Int(seconds * rate)).map { device.sample(index: $0, sampleRate: rate) }
        return stride(from: 0, to: samples.count, by: 10).map { Array(samples[$0..<min($0 + 10, samples.count)]) }
    }

    /// What the router hands each subscription, in the order of the subscriptions.
    static func route(
        _ deliveries: [[IMUSample]], streams: [(MotionStream, interval: Double, batched: Bool)], calibration: IMUCalibration? = nil
    ) -> [[[MotionSample]]] {
        let received = Mutex<[[[MotionSample]]]>(Array(repeating: [], count: streams.count))
        var router = SampleRouter()
        router.sampleRate = 200
        router.calibration = calibration
        for (index, stream) in streams.enumerated() {
            let subscription =
                stream.batched
                ? MotionSubscription(service: stream.0, interval: stream.interval, sink: .batch { _, items, _ in
                    if let items { received.withLock { $0[index].append(items) } }
                })
                : MotionSubscription(service: stream.0, interval: stream.interval) { _, item, _ in
                    if let item { received.withLock { $0[index].append([item]) } }
                }
            router.add(subscription, declination: 4.5)
        }
        for delivery in deliveries { for item in router.route(delivery) { item.send() } }
        return received.withLock { $0 }
    }

    static let frames: [AttitudeReferenceFrame] = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical, .xTrueNorthZVertical]

    /// Every stream, every frame, decimated and batched, JSON and CBOR.
    static func enginePayloads(calibration: IMUCalibration?) -> Golden {
        let streams: [(MotionStream, interval: Double, batched: Bool)] =
            [(.accelerometer, 0.02, false), (.gyroscope, 0.03, false), (.magnetometer, 0.05, false), (.accelerometer, 0.1, true)]
            + frames.map { (.deviceMotion($0), 0.01, false) } + [(.deviceMotion(.xMagneticNorthZVertical), 0.25, true)]
        let received = route(deliveries(.demo, seconds: 4), streams: streams, calibration: calibration)
        var payloads = Payloads()
        for (stream, messages) in zip(streams, received) {
            for (seq, items) in messages.enumerated() {
                for format in [PayloadFormat.json, .cbor] {
                    switch stream.0 {
                    case .deviceMotion:
                        let samples = items.compactMap { if case .deviceMotion(let sample) = $0 { sample } else { nil } }
                        payloads.append(encoder.encode(samples, seq: UInt64(seq), batched: stream.batched, format: format))
                    default:
                        let samples = items.compactMap { if case .vector(let sample) = $0 { sample } else { nil } }
                        payloads.append(encoder.encode(samples, service: stream.0.service, seq: UInt64(seq), batched: stream.batched, format: format))
                    }
                }
            }
        }
        return payloads.golden
    }

    @Test func theEnginesSamplesInEveryFrame() {
        Self.expect(Self.enginePayloads(calibration: nil), Golden(count: 4140, digest: "8809e9a4883c138ad006216efdf8db86c1b7134895a2e2b9fb3546b75537a3a9"))
    }

    @Test func theEnginesSamplesCalibrated() {
        Self.expect(Self.enginePayloads(calibration: Self.calibration), Golden(count: 4140, digest: "a089a562e42d2478afa8895561b56d1f703a06041f9dcdf2f72f8ee8fe487b8c"))
    }

    /// The agent's topics in `mean` mode: every sample of the engine averaged over 0.1 s windows.
    @Test func meanDownSampling() throws {
        let streams: [(MotionStream, interval: Double, batched: Bool)] =
            [(.accelerometer, 0, true), (.deviceMotion(.xTrueNorthZVertical), 0, true)]
        let received = Self.route(Self.deliveries(.demo, seconds: 4), streams: streams)
        var accelerometer = try TopicSampler<VectorSample>(settings: .init(interval: 0.1, mode: .mean))
        var deviceMotion = try TopicSampler<DeviceMotionSample>(settings: .init(interval: 0.1, mode: .mean, batchSize: 2))
        var payloads = Payloads()
        var seq: UInt64 = 0
        for batch in received[0] {
            for ready in accelerometer.add(batch.compactMap { if case .vector(let sample) = $0 { sample } else { nil } }) {
                seq += 1
                payloads.append(Self.encoder.encode(ready, service: .accelerometer, seq: seq))
            }
        }
        for batch in received[1] {
            for ready in deviceMotion.add(batch.compactMap { if case .deviceMotion(let sample) = $0 { sample } else { nil } }) {
                seq += 1
                payloads.append(Self.encoder.encode(ready, seq: seq, batched: true))
                payloads.append(Self.encoder.encode(ready, seq: seq, batched: true, format: .cbor))
            }
        }
        Self.expect(payloads.golden, Golden(count: 77, digest: "e81ea815d87eae8208ca0dc956989e2ddde7a1ebcaf8c22809ebaacb08ea1745"))
    }

    /// The simulator's scenarios with known truth that the detectors are fed.
    static let detectorScenarios: [(SimulatedMotion, seconds: Double)] = [
        (.drop(SimulatedDrop()), 12), (.taps(SimulatedTaps()), 12), (.shake(SimulatedShake()), 10), (.tilt(SimulatedTilt()), 20),
        (.gait(.walking), 30), (.gait(.running), 30), (.vibration(SimulatedVibration()), 20),
    ]

    /// The simulator's scenarios, fused in `frame` at the full rate, through the detector pipeline as the
    /// agent feeds it (the filter's SI output): every event (JSON and CBOR) and every state change. The
    /// digests were recorded from device motion in Apple's units; that they hold shows the two are the same
    /// to the bit.
    /// - Parameter bankFrame: the frame whose filter feeds the bank when not `frame` (whose attitude the
    ///   events still carry).
    static func detectorPayloads(
        _ settings: DetectorSettings, frame: AttitudeReferenceFrame = .xArbitraryZVertical, calibration: IMUCalibration? = nil,
        bankFrame: AttitudeReferenceFrame? = nil
    ) -> Golden {
        var payloads = Payloads()
        for (motion, seconds) in detectorScenarios {
            let received = route(
                deliveries(motion, seconds: seconds), streams: [(.fusedMotion(frame), 0, true), (.fusedMotion(bankFrame ?? frame), 0, true)],
                calibration: calibration)
            var bankInput: [Double: FusedMotionSample] = [:]
            for case .fused(let sample) in received[1].joined() { bankInput[sample.timestamp] = sample }
            var pipeline = HostedPipeline(settings: settings, sampleRate: 200, frame: frame, wallClockOffset: 1_796_118_483.67683)
            for batch in received[0] {
                let output = pipeline.add(batch.compactMap { item -> FusedMotionSample? in
                    guard case .fused(let sample) = item, var input = bankInput[sample.timestamp] else { return nil }
                    input.attitude = sample.attitude
                    return input
                })
                for event in output.events {
                    payloads.events.append(event.type)
                    payloads.append(event.encoded(.json))
                    payloads.append(event.encoded(.cbor))
                }
                for state in output.states { payloads.append(Array(state.json().utf8)) }
            }
        }
        return payloads.golden
    }

    /// The filter's SI output and device motion in Apple's units come from the same samples and make the
    /// same detector input and attitude, to the bit, in every frame, raw and calibrated.
    @Test(arguments: [false, true])
    func theDetectorsInputIsDeviceMotionsToTheBit(calibrated: Bool) {
        for frame in Self.frames {
            let received = Self.route(
                Self.deliveries(.drop(SimulatedDrop()), seconds: 6), streams: [(.deviceMotion(frame), 0, true), (.fusedMotion(frame), 0, true)],
                calibration: calibrated ? Self.calibration : nil)
            let motions = received[0].joined().compactMap { if case .deviceMotion(let motion) = $0 { motion } else { nil } }
            let fused = received[1].joined().compactMap { if case .fused(let sample) = $0 { sample } else { nil } }
            #expect(motions.count == fused.count && motions.count > 1000, "\(frame)")
            #expect(zip(motions, fused).allSatisfy { MotionDetectorBank.Sample($0) == MotionDetectorBank.Sample($1) }, "\(frame)")
            #expect(zip(motions, fused).allSatisfy { $0.attitude == $1.attitude }, "\(frame)")
        }
    }

    @Test func detectorsWithTheirDefaults() {
        Self.expect(Self.detectorPayloads(DetectorSettings()), Golden(
                count: 114, digest: "cb1a11c21cf859295cb35b0328269b8d92fcc14bfcf89df14d4fc51d1bec620b",
                events: ["free_fall", "impact", "tap", "double_tap", "tap", "double_tap", "shake", "shake"]))
    }

    @Test func detectorsConfigured() throws {
        let document = #"""
            {"detectors":{"free_fall":{"threshold":0.4,"minimum_duration":0.1},"impact":{"threshold":3},
             "tap":{"threshold":0.8,"double_tap_window":0.5},"shake":{"threshold":1.0,"reversals":4},
             "orientation":{"hysteresis":0.3},"tilt":{"threshold":20,"hysteresis":3,"reference":[0,0,-1]},
             "moving":{"acceleration":0.04,"rotation":0.3,"confirm":0.3,"settle":1.5},
             "vibration":{"threshold":0.05,"confirm":1,"stop":3,"bands":[[5,40],[40,90]]},"activity":{"running_cadence":2.2}}}
            """#
        let settings = try AgentConfiguration.parse(Array(document.utf8)).detectors
        #expect(settings != DetectorSettings())
        Self.expect(Self.detectorPayloads(settings), Golden(
                count: 237, digest: "3dc071d7e3a91d11cadadba4604f5923e234f1ed2edc7b2822f3e16644f8a9e1",
                // The running trial's flight phases fall through the raised free-fall threshold.
                events: ["free_fall", "impact", "tap", "double_tap", "tap", "double_tap", "shake", "shake"] + Array(repeating: "free_fall", count: 55)))
    }

    /// The agent's detectors in its default device-motion frame (magnetic north) on a calibrated IMU,
    /// recorded before the detectors move into the engine: the frame the events' attitude and the
    /// states' gravity come from there.
    @Test func detectorsInTheMagneticFrameCalibrated() {
        Self.expect(Self.detectorPayloads(DetectorSettings(), frame: .xMagneticNorthZVertical, calibration: Self.calibration), Golden(
                count: 114, digest: "209700fbe718ad4913d487ffcfcc22d0efdd42d1dca3817aaeea419db3ab457e",
                events: ["free_fall", "impact", "tap", "double_tap", "tap", "double_tap", "shake", "shake"]))
    }

    /// The same payloads to the byte when the bank reads the 6-axis filter and the events carry the 9-axis
    /// filter's attitude: the two filters' gravities differ only in their last digits, which no payload
    /// carries. What one bank per device (steps, activity, events and states alike) rests on.
    @Test func detectorsInTheMagneticFrameWithTheSixAxisFiltersBank() {
        Self.expect(
            Self.detectorPayloads(DetectorSettings(), frame: .xMagneticNorthZVertical, calibration: Self.calibration, bankFrame: .xArbitraryZVertical),
            Golden(
                count: 114, digest: "209700fbe718ad4913d487ffcfcc22d0efdd42d1dca3817aaeea419db3ab457e",
                events: ["free_fall", "impact", "tap", "double_tap", "tap", "double_tap", "shake", "shake"]))
    }

    /// A state's fields, written out (not Swift's `description`, which names the types' modules).
    static func text(_ state: MotionState) -> String {
        switch state {
        case .moving(let moving): "moving \(moving)"
        case .orientation(let orientation): "orientation \(orientation.rawValue)"
        case .tilted(let tilted, let angle): "tilted \(tilted) \(angle)"
        case .vibrating(let vibrating, let level): "vibrating \(vibrating) \(level)"
        case .activity(let estimate): "activity \(estimate.activity.rawValue) \(estimate.confidence.rawValue) \(estimate.since)"
        }
    }

    /// CoreMotion's bank (every detector with its defaults, vibration bands unclipped) as
    /// `MotionDetectorHost` feeds it: the arbitrary frame's filter output, every sample. Events, states
    /// and steps at full precision (Swift's shortest exact form), with the cadence at each step.
    @Test func coreMotionsDefaultBankAtFullPrecision() {
        var payloads = Payloads()
        for (motion, seconds) in Self.detectorScenarios {
            let received = Self.route(Self.deliveries(motion, seconds: seconds), streams: [(.fusedMotion(.xArbitraryZVertical), 0, true)])
            var bank = MotionDetectorBank()
            for case .fused(let sample) in received[0].joined() {
                let output = bank.update(MotionDetectorBank.Sample(sample))
                for event in output.events {
                    payloads.events.append(event.kind.rawValue)
                    payloads.append(Array("\(event.kind.rawValue) \(event.timestamp) \(event.duration) \(event.magnitude)".utf8))
                }
                for state in output.states { payloads.append(Array(Self.text(state).utf8)) }
                if output.step { payloads.append(Array("step \(sample.timestamp) \(bank.steps?.cadence ?? .nan)".utf8)) }
            }
        }
        Self.expect(payloads.golden, Golden(
            count: 176, digest: "f0ea841c404080cc6580e16e45a9a08748ea080a7fb201a8b8be57c34db3dfa0",
            events: ["free_fall", "impact", "tap", "double_tap", "tap", "double_tap", "shake", "shake"]))
    }
}
