import Foundation
import MotionContract
import Testing

/// `{base}/vibration` and `{base}/vibration/spectrum` (contract 1.8): round trips in JSON and CBOR, the
/// spectrum's half-precision lines and bytes, and refused payloads.
@Suite struct VibrationPayloadTests {
    static let peaks = [
        VibrationPayload.Peak(frequency: 24.67, amplitude: 0.0768, velocity: 4.18, order: 1, axis: "x"),
        VibrationPayload.Peak(frequency: 88.06, amplitude: 0.031, velocity: 0.55, order: 3.57, axis: "x"),
    ]

    static let summary = VibrationPayload(
        seq: 7, timestamp: 3521.125, ts: 1_795_986_011.402, duration: 10, rate: 1600, band: 10...625, velocity: SIMD3(4.21, 1.12, 2.5),
        velocityRMS: 5.02,
        levels: .init(acceleration: SIMD3(0.07, 0.06, 0.05), accelerationRMS: 0.105, peak: SIMD3(0.2, 0.17, 0.13), peakVector: 0.31, kurtosis: SIMD3(1.9, 2.1, 1.5)),
        zone: "C", limits: .init(ab: 1.12, bc: 2.8, cd: 7.1), machineClass: 2, runningSpeed: .init(frequency: 24.67, source: .estimated), peaks: peaks)

    @Test(arguments: PayloadFormat.nativeForms)
    func aSummaryRoundTrips(format: PayloadFormat) throws {
        let bytes = Self.summary.encoded(format)
        #expect(PayloadFormat.of(bytes) == format)
        let decoded = try VibrationPayload(payload: bytes)
        #expect(decoded.seq == 7 && decoded.zone == "C" && decoded.machineClass == 2 && decoded.runningSpeed?.source == .estimated)
        #expect(abs(decoded.velocityRMS - 5.02) < 1e-6 && abs(decoded.levels.crestFactorVector - 0.31 / 0.105) < 1e-5)
        #expect(decoded.peaks.count == 2 && decoded.peaks[1].order.map { abs($0 - 3.57) < 1e-6 } == true)
        #expect(abs(decoded.band.upperBound - 625) < 1e-9 && abs(decoded.limits.cd - 7.1) < 1e-6)
        // Explicit limits have no class; no running speed, no orders.
        var plain = Self.summary
        plain.machineClass = nil
        plain.runningSpeed = nil
        plain.peaks = [.init(frequency: 50, amplitude: 0.01, velocity: 0.03, order: nil, axis: "z")]
        let again = try VibrationPayload(payload: plain.encoded(format))
        #expect(again.machineClass == nil && again.runningSpeed == nil && again.peaks[0].order == nil)
    }

    @Test func aSummaryIsWrittenAsDocumented() {
        let text = String(decoding: Self.summary.encoded(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"seq":7,"timestamp":3521.125,"ts":1795986011.402,"duration":10.0,"rate":1600.0,"band":{"low":10.0,"high":625.0},"velocityRMS":5.02,"velocity":{"x":4.21,"y":1.12,"z":2.5}"#))
        #expect(text.contains(#""zone":"C","machineClass":2,"limits":{"ab":1.12,"bc":2.8,"cd":7.1},"runningSpeed":{"frequency":24.67,"rpm":1480.2,"source":"estimated"}"#))
        #expect(text.hasSuffix(#""peaks":[{"frequency":24.67,"amplitude":0.0768,"velocity":4.18,"order":1.0,"axis":"x"},{"frequency":88.06,"amplitude":0.031,"velocity":0.55,"order":3.57,"axis":"x"}]}"#))
    }

    @Test(arguments: PayloadFormat.nativeForms)
    func aSpectrumRoundTripsWithinHalfPrecision(format: PayloadFormat) throws {
        // 800 lines from 20 mg down past half precision's smallest normal number (6.1e-5), below which
        // lines are 0.
        let lines = (0..<800).map { 20 * pow(10, -Double($0) / 100) }
        let spectrum = VibrationSpectrumPayload(
            seq: 2, timestamp: 3521.125, ts: 1_795_986_011.402, rate: 1600, resolution: 0.78125, averages: 8, band: 10...625,
            axes: (lines, lines.map { $0 / 2 }, lines.reversed()), runningSpeed: .init(frequency: 24.67, source: .configured), peaks: Self.peaks)
        let bytes = spectrum.encoded(format)
        let decoded = try VibrationSpectrumPayload(payload: bytes)
        #expect(decoded.lines == 800 && decoded.averages == 8 && decoded.resolution == 0.78125 && decoded.runningSpeed?.source == .configured)
        for (value, read) in zip(lines, decoded.axes.x) {
            // 11 significant bits (and JSON's shortest decimal of them) down to 6.1e-5 mg, then 0.
            if value >= 6.104e-5 {
                #expect(abs(read / value - 1) <= 0.001, "\(value) read as \(read)")
            } else {
                #expect(read == 0, "\(value) read as \(read)")
            }
        }
        #expect(decoded.axes.z.first == 0 && decoded.axes.x.first.map { abs($0 - 20) < 0.01 } == true)
        // Three bytes a line in CBOR (plus the keys and peaks); JSON about three times as many.
        if format == .cbor { #expect(bytes.count < 3 * 3 * 800 + 400, "\(bytes.count) bytes") }
    }

    @Test func refusedPayloadsNameTheField() {
        #expect(throws: PayloadError(fieldPath: "zone", reason: "must be A, B, C or D")) {
            var summary = Self.summary
            summary.zone = "E"
            _ = try VibrationPayload(payload: summary.encoded())
        }
        #expect(throws: PayloadError(fieldPath: "y", reason: "must have 2 lines")) {
            try VibrationSpectrumPayload(payload: Array(#"{"seq":1,"timestamp":1,"ts":2,"rate":1000,"resolution":1,"averages":1,"lines":2,"unit":"mg","band":{"low":10,"high":390},"x":[1,2],"y":[1],"z":[1,2],"peaks":[]}"#.utf8))
        }
        #expect(throws: PayloadError(fieldPath: "x[1]", reason: "must be a number")) {
            try VibrationSpectrumPayload(payload: Array(#"{"seq":1,"timestamp":1,"ts":2,"rate":1000,"resolution":1,"averages":1,"lines":2,"unit":"mg","band":{"low":10,"high":390},"x":[1,"a"],"y":[1,2],"z":[1,2],"peaks":[]}"#.utf8))
        }
        #expect(throws: PayloadError(fieldPath: "peaks[0].axis", reason: "must be x, y or z")) {
            try VibrationPayload(payload: Array(String(decoding: Self.summary.encoded(), as: UTF8.self).replacingFirst(#""axis":"x""#, with: #""axis":"w""#).utf8))
        }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
