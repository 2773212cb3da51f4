// Fuzzes the recording reader (replay:, motionctl fuse and calibrate read it): IMURecording.parse on any
// bytes. Invariants: no crash (the Double → UInt64 traps it once had), hang or unbounded memory; an
// accepted recording has what a replay needs: two samples or more, strictly increasing timestamps
// within the maximum span, a rate in range, one reference and movement entry per sample where present.
import FuzzerEntry
import MotionHAL

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let recording = try? IMURecording.parse(csv: bytes, source: "fuzz.csv") else { return 0 }
    let samples = recording.samples
    precondition(samples.count >= 2 && samples[0].timestamp == 0)
    precondition(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "timestamps do not increase")
    precondition(recording.duration <= IMURecording.maximumDuration)
    precondition(IMURecording.sampleRateRange.contains(recording.sampleRate))
    precondition(recording.referenceAttitudes.isEmpty || recording.referenceAttitudes.count == samples.count)
    precondition(recording.movement.isEmpty || recording.movement.count == samples.count)
    _ = ReplayIMU(recording: recording, name: "fuzz")  // its preconditions hold
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver on this target.
@_cdecl("fuzz_recording_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    motionbridge_fuzzer_main(argc, argv)
}
