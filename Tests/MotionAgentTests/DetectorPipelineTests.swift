import Foundation
import MotionContract
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

@testable import MotionAgent

/// The detectors' configuration (`detectors`) and the pure path from device motion to the contract's
/// events and states, on synthetic device motion with known truth.
@Suite struct DetectorPipelineTests {
    /// 100 Hz filter output: face up at rest, with the attitude turning slowly about the vertical (so
    /// that an event's attitude shows which sample it came from), and `userAcceleration(t)` added (g,
    /// Apple's sign: free fall is `−gravity`), made into the specific force the accelerometer would read.
    static func samples(
        from start: Double = 0, seconds: Double, rate: Double = 100, userAcceleration: (Double) -> SIMD3<Double> = { _ in .zero }
    ) -> [FusedMotionSample] {
        (0..<Int(seconds * rate)).map { index in
            let time = start + Double(index) / rate
            let yaw = 0.01 * time
            // Apple's acceleration is user acceleration plus gravity (0, 0, −1) in g, and the negated force.
            let force = -(userAcceleration(time) + SIMD3(0, 0, -1)) * standardGravity
            return FusedMotionSample(
                timestamp: time, specificForce: force, gravity: SIMD3(0, 0, -9.81), gravityMagnitude: 9.81,
                rotationRate: SIMD3(0, 0, 0.01), attitude: Quaternion(w: cos(yaw / 2), x: 0, y: 0, z: sin(yaw / 2)))
        }
    }

