import FusionReference
import MotionHAL
import MotionMath

/// `motion-bench broad --filter vqf`: the trials fused by VQF as published (``VQFReference``, the
/// reference MotionBridge's filter is measured against) instead of MotionBridge's filter, at the recording's
/// median sample time, as `vqf.VQF(Ts)` is run by Benchmarks/broad/vqf_reference.py.
enum BroadReferenceFilter {
    /// The attitude after each sample, sensor → East-North-Up, of a 6-axis VQF (heading arbitrary) and a
    /// 9-axis one, run side by side in one pass; VQF with `parameters` (its defaults unless `--set` changes
    /// them).
    static func attitudes(
        _ recording: IMURecording, parameters: VQFReference.Parameters = .init()
    ) -> (sixAxis: [Quaternion], nineAxis: [Quaternion]) {
        let sampleTime = VQFReference.sampleTime(timestamps: recording.samples.map(\.timestamp))
        var six = VQFReference(sampleTime: sampleTime, parameters: parameters)
        var nine = six
        var attitudes: (sixAxis: [Quaternion], nineAxis: [Quaternion]) = ([], [])
        attitudes.sixAxis.reserveCapacity(recording.samples.count)
        attitudes.nineAxis.reserveCapacity(recording.samples.count)
        for sample in recording.samples {
            let gyroscope = sample.rotationRate ?? .zero, accelerometer = sample.acceleration ?? .zero
            six.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: nil)
            nine.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: sample.magneticField ?? .zero)
            attitudes.sixAxis.append(six.quaternion6D)
            attitudes.nineAxis.append(nine.quaternion9D)
        }
        return attitudes
    }
}
