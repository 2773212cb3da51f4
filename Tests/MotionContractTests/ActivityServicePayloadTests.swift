import MotionContract
import Testing

/// The `steps`, `activity` and `altitude` payloads: Apple's names, the optional fields left out when
/// unknown, the batch form, and JSON and CBOR read back alike.
@Suite struct ActivityServicePayloadTests {
    private let encoder = SamplePayloadEncoder(wallClockOffset: 1_700_000_000)

    @Test func stepsCarryTheTotalsAndLeaveOutWhatIsNotKnown() throws {
        let walking = PedometerSample(
            timestamp: 100.5, steps: 36, distance: 25.2, cadence: 1.8, pace: 0.79, floorsAscended: 2, floorsDescended: 0)
        let standing = PedometerSample(timestamp: 101.5, steps: 36, distance: 25.2)
        let text = String(decoding: encoder.encode([standing], seq: 3), as: UTF8.self)
        #expect(text == #"{"seq":3,"timestamp":101.5,"ts":1700000101.5,"steps":36,"distance":25.2}"#)
        for format in PayloadFormat.nativeForms {
            let single = try SamplePayloadDecoder.steps(encoder.encode([walking], seq: 7, format: format))
            #expect(single.sequence == 7 && !single.isBatch && single.unixTimes == [1_700_000_100.5])
            let decoded = try #require(single.samples.first)
            #expect(decoded.steps == 36 && decoded.floorsAscended == 2 && decoded.floorsDescended == 0)
            #expect(abs(decoded.distance - 25.2) < 1e-5 && abs(decoded.cadence! - 1.8) < 1e-6 && abs(decoded.pace! - 0.79) < 1e-6)
            let batch = try SamplePayloadDecoder.steps(encoder.encode([walking, standing], seq: 8, format: format))
            #expect(batch.isBatch && batch.samples.count == 2 && batch.samples[1].cadence == nil && batch.samples[1].floorsAscended == nil)
        }
    }

    @Test func activityAndAltitudeReadBackInBothFormats() throws {
        let activity = ActivitySample(timestamp: 50, activity: "running", confidence: "high", since: 42.25)
        let altitude = AltitudeSample(timestamp: 51, relativeAltitude: 6.03, pressure: 101.2531, absoluteAltitude: 6.1)
        #expect(String(decoding: encoder.encode([activity], seq: 1), as: UTF8.self)
            == #"{"seq":1,"timestamp":50.0,"ts":1700000050.0,"activity":"running","confidence":"high","since":42.25}"#)
        for format in PayloadFormat.nativeForms {
            #expect(try SamplePayloadDecoder.activity(encoder.encode([activity], seq: 1, format: format)).samples == [activity])
            let read = try #require(try SamplePayloadDecoder.altitude(encoder.encode([altitude], seq: 2, format: format)).samples.first)
            #expect(abs(read.relativeAltitude - 6.03) < 1e-5 && abs(read.pressure - 101.2531) < 1e-4 && abs(read.absoluteAltitude - 6.1) < 1e-5)
        }
    }

    @Test func aMissingFieldIsNamed() {
        #expect(throws: PayloadError.self) { try SamplePayloadDecoder.steps(Array(#"{"seq":1,"timestamp":1,"ts":2,"distance":0}"#.utf8)) }
        do {
            _ = try SamplePayloadDecoder.activity(Array(#"{"seq":1,"timestamp":1,"ts":2,"activity":"walking","since":0}"#.utf8))
            Issue.record("decoded without a confidence")
        } catch {
            #expect(error.fieldPath == "confidence")
        }
        #expect(throws: PayloadError.self) { try SamplePayloadDecoder.vectors(Array(#"{"seq":1}"#.utf8), service: .altitude) }
    }
}
