// Fuzzes the data topics' CBOR form as a subscriber meets it (anyone allowed to publish on the broker
// may send anything): libcbor's streaming decoder under MotionContract's reader, and every data topic's
// decoder on what it reads. Invariants: no crash, hang or unbounded memory; an item that parses is
// refused or read again the same when written back; a message that decodes, written again in CBOR,
// decodes to the same sequence, times and count, and writing it again gives the same bytes (single
// precision rounds once; device motion's angles, derived from the rounded attitude, a round later).
import FuzzerEntry
import MotionContract

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue.parse(cbor: payload) else { return 0 }
    if case .object(let members) = value {
        // The same data model as JSON: the canonical JSON text of what was read parses back to it.
        precondition((try? JSONValue.parse(JSONWriter.canonical(members))) == value, "CBOR → JSON → value differs")
    }
    let encoder = SamplePayloadEncoder(wallClockOffset: 0)
    for service in [MotionService.accelerometer, .gyro, .magnetometer] {
        guard let message = try? SamplePayloadDecoder.vectors(payload, service: service) else { continue }
        let again = encoder.encode(message.samples, service: service, seq: message.sequence, batched: message.isBatch, format: .cbor)
        let decoded = try! SamplePayloadDecoder.vectors(again, service: service)
        precondition(decoded.sequence == message.sequence && decoded.samples.count == message.samples.count)
        precondition(zip(decoded.samples, message.samples).allSatisfy { $0.timestamp == $1.timestamp })
        let twice = encoder.encode(decoded.samples, service: service, seq: decoded.sequence, batched: decoded.isBatch, format: .cbor)
        precondition(twice == again, "\(service.topicName): CBOR encoding is not idempotent")
    }
    if let message = try? SamplePayloadDecoder.deviceMotion(payload) {
        func reencoded(_ message: SamplePayloadDecoder.Message<DeviceMotionSample>) -> [UInt8] {
            encoder.encode(message.samples, seq: message.sequence, batched: message.isBatch, format: .cbor)
        }
        let decoded = try! SamplePayloadDecoder.deviceMotion(reencoded(message))
        precondition(decoded.sequence == message.sequence && decoded.samples.map(\.timestamp) == message.samples.map(\.timestamp))
        // Roll, pitch and yaw are written from the attitude: from the rounded one on the second round, so
        // the second and third rounds give the same bytes.
        let second = reencoded(decoded)
        precondition(reencoded(try! SamplePayloadDecoder.deviceMotion(second)) == second, "device-motion: not idempotent")
    }
    _ = try? SamplePayloadDecoder.sequence(payload)
    _ = try? SamplePayloadDecoder.firstTimestamp(payload)
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_cbor_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
