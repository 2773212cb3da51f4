// Fuzzes what the agent does with a command from the network: ControlCommand.parse for every service,
// then the pure decision ServiceState.applying. Invariants: no crash, hang or unbounded memory (libFuzzer
// and AddressSanitizer watch those); an accepted command holds only values inside the documented ranges;
// a refusal is one bounded, printable line; a refused command leaves the state as it was.
import FuzzerEntry
import MotionAgent
import MotionContract

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlCommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let payload = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    for service in MotionService.allCases {
        let before = ServiceState(settings: .defaults(for: service))
        let command: ControlCommand
        do {
            command = try ControlCommand.parse(payload, for: service)
        } catch {
            check(error.description)
            continue
        }
        if let interval = command.interval { precondition(ControlCommand.intervalRange.contains(interval), "interval \(interval) accepted") }
        if let frame = command.referenceFrame {
            precondition(service == .deviceMotion, "frame \(frame.rawValue) accepted for \(service.topicName)")
        }
        precondition(command != ControlCommand(), "a command that changes nothing was accepted")
        precondition((try? ControlCommand.parse(payload, for: service)) == command, "parsing is not deterministic")
        precondition((try? ControlCommand.parse(command.payload(), for: service)) == command, "the command's own payload reads otherwise")
        for (reason, frames) in [(nil, Set([AttitudeReferenceFrame.xArbitraryZVertical])), ("the device is gone", nil) as (String?, Set<AttitudeReferenceFrame>?)] {
            do {
                let after = try before.applying(command, for: service, unavailableReason: reason, availableFrames: frames)
                if let interval = command.interval { precondition(after.settings.sampling.interval == interval) }
                if let active = command.active { precondition(after.active == active) }
            } catch {
                check(error.description)
            }
        }
        precondition(before == ServiceState(settings: .defaults(for: service)), "the state changed")
    }
    return 0
}

/// A refusal is one printable line of bounded length.
private func check(_ message: String) {
    precondition(message.utf8.count <= ControlCommandError.maximumLength + 40, "a refusal of \(message.utf8.count) bytes")
    precondition(!message.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a refusal with a control character")
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_control_command_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
