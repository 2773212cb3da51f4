import Foundation
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

/// The robustness battery's variants of a recording, each checked against the physics it claims: what a
/// slower, noisier, turned or skewed sensor would have recorded of the same motion.
@Suite struct IMURecordingVariantTests {
    /// A device turning about z at `rate` rad/s with a specific force and field linear in time, sampled at
    /// `sampleRate` Hz for `seconds`, with its exact reference attitude.
    private func turning(rate: Double = 0.8, sampleRate: Double = 200, seconds: Double = 4) -> IMURecording {
        let count = Int(seconds * sampleRate)
        var samples: [IMUSample] = [], references: [SIMD4<Double>?] = [], movement: [Bool] = []
        for index in 0..<count {
            let time = Double(index) / sampleRate
            samples.append(
                IMUSample(
                    timestamp: UInt64((time * 1e9).rounded()), acceleration: SIMD3(0.1 + 0.5 * time, -0.2, 9.81),
                    rotationRate: SIMD3(0, 0, rate), magneticField: SIMD3(20 + 3 * time, -1, -40)))
            references.append(Quaternion(axis: SIMD3(0, 0, 1), angle: rate * time).components)
            movement.append(index >= count / 2)
        }
        return IMURecording(samples: samples, referenceAttitudes: references, movement: movement, sampleRate: sampleRate)
    }

    private func seconds(_ sample: IMUSample) -> Double { Double(sample.timestamp) / 1e9 }

