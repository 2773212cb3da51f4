// Fuzzes the configuration loader: AgentConfiguration.parse on any bytes. Invariants: no crash, hang or
// unbounded memory; a refusal is one printable line naming a field path; an accepted document validates
// again and parses to the same configuration (parsing has no hidden state to change on rejection).
import FuzzerEntry
import Foundation
import MotionAgent

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let document = data.map { Data(bytes: $0, count: size) } ?? Data()
    do throws(ConfigurationError) {
        let configuration = try AgentConfiguration.parse(document)
        try configuration.validate()
        precondition((try? AgentConfiguration.parse(document)) == configuration, "parsing is not deterministic")
    } catch {
        let line = error.description
        precondition(line.hasPrefix("configuration error: "))
        precondition(line.utf8.count <= 2 * ConfigurationError.maximumLength + 40, "a message of \(line.utf8.count) bytes")
        precondition(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a message with a control character")
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_configuration_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