    @Test func aDropGivesAFreeFallAndAnImpactWithTheAttitudeOfTheirStart() throws {
        var pipeline = HostedPipeline(settings: DetectorSettings(), sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 1000)
        let fall = 2.0...(2.0 + 0.4515)
        let samples = Self.samples(seconds: 6) { time in
            if fall.contains(time) { return SIMD3(0, 0, 1) }  // no specific force: falling
            if time > fall.upperBound, time < fall.upperBound + 0.03 { return SIMD3(0, 0, -7) }  // the floor: 8 g upwards
            return .zero
        }
        // The first second at rest gives every state.
        let first = pipeline.add(Array(samples.prefix(100)))
        #expect(first.events.isEmpty)
        #expect(Set(first.states.map(\.name)) == Set(MotionStateName.allCases))
        #expect(first.states.first { $0.name == .orientation }?.value == .orientation("face_up"))
        #expect(first.states.first { $0.name == .tilt }?.value == .tilt(tilted: false, angle: 0))
        #expect(first.states.first { $0.name == .moving }?.value == .moving(false))
        #expect(first.states.first { $0.name == .activity }?.value == .activity("stationary", confidence: "low"))
        #expect(first.states.allSatisfy { $0.timestamp == 0 && $0.ts == 1000 })
        let output = pipeline.add(Array(samples.dropFirst(100)))
        #expect(output.events.map(\.type) == ["free_fall", "impact"])
        let freeFall = try #require(output.events.first)
        #expect(abs(freeFall.timestamp - 2) < 0.015 && abs(freeFall.duration - 0.4515) < 0.015)
        #expect(abs(freeFall.magnitude - 1) < 0.07 && freeFall.unit == "m")
        #expect(freeFall.ts == freeFall.timestamp + 1000 && freeFall.seq == 1 && output.events[1].seq == 2)
        #expect(freeFall.frame == "xArbitraryZVertical")
        let yaw = EulerAngles(try #require(freeFall.attitude)).yaw
        #expect(abs(yaw - 0.01 * freeFall.timestamp) < 0.001, "the attitude when the fall began, not when it was found")
        #expect(output.events[1].magnitude > 7 && output.events[1].unit == "g")
        // A drop moves the device (and, without steps, its activity is unknown).
        #expect(output.states.contains { $0.value == .moving(true) })
    }

    @Test func switchedOffDetectorsFindNothingAndKeepNoState() throws {
        var settings = try AgentConfiguration.parse(Array(#"{"detectors":{"free_fall":{"enabled":false},"tilt":{"enabled":false},"vibration":{"enabled":false}}}"#.utf8)).detectors
        #expect(settings.publishedStates == [.orientation, .moving, .activity])
        var pipeline = HostedPipeline(settings: settings, sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0, sequence: 41)
        let output = pipeline.add(Self.samples(seconds: 4) { time in
            if time >= 1 && time < 1.45 { return SIMD3(0, 0, 1) }
            return time >= 1.45 && time < 1.48 ? SIMD3(0, 0, -7) : .zero
        })
        #expect(output.events.map(\.type) == ["impact"])
        #expect(output.events.first?.seq == 42, "the topic's count goes on")
        #expect(Set(pipeline.states.keys) == [.orientation, .moving, .activity])
        settings.enabled = false
        #expect(settings.publishedStates.isEmpty)
        #expect(DetectorPipeline(settings: settings, sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0).states.isEmpty)
    }

    @Test func thresholdsComeFromTheConfiguration() throws {
        // A tilt of 20° about x: beyond a 15° threshold, within the default 30°.
        let tilted = SIMD3(0, -sin(20 * Double.pi / 180), -cos(20 * Double.pi / 180))
        func tiltState(_ document: String) throws -> MotionStatePayload.Value? {
            var pipeline = HostedPipeline(
                settings: try AgentConfiguration.parse(Array(document.utf8)).detectors, sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0)
            let samples = Self.samples(seconds: 2).enumerated().map { index, sample in
                var sample = sample
                if index >= 50 { (sample.gravity, sample.specificForce) = (tilted * 9.81, -tilted * standardGravity) }
                return sample
            }
            _ = pipeline.add(samples)
            return pipeline.states[.tilt]?.value
        }
        guard case .tilt(false, _)? = try tiltState("{}") else { Issue.record("tilted at 20° with the default 30°"); return }
        let changed = try tiltState(#"{"detectors":{"tilt":{"threshold":15,"hysteresis":2}}}"#)
        guard case .tilt(let isTilted, let angle)? = changed else { Issue.record("no tilt state"); return }
        #expect(isTilted && abs(angle - 20) < 1e-6)
    }

    @Test func aConfiguredReferenceKeepsADoorOpenAtStartTilted() throws {
        // The closed door's board stands upright in portrait (gravity along −y); it starts lying face up,
        // 90° away: tilted from the first sample, where "start" would read level.
        let configured = try AgentConfiguration.parse(Array(#"{"detectors":{"tilt":{"reference":[0,-2,0]}}}"#.utf8)).detectors
        #expect(configured.bank.tilt.reference == SIMD3(0, -1, 0))
        var door = HostedPipeline(settings: configured, sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0)
        _ = door.add(Self.samples(seconds: 1))
        guard case .tilt(true, let angle)? = door.states[.tilt]?.value else { Issue.record("\(String(describing: door.states[.tilt]))"); return }
        #expect(abs(angle - 90) < 1e-6)
        var start = HostedPipeline(settings: DetectorSettings(), sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0)
        _ = start.add(Self.samples(seconds: 1))
        #expect(start.states[.tilt]?.value == .tilt(tilted: false, angle: 0))
        // Written out and read back; "start" hands it back.
        var withReference = AgentConfiguration()
        withReference.detectors = configured
        let written = try AgentConfiguration.parse(JSONWriter.canonical(["detectors": withReference.runtimeSettings["detectors"]!]))
        #expect(written.detectors == configured)
        #expect(try AgentConfiguration.parse(Array(#"{"detectors":{"tilt":{"reference":"start"}}}"#.utf8)).detectors.bank.tilt.reference == nil)
    }

    @Test func theVibrationLevelIsPublishedAgainEveryTenSeconds() {
        var pipeline = HostedPipeline(settings: DetectorSettings(), sampleRate: 200, frame: .xArbitraryZVertical, wallClockOffset: 0)
        // 50 Hz, 0.3 g: a machine running from the start.
        let samples = Self.samples(seconds: 25, rate: 200) { SIMD3(0.3 * sin(2 * .pi * 50 * $0), 0, 0) }
        // Delivered as a device delivers them, 10 samples at a time.
        let vibration = stride(from: 0, to: samples.count, by: 10).flatMap { start in
            pipeline.add(Array(samples[start..<min(start + 10, samples.count)])).states.filter { $0.name == .vibration }
        }
        // Stopped at the start, running after 2 s, the same with new levels at 12 and 22 s.
        #expect(vibration.count == 4, "\(vibration.map(\.timestamp))")
        guard case .vibration(true?, let bands, nil)? = vibration.last?.value else { Issue.record("not running: \(vibration)"); return }
        #expect(bands.count == 1 && bands[0].low == 20 && bands[0].high == 90, "the band kept below 0.45 of 200 Hz")
        #expect(abs(bands[0].rms - 0.3 / 2.squareRoot()) < 0.05)
        let since = vibration.dropFirst(2).map(\.timestamp)
        #expect(Set(since).count == 1, "refreshes keep the state's start: \(since)")
    }

    @Test func theSettingsAreWrittenOutAndReadBackAlike() throws {
        let document = #"{"detectors":{"qos":0,"format":"cbor","shake":{"reversals":4},"vibration":{"bands":[[5,15],[20,80]],"threshold":0.2}}}"#
        let configuration = try AgentConfiguration.parse(Array(document.utf8))
        let written = configuration.runtimeSettings["detectors"]!
        let reread = try AgentConfiguration.parse(JSONWriter.canonical(["detectors": written]))
        #expect(reread.detectors == configuration.detectors)
        #expect(configuration.detectors.bank.vibration.bands == [5...15, 20...80] && configuration.detectors.bank.shake.reversals == 4)
        #expect(configuration.detectors.bank.tilt.threshold == 30)
    }

    @Test func aRemoteDocumentChangesTheDetectors() throws {
        let file = AgentConfiguration()
        let remote = try RemoteConfiguration().accepting(Array(#"{"detectors":{"tilt":{"threshold":45},"impact":{"enabled":false}}}"#.utf8))
        #expect(remote.sources["detectors"] == .remote && remote.sources["services.gyro"] == .file)
        let applied = try file.applying(remote: remote.overlay)
        #expect(applied.detectors.bank.tilt.threshold == 45 && !applied.detectors.isOn(.impact) && applied.detectors.isOn(.tap))
        let plan = ReloadPlan(from: file, to: applied, services: [:])
        #expect(plan.restartsDetectors && plan.restartedServices.isEmpty)
        #expect(!ReloadPlan(from: file, to: file, services: [:]).restartsDetectors)
        #expect(throws: ConfigurationError(fieldPath: "detectors.tilt.threshold", reason: "must be 1…179 °")) {
            try file.applying(remote: try RemoteConfiguration().accepting(Array(#"{"detectors":{"tilt":{"threshold":0}}}"#.utf8)).overlay)
        }
        // A misspelt detector or threshold is refused before the merge, where a null would make it vanish.
        for (document, field) in [(#"{"detectors":{"tlt":{}}}"#, "detectors.tlt"), (#"{"detectors":{"tilt":{"treshold":null}}}"#, "detectors.tilt.treshold")] {
            #expect(throws: ConfigurationError.self, "\(field)") { try RemoteConfiguration().accepting(Array(document.utf8)) }
            do {
                _ = try RemoteConfiguration().accepting(Array(document.utf8))
            } catch {
                #expect(error.fieldPath == field)
            }
        }
        // null hands the bands back to the file.
        let withBands = try remote.accepting(Array(#"{"detectors":{"vibration":{"bands":[[5,15]]}}}"#.utf8))
        #expect(try file.applying(remote: withBands.overlay).detectors.bank.vibration.bands == [5...15])
        let handedBack = try withBands.accepting(Array(#"{"detectors":{"vibration":{"bands":null}}}"#.utf8))
        #expect(try file.applying(remote: handedBack.overlay).detectors.bank.vibration.bands == VibrationSettings.defaultBands)
    }

    @Test func onlyAChangeOfWhatIsDetectedStartsTheDetectorsOver() throws {
        let file = AgentConfiguration()
        var delivery = file
        delivery.detectors.qos = 0
        delivery.detectors.format = .cbor
        let plan = ReloadPlan(from: file, to: delivery, services: [:])
        #expect(plan.changesDetectors && !plan.restartsDetectors, "the events' QoS and format are read as they are published")
        var turned = file
        turned.mountMatrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(ReloadPlan(from: file, to: turned, services: [:]).restartsDetectors, "new axes: a new tilt reference")
        var frame = file
        frame.services[.deviceMotion]?.referenceFrame = .xArbitraryZVertical
        #expect(ReloadPlan(from: file, to: frame, services: [:]).restartsDetectors, "the events' attitude frame")
    }

    @Test func aHighFreeFallThresholdStillEndsAtRestAndABandAboveNyquistKeepsNoState() throws {
        var settings = DetectorSettings()
        settings.bank.freeFall.threshold = 0.9
        var pipeline = HostedPipeline(settings: settings, sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0)
        // A fall of 0.3 s and then rest, without a blow: the fall ends when the device is held again (1 g).
        let output = pipeline.add(Self.samples(seconds: 3) { time in time >= 1 && time < 1.3 ? SIMD3(0, 0, 1) : .zero })
        let fall = try #require(output.events.first { $0.type == "free_fall" })
        #expect(abs(fall.duration - 0.3) < 0.02, "\(fall.duration)")
        settings.bank.vibration.bands = [60...100]
        let noBand = DetectorPipeline(settings: settings, sampleRate: 100, frame: .xArbitraryZVertical, wallClockOffset: 0)
        #expect(noBand.bands.isEmpty && !noBand.stateNames.contains(.vibration) && noBand.stateNames.contains(.moving))
    }

    /// Each threshold's number as the schemas and the README write it (3, 0.3, 3600).
    static func written(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    /// The JSON Schemas of the configuration report (`{base}/config`) and of the configuration document
    /// (`config/set`) state each threshold as the model declares it: the range, `integer` for a count, and
    /// the unit and default in the description.
    @Test(arguments: ["config.schema.json", "config-set.schema.json"])
    func theSchemasStateTheModelsThresholds(file: String) throws {
        let url = Repository.schemas.appendingPathComponent(file)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        /// The first alternative of an `anyOf` (the others are `null`s), or the object itself.
        func first(_ value: Any?) -> [String: Any]? {
            let object = value as? [String: Any]
            return (object?["anyOf"] as? [[String: Any]])?.first ?? object
        }
        var root = try #require(schema["properties"] as? [String: Any])
        if let config = first(root["config"])?["properties"] as? [String: Any] { root = config }
        let properties = try #require(first(root["detectors"])?["properties"] as? [String: Any])
        for detector in MotionDetectorKind.allCases {
            let fields = try #require(first(properties[detector.rawValue])?["properties"] as? [String: Any], "\(detector)")
            for parameter in MotionDetectorSettings.parameters(of: detector) {
                let name = "\(file): \(detector.rawValue).\(parameter.key)"
                let field = try #require(first(fields[parameter.key]), "\(name)")
                #expect(field["minimum"] as? Double == parameter.range.lowerBound, "\(name)")
                #expect(field["maximum"] as? Double == parameter.range.upperBound, "\(name)")
                #expect(field["type"] as? String == (parameter.isWhole ? "integer" : "number"), "\(name)")
                let description = field["description"] as? String ?? ""
                let unit = parameter.unit.isEmpty ? "" : ", \(parameter.unit)"
                #expect(description.hasSuffix("\(unit); default \(Self.written(parameter.defaultValue))"), "\(name): \(description)")
            }
        }
    }

    /// Config/README.md's table states each threshold's default, range and unit as the model declares them.
    @Test func theConfigurationGuideStatesTheModelsThresholds() throws {
        let guide = Repository.schemas.deletingLastPathComponent().appendingPathComponent("Config/README.md")
        let rows = try String(contentsOf: guide, encoding: .utf8).split(separator: "\n").map(String.init)
        for detector in MotionDetectorKind.allCases {
            for parameter in MotionDetectorSettings.parameters(of: detector) {
                let field = "`detectors.\(detector.rawValue).\(parameter.key)`"
                let row = try #require(rows.first { $0.hasPrefix("| \(field) |") }, "\(field)")
                let unit = parameter.unit.isEmpty ? "" : " \(parameter.unit)"
                let range = "\(Self.written(parameter.range.lowerBound))…\(Self.written(parameter.range.upperBound))\(unit)"
                #expect(row.hasPrefix("| \(field) | \(Self.written(parameter.defaultValue)) | \(range) |")
                    || row.hasPrefix("| \(field) | \(Self.written(parameter.defaultValue)) | \(range),"), "\(row)")
            }
        }
    }
}

/// The pipeline's attitude history: what an event's start is looked up in.
@Suite struct AttitudeHistoryTests {
    private func turn(_ degrees: Double) -> Quaternion { Quaternion(axis: SIMD3(0, 0, 1), angle: degrees * .pi / 180) }

    @Test func keepsTheLastSecondsAndFindsTheSampleAtOrAfterATime() {
        var history = AttitudeHistory()
        #expect(history.attitude(at: 0) == nil)
        // 10 s at 1 kHz, dropped to 3 s after every delivery of 10 samples, as the pipeline does.
        for index in 0..<10_000 {
            history.append(Double(index) / 1000, turn(Double(index) / 100))
            if index % 10 == 9 { history.dropOlder(than: 3) }
        }
        // The newest is 9.999 s; the oldest kept 7 s (9.999 − 6.999 is a hair over 3 in binary).
        #expect(history.attitude(at: 8.5) == turn(85))
        #expect(history.attitude(at: 8.5004) == turn(85.01), "the sample just after")
        #expect(history.attitude(at: 7) == turn(70))
        #expect(history.attitude(at: 1) == turn(70), "older than the history: its oldest")
        #expect(history.attitude(at: 12) == turn(99.99), "later than any sample: the newest")
    }
}
