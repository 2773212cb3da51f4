// Fuzzes the configuration loader: AgentConfiguration.parse on any bytes, and the same bytes as a remote
// configuration document (RemoteConfiguration.accepting, then applying it to a configuration). Invariants:
// no crash, hang or unbounded memory; a refusal is one printable line naming a field path; an accepted
// document validates again and parses to the same configuration (parsing has no hidden state to change on
// rejection); an accepted remote document counts one version, reports its hash, and sent twice gives
// the same configuration (a merge patch is idempotent).
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
        check(error)
    }
    do throws(ConfigurationError) {
        let once = try RemoteConfiguration().accepting(Array(document))
        precondition(once.version == 1)
        let applied = try AgentConfiguration().applying(remote: once.overlay)
        let twice = try once.accepting(Array(document))
        let appliedTwice = try AgentConfiguration().applying(remote: twice.overlay)
        precondition(appliedTwice == applied, "a document sent twice changed more")
        precondition(applied.runtimeSettings["services"] != nil)
    } catch {
        check(error)
    }
    return 0
}

/// A refusal is one printable line of bounded length.
private func check(_ error: ConfigurationError) {
    do {
        let line = error.description
        precondition(line.hasPrefix("configuration error: "))
        precondition(line.utf8.count <= 2 * ConfigurationError.maximumLength + 40, "a message of \(line.utf8.count) bytes")
        precondition(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a message with a control character")
    }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_configuration_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
