// Fuzzes what the fleet's side does with messages from the broker (anyone allowed to publish there may
// send anything): the contract's decoders for every topic, and the fleet ledger and a command round fed
// the bytes. The first byte picks the topic, the rest is the payload. Invariants: no crash, hang or
// unbounded memory; a payload that decodes encodes to text that decodes and encodes to the same text
// (encoding is idempotent, whatever it rounds); the ledger lists at most the one device and a command
// round takes at most one answer per device.
import FuzzerEntry
import MotionContract
import MotionFleet

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloads(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let selector = Int(data[0])
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let service = MotionService.allCases[selector % 4]

    // The decoders, with the idempotence of a decode → encode round.
    func idempotent(_ name: String, _ reencoded: ([UInt8]) -> String?) {
        guard let text = reencoded(payload) else { return }
        precondition(reencoded(Array(text.utf8)) == text, "\(name) round trip: \(text)")
    }
    idempotent("status") { (try? ServiceStatus(payload: $0))?.json() }
    idempotent("info") { (try? InfoPayload(payload: $0))?.json() }
    idempotent("health") { (try? HealthPayload(payload: $0))?.json() }
    idempotent("answer") { (try? CommandAnswer(payload: $0))?.json() }
    let stateName = MotionStateName.allCases[selector % MotionStateName.allCases.count]
    idempotent("state/\(stateName.rawValue)") { (try? MotionStatePayload(payload: $0, name: stateName))?.json() }
    // An event's angles are derived from its quaternion as read, so only its decoding is checked: what is
    // written reads back as the same event.
    if let event = try? MotionEventPayload(payload: payload) {
        for format in PayloadFormat.allCases {
            let again = try? MotionEventPayload(payload: event.encoded(format))
            precondition(again?.type == event.type && again?.seq == event.seq && again?.timestamp == event.timestamp, "event round trip")
        }
    }
    if service == .deviceMotion {
        _ = try? SamplePayloadDecoder.deviceMotion(payload)
    } else if let message = try? SamplePayloadDecoder.vectors(payload, service: service) {
        precondition(message.samples.count == message.unixTimes.count && !message.samples.isEmpty)
        precondition((try? SamplePayloadDecoder.sequence(payload)) == message.sequence)
    }
    _ = try? SamplePayloadDecoder.firstTimestamp(payload)

    // The fleet ledger, on the topic the selector names.
    let topics = TopicLayout(prefix: "motion", deviceID: "fuzz")
    let topic = [topics.status, topics.info, topics.health, topics.status(service), topics.data(service), topics.error][selector / 4 % 6]
    var ledger = FleetLedger(prefix: "motion")
    ledger.receive(topic: topic, payload: payload, retained: selector & 1 == 0, arrival: 1_796_000_000)
    ledger.receive(topic: topic, payload: payload, retained: false, arrival: 1_796_000_001)
    precondition(ledger.summaries(now: 1_796_000_002, listened: 1).count <= 1)
    // Whatever a device sends reaches the operator's terminal escaped (issue 29, F2).
    let table = FleetTable.render(ledger.summaries(now: 1_796_000_002, listened: 1), now: 1_796_000_002)
    precondition(!table.unicodeScalars.contains { $0 != "\n" && [.control, .format].contains($0.properties.generalCategory) },
                 "a device's text reached the table unescaped")

    // A command round: the payload as an answer with its own first bytes as correlation data, on a topic made
    // of it, and on the device's own response topic with its secret; a second answer is never taken.
    var round = CommandRound(token: "t", devices: [("fuzz", true)])
    let ownTopic = round.responseTopic(for: "fuzz")
    precondition(round.receive(answer: payload, topic: ownTopic, correlationData: Array(payload.prefix(8))) == nil, "an answer without the secret taken")
    round.receive(answer: payload, topic: String(decoding: payload.prefix(64), as: UTF8.self), correlationData: round.correlationData(for: "fuzz"))
    round.receive(answer: payload, topic: ownTopic, correlationData: round.correlationData(for: "fuzz"))
    precondition(round.receive(answer: payload, topic: ownTopic, correlationData: round.correlationData(for: "fuzz")) == nil, "a second answer taken")
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_payloads_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
