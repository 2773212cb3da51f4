import MotionContract
import MotionMath
import Testing

/// The detectors as a Sparkplug B device: every event type's and state's metric declared with its datatype
/// and unit, and an event's and a state's values at the time they began.
@Suite struct SparkplugDetectorMetricsTests {
    @Test func theBirthDeclaresEveryEventTypeAndStateWithItsUnit() {
        let declarations = SparkplugDetectorMetrics.declarations
        let names = declarations.compactMap(\.name)
        #expect(Set(names).count == names.count && declarations.allSatisfy { $0.value == nil && $0.timestamp == nil })
        for kind in MotionEventPayload.EventType.allCases {
            let magnitude = declarations.first { $0.name == "Events/\(kind.rawValue)/magnitude" }
            #expect(magnitude?.dataType == .double && magnitude?.engineeringUnit == kind.unit)
            #expect(declarations.first { $0.name == SparkplugDetectorMetrics.countName(of: kind.rawValue) }?.dataType == .uint64)
            #expect(declarations.first { $0.name == "Events/\(kind.rawValue)/duration" }?.engineeringUnit == "s")
        }
        let states = [
            ("State/moving", SparkplugDataType.boolean), ("State/orientation", .string), ("State/tilted", .boolean), ("State/angle", .double),
            ("State/running", .boolean), ("State/level", .double), ("State/zone", .string), ("State/velocityRMS", .double),
            ("State/activity", .string), ("State/confidence", .string),
        ]
        for (name, dataType) in states {
            #expect(declarations.first { $0.name == name }?.dataType == dataType, "\(name)")
        }
        #expect(names.count == 3 * MotionEventPayload.EventType.allCases.count + states.count)
    }

    @Test func anEventsMetricsCarryTheTimeItBeganAndItsCount() {
        let fall = MotionEventPayload(
            seq: 4, type: .freeFall, timestamp: 3521.125, ts: 1_795_986_011.402, duration: 0.452, magnitude: 1.0, attitude: nil, frame: nil)
        let metrics = SparkplugDetectorMetrics.metrics(of: fall, count: 2)
        #expect(metrics.map(\.name) == ["Events/free_fall/count", "Events/free_fall/magnitude", "Events/free_fall/duration"])
        #expect(metrics.map(\.value) == [.uint64(2), .double(1.0), .double(0.452)])
        #expect(metrics.allSatisfy { $0.timestamp == 1_795_986_011_402 })
        #expect(metrics[1].engineeringUnit == "m" && metrics[2].engineeringUnit == "s")
    }

    @Test func aStatesMetricsLeaveOutWhatIsAbsent() {
        let ts = 1_795_986_011.5
        let tilt = SparkplugDetectorMetrics.metrics(of: MotionStatePayload(value: .tilt(tilted: true, angle: 34.2), timestamp: 1, ts: ts))
        #expect(tilt.map(\.name) == ["State/tilted", "State/angle"] && tilt.map(\.value) == [.boolean(true), .double(34.2)])
        #expect(tilt.allSatisfy { $0.timestamp == 1_795_986_011_500 })
        let severityOnly = MotionStatePayload(
            value: .vibration(running: nil, bands: [], severity: MotionStatePayload.Severity(zone: "C", velocityRMS: 5.02)), timestamp: 1, ts: ts)
        #expect(SparkplugDetectorMetrics.metrics(of: severityOnly).map(\.name) == ["State/zone", "State/velocityRMS"])
        let running = MotionStatePayload(
            value: .vibration(running: true, bands: [MotionStatePayload.Band(low: 20, high: 100, rms: 0.42)], severity: nil), timestamp: 1, ts: ts)
        #expect(SparkplugDetectorMetrics.metrics(of: running).map(\.value) == [.boolean(true), .double(0.42)])
        let activity = MotionStatePayload(value: .activity("walking", confidence: "high"), timestamp: 1, ts: ts)
        #expect(SparkplugDetectorMetrics.metrics(of: activity).map(\.value) == [.string("walking"), .string("high")])
    }
}
