import FusionReference
import MotionHAL
import MotionMath

/// `motion-bench broad --filter vqf`: the trials fused by VQF as published (``VQFReference``, the
/// reference MotionBridge's filter is measured against) instead of MotionBridge's filter, at the recording's
/// median sample time, as `vqf.VQF(Ts)` is run by Benchmarks/broad/vqf_reference.py.
enum BroadReferenceFilter {
    /// The attitude after each sample, sensor → East-North-Up: 9-axis with `magnetometer`, else 6-axis
    /// (heading arbitrary); VQF with `parameters` (its defaults unless `--set` changes them).
    static func attitudes(
        _ recording: IMURecording, magnetometer: Bool, parameters: VQFReference.Parameters = .init()
    ) -> [Quaternion] {
        var filter = VQFReference(
            sampleTime: VQFReference.sampleTime(timestamps: recording.samples.map(\.timestamp)), parameters: parameters)
        var attitudes: [Quaternion] = []
        attitudes.reserveCapacity(recording.samples.count)
        for sample in recording.samples {
            filter.update(
                gyroscope: sample.rotationRate ?? .zero, accelerometer: sample.acceleration ?? .zero,
                magnetometer: magnetometer ? sample.magneticField ?? .zero : nil)
            attitudes.append(magnetometer ? filter.quaternion9D : filter.quaternion6D)
        }
        return attitudes
    }
}
