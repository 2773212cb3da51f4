import FusionReference
import MotionFusion
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

/// The reference VQF against the authors' own code: the figures and quaternions below are what PyPI `vqf`
/// 2.1.2 (its C++ core, default parameters, `updateBatch`) gives on the committed BROAD excerpt, printed by
/// Benchmarks/broad/vqf_reference.py's functions (`load_trial`, `sample_time`, `run_vqf`, `errors_deg`).
/// On the twelve trials and every variant of the robustness battery `motion-bench broad --filter vqf`
/// reproduces the same package's figures to 4·10⁻¹¹° (docs/FUSION.md).
@Suite struct VQFReferenceTests {
    /// Sample index → VQF 2.1.2's quaternion (w, x, y, z), sensor → East-North-Up.
    private static let sixAxis: [Int: [Double]] = [
        0: [0.9997737100026489, -0.016925922895501794, 0.012885718869847466, 1.3072190547826683e-05],
        1000: [0.9997744976489286, -0.010684169778875737, -0.009743584456363167, -0.01555200723091441],
        2000: [0.8508060860344235, 0.0009345969894964425, -0.5241585831432685, -0.03722781503787355],
        3428: [0.6163046859927002, 0.4590823870712726, -0.48919803503653286, 0.4124283918703673],
    ]
    private static let nineAxis: [Int: [Double]] = [
        0: [0.9997198417009213, -0.01679107778224446, 0.013060946503520764, -0.010378318400765377],
        1000: [0.9995631947525669, -0.010783246398627138, -0.009633821621174973, -0.02577461491700336],
        2000: [0.8498548107523293, -0.009899998325670071, -0.5240659154986548, -0.054806084396093344],
        3428: [0.6296325730859303, 0.4426200850203397, -0.5041416625704027, 0.39177987098181616],
    ]

    private static func run(magnetometer: Bool) throws -> (attitudes: [Quaternion], statistics: OrientationErrorStatistics) {
        let recording = try IMURecording.load(contentsOf: Repository.broadExcerpt.path)
        let sampleTime = VQFReference.sampleTime(timestamps: recording.samples.map(\.timestamp))
        // NumPy's Ts from the same column; the times pass through whole nanoseconds here, a few ulp apart.
        #expect(abs(sampleTime - 0.003500000000002501) < 1e-13)
        var filter = VQFReference(sampleTime: sampleTime)
        var attitudes: [Quaternion] = []
        var statistics = OrientationErrorStatistics()
        for (index, sample) in recording.samples.enumerated() {
            filter.update(
                gyroscope: try #require(sample.rotationRate), accelerometer: try #require(sample.acceleration),
                magnetometer: magnetometer ? sample.magneticField : nil)
            let attitude = magnetometer ? filter.quaternion9D : filter.quaternion6D
            attitudes.append(attitude)
            if recording.movement[index], let reference = recording.referenceAttitudes[index] {
                statistics.add(OrientationError(
                    estimate: attitude, reference: Quaternion(w: reference[0], x: reference[1], y: reference[2], z: reference[3])))
            }
        }
        return (attitudes, statistics)
    }

    private static func expectSame(_ attitudes: [Quaternion], _ expected: [Int: [Double]]) {
        for (index, components) in expected {
            let q = attitudes[index]
            let difference = zip([q.w, q.x, q.y, q.z], components).map { abs($0 - $1) }.max() ?? .infinity
            #expect(difference < 1e-9, "sample \(index): \(q) against \(components)")
        }
    }

    @Test("6-axis: the same attitudes and errors as VQF 2.1.2 on the BROAD excerpt")
    func sixAxisMatchesTheAuthorsCode() throws {
        let (attitudes, statistics) = try Self.run(magnetometer: false)
        Self.expectSame(attitudes, Self.sixAxis)
        #expect(statistics.count == 2572)
        #expect(abs(statistics.totalRMSE - 0.9533107398724783) < 1e-7)
        #expect(abs(statistics.inclinationRMSE - 0.1941069120545036) < 1e-7)
    }

    @Test("9-axis: the same attitudes and errors as VQF 2.1.2 on the BROAD excerpt")
    func nineAxisMatchesTheAuthorsCode() throws {
        let (attitudes, statistics) = try Self.run(magnetometer: true)
        Self.expectSame(attitudes, Self.nineAxis)
        #expect(abs(statistics.totalRMSE - 1.9445700226458047) < 1e-7)
        #expect(abs(statistics.headingRMSE - 1.9348587092554643) < 1e-7)
    }
}
