import AgentTestSupport
import Foundation
import MQTT
import MotionContract
import MotionTestSupport
import Testing

/// The vibration service through the real agent and a real broker, on the simulator's class II machine at
/// 1480 rpm and 5.0 mm/s (issue 34's "done when"): the summaries' velocity, zone and running speed, the
/// spectrum on request and at its interval in JSON and CBOR, the zone in `{base}/state/vibration`, Home
/// Assistant's entities and triggers, every payload valid under its schema, and refused settings.
@Suite(.serialized) struct VibrationServiceIntegrationTests {
    static let machine = "sim:motion=machine,rpm=1480,severity=5.0,rate=2000"

    @Test func aClassTwoMachineAtFiveMillimetresASecondIsPublishedInZoneC() throws {
        let replies = "motionctl/vibration-test/replies/\(UUID().uuidString.prefix(8))"
        let running = try RunningAgent.start(
            configuration: #"{"home_assistant": {"discovery": true}, "services": {"vibration": {"enabled": true, "interval": 3, "spectrum_interval": 0}}}"#,
            device: Self.machine,
            subscriber: { broker, topics in
                try RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#", "homeassistant/#", replies])
            })
        defer { running.cleanUp() }
        let topics = running.topics
        let subscriber = running.subscriber
        #expect(subscriber.waitForCount(on: topics.data(.vibration), count: 2, timeout: .seconds(20)))
        let summaries = try subscriber.messages(on: topics.data(.vibration)).map { try VibrationPayload(payload: $0.payload) }
        let summary = try #require(summaries.last)
        #expect(summaries.map(\.seq) == Array(1...UInt64(summaries.count)))
        #expect(abs(summary.velocityRMS / 5 - 1) < 0.05, "\(summary.velocityRMS) mm/s")
        #expect(summary.zone == "C" && summary.machineClass == 2 && summary.limits == .init(ab: 1.12, bc: 2.8, cd: 7.1))
        #expect(summaries.first?.previousZone == nil && summary.previousZone == nil, "no zone before the first; no change after")
        // 800 lines at 2 kHz: 0.98 Hz a line.
        let resolution = 2000.0 / 2048
        let speed = try #require(summary.runningSpeed)
        #expect(speed.source == .estimated && abs(speed.frequency - 1480.0 / 60) <= resolution, "\(speed.frequency) Hz")
        let oneTimes = try #require(summary.peaks.first { abs(($0.order ?? 0) - 1) < 0.05 })
        #expect(abs(oneTimes.frequency - 24.667) <= resolution && oneTimes.axis == "x", "\(oneTimes)")
        #expect(abs(summary.band.upperBound - 781.25) < 1e-3, "the band's top is rate ÷ 2.56")
        var validation = try PayloadSchemaTests.validate(subscriber.messages(on: topics.data(.vibration)).map(\.payload), against: "vibration")
        #expect(validation.status == 0, "\(validation.output)")

        // The zone, retained, for a subscriber that comes later.
        let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: [topics.state(.vibration), topics.info])
        #expect(late.waitForCount(on: topics.state(.vibration), count: 1))
        let stateMessage = try #require(late.messages(on: topics.state(.vibration)).first)
        let state = try MotionStatePayload(payload: stateMessage.payload, name: .vibration)
        guard case .vibration(let runs, _, let severity) = state.value else { throw TestFailure("not a vibration state") }
        #expect(runs != nil && severity?.zone == "C" && stateMessage.retain, "the detector's running state with the service's zone")
        validation = try PayloadSchemaTests.validate([stateMessage.payload], against: "state")
        #expect(validation.status == 0, "\(validation.output)")
        // info states the band the rate allows.
        #expect(late.waitForCount(on: topics.info, count: 1))
        let info = try InfoPayload(payload: try #require(late.messages(on: topics.info).first).payload)
        let entry = try #require(info.services.first { $0.service == .vibration })
        #expect(entry.band == 10...781.25 && entry.mode == "summary")
        #expect(try PayloadSchemaTests.validate([try #require(late.messages(on: topics.info).first).payload], against: "info").status == 0)

        // The spectrum on request, answered, and decoded.
        try subscriber.client.publish(MQTTMessage(
            topic: topics.control(.vibration), string: "spectrum", qos: .atLeastOnce, responseTopic: replies, correlationData: [1]))
        #expect(subscriber.waitForMessage(on: replies) { $0.correlationData == [1] && $0.payloadString.contains(#""ok":true"#) } != nil)
        let spectrumMessage = try #require(subscriber.waitForMessage(on: topics.vibrationSpectrum)?.message)
        let spectrum = try VibrationSpectrumPayload(payload: spectrumMessage.payload)
        #expect(spectrum.lines == 800 && spectrum.averages >= 1 && spectrum.resolution == resolution)
        // The 1× line stands out on x at about 76 mg (4.18 mm/s at 24.7 Hz), within half precision.
        let line = Int((24.667 / resolution).rounded())
        let level = spectrum.axes.x[(line - 1)...(line + 1)].max()!
        #expect(level > 40 && level < 90, "\(level) mg")
        validation = try PayloadSchemaTests.validate([spectrumMessage.payload], against: "vibration-spectrum")
        #expect(validation.status == 0, "\(validation.output)")
        #expect(spectrumMessage.payload.count < 20_000, "\(spectrumMessage.payload.count) bytes of JSON")

        // Home Assistant: velocity, zone, running speed; a trigger per zone; they render on the payloads.
        let node = running.deviceID
        let sensors = ["vibration_velocity", "vibration_zone", "running_speed"].compactMap {
            subscriber.waitForMessage(on: "homeassistant/sensor/\(node)/\($0)/config") { !$0.payload.isEmpty }?.message
        }
        #expect(sensors.count == 3)
        validation = try PayloadSchemaTests.validate(sensors.map(\.payload), against: "home-assistant/sensor-discovery")
        #expect(validation.status == 0, "\(validation.output)")
        let triggers = ["a", "b", "c", "d"].compactMap {
            subscriber.waitForMessage(on: "homeassistant/device_automation/\(node)/vibration_zone_\($0)/config") { !$0.payload.isEmpty }?.message
        }
        #expect(triggers.count == 4)
        validation = try PayloadSchemaTests.validate(triggers.map(\.payload), against: "home-assistant/device-trigger-discovery")
        #expect(validation.status == 0, "\(validation.output)")
        var cases: [[String: String]] = []
        for config in sensors + triggers.prefix(1) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload)) as? [String: Any])
            cases.append(["template": try #require(object["value_template"] as? String), "payload": try #require(subscriber.messages(on: topics.data(.vibration)).last).payloadString])
        }
        // A summary that changed the zone fires its trigger; one that did not renders nothing.
        var changed = summary
        changed.previousZone = "B"
        cases.append(["template": try #require(cases.last?["template"]), "payload": String(decoding: changed.encoded(), as: UTF8.self)])
        // (The renderer prints one line per value and skips empty ones: the unchanged summary's.)
        let rendered = try MotionEventsIntegrationTests.render(cases)
        #expect(rendered.count == 4, "\(rendered)")
        if rendered.count == 4 {
            #expect(abs((Double(rendered[0]) ?? 0) - summary.velocityRMS) < 0.01 && rendered[1] == "C" && abs((Double(rendered[2]) ?? 0) - 1480) < 60)
            #expect(rendered[3] == "C", "\(rendered)")
        }
    }

    @Test func spectraAtTheirIntervalInCBORAndRefusedSettingsAndCommands() throws {
        let replies = "motionctl/vibration-test/replies/\(UUID().uuidString.prefix(8))"
        let running = try RunningAgent.start(
            configuration: #"{"detectors": {"enabled": false}, "services": {"vibration": {"enabled": true, "interval": 2, "lines": 400, "averages": 2, "spectrum_interval": 2, "format": "cbor", "rpm": 1480, "limits": [2, 4, 8]}}}"#,
            device: Self.machine,
            subscriber: { broker, topics in try RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#", replies]) })
        defer { running.cleanUp() }
        let topics = running.topics
        let subscriber = running.subscriber
        #expect(subscriber.waitForCount(on: topics.vibrationSpectrum, count: 2, timeout: .seconds(20)))
        let spectra = subscriber.messages(on: topics.vibrationSpectrum)
        #expect(spectra.allSatisfy { $0.contentType == "application/cbor" && PayloadFormat.of($0.payload) == .cbor })
        let spectrum = try VibrationSpectrumPayload(payload: try #require(spectra.last).payload)
        #expect(spectrum.lines == 400 && spectrum.runningSpeed?.source == .configured)
        #expect(abs((spectrum.runningSpeed?.rpm ?? 0) - 1480) < 0.01)
        // CBOR: three bytes a line and axis, plus the keys and the peaks.
        let bytes = try #require(spectra.last).payload.count
        #expect(bytes < 3 * 3 * 400 + 1000, "\(bytes) bytes")
        var validation = try PayloadSchemaTests.validate(spectra.map(\.payload), against: "vibration-spectrum", cbor: true)
        #expect(validation.status == 0, "\(validation.output)")
        #expect(subscriber.waitForCount(on: topics.data(.vibration), count: 1))
        let summary = try VibrationPayload(payload: try #require(subscriber.messages(on: topics.data(.vibration)).last).payload)
        #expect(summary.machineClass == nil && summary.zone == "C", "5 mm/s between explicit limits 4 and 8")
        validation = try PayloadSchemaTests.validate(subscriber.messages(on: topics.data(.vibration)).map(\.payload), against: "vibration", cbor: true)
        #expect(validation.status == 0, "\(validation.output)")
        // The detectors are off: the vibration state is the zone alone, and goes when the service stops.
        let stateMessage = try #require(subscriber.waitForMessage(on: topics.state(.vibration)) { !$0.payload.isEmpty }?.message)
        let state = try MotionStatePayload(payload: stateMessage.payload, name: .vibration)
        #expect(state.value == .vibration(running: nil, bands: [], severity: .init(zone: "C", velocityRMS: summary.velocityRMS)) || {
            if case .vibration(nil, [], let severity?) = state.value { return severity.zone == "C" } else { return false }
        }(), "\(state)")
        #expect(try PayloadSchemaTests.validate([stateMessage.payload], against: "state").status == 0)

        // A bad setting is refused with its field named and changes nothing; so are bad commands.
        for (document, reason) in [
            (#"{"services":{"vibration":{"lines":500}}}"#, "services.vibration.lines: must be one of 100, 200, 400, 800, 1600, 3200"),
            (#"{"services":{"vibration":{"machine_class":2,"limits":[1,2,3]}}}"#, "services.vibration.limits: give machine_class or limits, not both"),
            (#"{"services":{"vibration":{"interval":0.5}}}"#, "services.vibration.interval: must be 1…86400 seconds"),
            (#"{"services":{"vibration":{"batch":4}}}"#, "services.vibration"),
        ] {
            try subscriber.client.publish(MQTTMessage(
                topic: topics.configurationControl, string: document, qos: .atLeastOnce, responseTopic: replies, correlationData: Array(document.utf8.prefix(8))))
            let answer = try #require(subscriber.waitForMessage(on: replies) { $0.correlationData == Array(document.utf8.prefix(8)) }?.message)
            #expect(answer.payloadString.contains(reason) && answer.payloadString.contains(#""ok":false"#), "\(answer.payloadString)")
            subscriber.clear()
        }
        for (command, reason) in [
            (#"{"spectrum":true,"interval":5}"#, "spectrum: must be true, alone"), (#"{"interval":0.1}"#, "must be 1…3600 seconds"),
        ] {
            try subscriber.client.publish(MQTTMessage(
                topic: topics.control(.vibration), string: command, qos: .atLeastOnce, responseTopic: replies, correlationData: [9]))
            let answer = try #require(subscriber.waitForMessage(on: replies) { $0.correlationData == [9] }?.message)
            #expect(answer.payloadString.contains(reason), "\(answer.payloadString)")
            subscriber.clear()
        }
        try subscriber.client.publish(MQTTMessage(topic: topics.control(.gyro), string: "spectrum", qos: .atLeastOnce, responseTopic: replies, correlationData: [8]))
        #expect(subscriber.waitForMessage(on: replies) { $0.payloadString.contains("spectrum is a command of the vibration service") } != nil)
        // Still running with the file's settings.
        #expect(subscriber.waitForCount(on: topics.vibrationSpectrum, count: 1, timeout: .seconds(10)))
        #expect(try VibrationSpectrumPayload(payload: try #require(subscriber.messages(on: topics.vibrationSpectrum).last).payload).lines == 400)
        // Stopped: the zone leaves the retained state, which is then removed (the detector is off too).
        subscriber.clear()
        try subscriber.client.publish(MQTTMessage(topic: topics.control(.vibration), string: "stop", qos: .atLeastOnce))
        #expect(subscriber.waitForMessage(on: topics.state(.vibration)) { $0.payload.isEmpty } != nil)
    }
}

/// A failure with a message, for a `guard … else { throw }`.
private struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
