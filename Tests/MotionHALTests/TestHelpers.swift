import Foundation
import MotionHAL
import MotionMath
import MotionTestSupport

/// Euclidean length of a vector.
func length(_ vector: SIMD3<Double>) -> Double { (vector * vector).sum().squareRoot() }

/// Largest absolute component of `a − b`.
func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let difference = a - b
    return max(abs(difference.x), abs(difference.y), abs(difference.z))
}

/// Component-wise mean of vectors.
func mean(_ vectors: [SIMD3<Double>]) -> SIMD3<Double> {
    vectors.reduce(SIMD3(repeating: 0), +) / Double(vectors.count)
}

/// Degrees from radians.
func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

/// The body → earth rotation matrix of a unit quaternion, by the textbook formula (rows of R), written
/// independently of `Quaternion.rotate` so tests can check the simulator against it.
func rotationMatrix(_ q: Quaternion) -> [SIMD3<Double>] {
    let (w, x, y, z) = (q.w, q.x, q.y, q.z)
    return [
        SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
        SIMD3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
        SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)),
    ]
}

/// `Rᵀ v` for a matrix given by its rows: earth → body.
func transposeTimes(_ rows: [SIMD3<Double>], _ vector: SIMD3<Double>) -> SIMD3<Double> {
    rows[0] * vector.x + rows[1] * vector.y + rows[2] * vector.z
}

/// Largest absolute component of `a − b`; infinite when `a` is missing.
func maxDifference(_ a: SIMD3<Double>?, _ b: SIMD3<Double>) -> Double {
    guard let a else { return .infinity }
    return maxDifference(a, b)
}

/// Reads a started chip driver every 10 ms for `seconds`, as ``I2CIMU``'s poll thread would, and returns
/// every sample.
func collectSamples(from driver: any I2CChipDriver, for seconds: Double, time: TestTime = .real) throws -> [IMUSample] {
    var samples: [IMUSample] = []
    let end = time.now + UInt64(seconds * 1e9)
    while time.now < end {
        time.pass(0.01)
        samples += try driver.readSamples()
    }
    return samples
}