    @Test func aRecordingWrittenWithItsReferenceReadsBackTheSame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = turning()
        try recording.write(toFile: path, comment: "a turning device")
        let read = try IMURecording.load(contentsOf: path)
        #expect(read.samples.count == recording.samples.count && read.sampleRate == recording.sampleRate)
        #expect(read.movement == recording.movement)
        for (a, b) in zip(read.samples, recording.samples) {
            #expect(a.timestamp == b.timestamp)
            #expect(((a.acceleration ?? .zero) - (b.acceleration ?? .zero)).length < 1e-8)
            #expect(((a.magneticField ?? .zero) - (b.magneticField ?? .zero)).length < 1e-8)
        }
        for (a, b) in zip(read.referenceAttitudes, recording.referenceAttitudes) {
            #expect(((a ?? .zero) - (b ?? .zero)).max() < 1e-9)
        }
    }

    @Test func resamplingAveragesOverTheNewIntervalCentredOnItsTime() throws {
        let recording = turning(sampleRate: 200)
        let slower = IMURecordingVariant.resampled(rate: 50).apply(to: recording)
        #expect(slower.sampleRate == 50)
        #expect(abs(Double(slower.samples.count) - 4 * 50) <= 1)
        #expect(slower.referenceAttitudes.count == slower.samples.count && slower.movement.count == slower.samples.count)
        for (index, sample) in slower.samples.enumerated().dropFirst().dropLast() {
            let time = seconds(sample)
            #expect(abs(time - Double(index) / 50) < 1e-9)
            // A constant rate stays itself; a signal linear in time averages to its value at the centre:
            // no delay is added.
            #expect(abs((sample.rotationRate ?? .zero).z - 0.8) < 1e-12)
            #expect(abs((sample.acceleration ?? .zero).x - (0.1 + 0.5 * time)) < 1e-9)
            #expect(abs((sample.magneticField ?? .zero).x - (20 + 3 * time)) < 1e-9)
            // The reference is the exact attitude at the new time.
            let reference = try #require(slower.referenceAttitudes[index])
            let exact = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.8 * time)
            #expect(Quaternion(w: reference[0], x: reference[1], y: reference[2], z: reference[3]).angle(to: exact) < 1e-9)
            #expect(slower.movement[index] == (time >= 2))
        }
    }

    @Test func aTurnedMountingChangesTheReadingsButNotThePhysics() throws {
        let recording = try IMURecording.load(contentsOf: Repository.broadExcerpt.path)
        for variant in IMURecordingVariant.battery {
            guard case .mounted = variant else { continue }
            let turned = variant.apply(to: recording)
            var changed = false
            for index in stride(from: 0, to: recording.samples.count, by: 97) {
                guard let reference = recording.referenceAttitudes[index], let turnedReference = turned.referenceAttitudes[index] else { continue }
                let q = Quaternion(w: reference[0], x: reference[1], y: reference[2], z: reference[3]).normalized
                let turnedQ = Quaternion(w: turnedReference[0], x: turnedReference[1], y: turnedReference[2], z: turnedReference[3]).normalized
                let original = recording.samples[index], reading = turned.samples[index]
                for (a, b) in [(original.acceleration, reading.acceleration), (original.magneticField, reading.magneticField),
                               (original.rotationRate, reading.rotationRate)] {
                    let before = try #require(a), after = try #require(b)
                    // The same vector in the earth frame, read on other axes.
                    #expect((q.rotate(before) - turnedQ.rotate(after)).length < 1e-9 * max(1, before.length), "\(variant.name)")
                    changed = changed || (before - after).length > 1e-3
                }
            }
            #expect(changed, "\(variant.name) left the readings as they were")
        }
    }

    @Test func noiseHasTheDatasheetsDeviationAndIsRepeatable() {
        let quiet = IMURecording(
            samples: (0..<20_000).map { IMUSample(timestamp: UInt64($0) * 5_000_000, acceleration: .zero, rotationRate: .zero, magneticField: .zero) },
            sampleRate: 200)
        let variant = IMURecordingVariant.noiseAdded(gyroscopeDensity: 0.001, accelerometerDensity: 0.002, magnetometerRMS: 0.3, seed: 7)
        let noisy = variant.apply(to: quiet)
        func deviation(_ values: [SIMD3<Double>?]) -> Double {
            let all = values.compactMap { $0 }.flatMap { [$0.x, $0.y, $0.z] }
            return (all.map { $0 * $0 }.reduce(0, +) / Double(all.count)).squareRoot()
        }
        // density × √(rate / 2) = density × 10 at 200 Hz; 60 000 values: within 2 %.
        #expect(abs(deviation(noisy.samples.map(\.rotationRate)) / 0.01 - 1) < 0.02)
        #expect(abs(deviation(noisy.samples.map(\.acceleration)) / 0.02 - 1) < 0.02)
        #expect(abs(deviation(noisy.samples.map(\.magneticField)) / 0.3 - 1) < 0.02)
        #expect(variant.apply(to: quiet).samples == noisy.samples)
        let other = IMURecordingVariant.noiseAdded(gyroscopeDensity: 0.001, accelerometerDensity: 0.002, magnetometerRMS: 0.3, seed: 8)
        #expect(other.apply(to: quiet).samples != noisy.samples)
    }

    @Test func aScaledLateOrOffsetMagnetometerChangesOnlyTheField() throws {
        let recording = turning()
        let doubled = IMURecordingVariant.magnetometerScaled(factor: 2).apply(to: recording)
        for (a, b) in zip(recording.samples, doubled.samples) {
            #expect(b.magneticField == a.magneticField.map { $0 * 2 })
            #expect(a.acceleration == b.acceleration && a.rotationRate == b.rotationRate && a.timestamp == b.timestamp)
        }
        let late = IMURecordingVariant.magnetometerDelayed(seconds: 0.002).apply(to: recording)
        #expect(late.samples.first?.magneticField == recording.samples.first?.magneticField, "the first reading held before it")
        for sample in late.samples.dropFirst() {
            // The field 2 ms earlier, interpolated: 20 + 3 (t − 0.002) µT on x (the first reading's before it).
            #expect(abs((try #require(sample.magneticField)).x - (20 + 3 * max(seconds(sample) - 0.002, 0))) < 1e-9)
        }
        #expect(late.referenceAttitudes == recording.referenceAttitudes && late.movement == recording.movement)
        let offset = IMURecordingVariant.magnetometerOffset(SIMD3(2, 0, -1)).apply(to: recording)
        for (a, b) in zip(recording.samples, offset.samples) {
            #expect(b.magneticField == a.magneticField.map { $0 + SIMD3(2, 0, -1) } && b.acceleration == a.acceleration)
        }
    }

    @Test func theBatterysNamesAreDistinct() {
        let names = IMURecordingVariant.battery.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(
            names == [
                "rate-100Hz", "rate-50Hz", "mag-x0.5", "mag-x2", "mount-x90", "mount-y180", "noise", "mag-late-2ms",
                "mag-offset-x+2uT", "mag-offset-x-2uT", "mag-offset-y+2uT", "mag-offset-y-2uT", "mag-offset-z+2uT", "mag-offset-z-2uT",
            ])
        #expect(IMURecordingVariant.magnetometerOffset(SIMD3(2, 0, -1)).name == "mag-offset-2,0,-1uT")
        #expect(IMURecordingVariant.magnetometerOffset(SIMD3(0, -0.5, 0)).name == "mag-offset-y-0.5uT")
    }
}
