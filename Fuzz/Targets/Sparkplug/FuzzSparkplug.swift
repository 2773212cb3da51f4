// Fuzzes what the Sparkplug B edge node reads from the broker (anyone allowed to publish on its command
// topics or a host's STATE topic may send anything): the payload through the nesting walk and protobuf-c's
// unpack, and the host's STATE JSON. Invariants: no crash (a deeply nested message must be refused before
// protobuf-c recurses into it), hang or unbounded memory; a payload that decodes, written again, decodes
// and writes to the same bytes; a refusal is one printable line of bounded length.
import FuzzerEntry
import MotionContract

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSparkplug(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let payload = try SparkplugPayload(decoding: bytes)
        let again = payload.encoded()
        let decoded = try! SparkplugPayload(decoding: again)
        precondition(decoded.metrics.count == payload.metrics.count && decoded.seq == payload.seq)
        precondition(decoded.encoded() == again, "Sparkplug payload: decode → encode is not idempotent")
    } catch {
        // A field path and a reason of at most 300 bytes each (PayloadError), joined by ": ".
        let line = "\(error)"
        precondition(line.utf8.count <= 602 && !line.contains("\n"), "a refusal is one line of bounded length: \(line)")
    }
    if let state = try? SparkplugHostState(decoding: bytes) {
        precondition((try? SparkplugHostState(decoding: state.json())) == state, "STATE: decode → encode differs")
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_sparkplug_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
