@testable import CoreMotion
import Foundation
import Testing

/// Closed-form checks of CMAttitude's representations on known rotations.
@Suite struct CMAttitudeTests {
    /// Hamilton product, (w, x, y, z).
    static func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(
            a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])
    }

    /// Rotation of `angle` rad about a unit `axis`, (w, x, y, z).
    static func rotation(_ axis: SIMD3<Double>, _ angle: Double) -> SIMD4<Double> {
        SIMD4(cos(angle / 2), axis.x * sin(angle / 2), axis.y * sin(angle / 2), axis.z * sin(angle / 2))
    }

    static func attitude(_ q: SIMD4<Double>) -> CMAttitude {
        CMAttitude(w: q[0], x: q[1], y: q[2], z: q[3])
    }

    static let xAxis = SIMD3<Double>(1, 0, 0), yAxis = SIMD3<Double>(0, 1, 0), zAxis = SIMD3<Double>(0, 0, 1)

    @Test func identityIsFaceUpWithZeroAngles() {
        let attitude = CMAttitude()
        #expect(attitude.roll == 0 && attitude.pitch == 0 && attitude.yaw == 0)
        let m = attitude.rotationMatrix
        #expect(m.m11 == 1 && m.m22 == 1 && m.m33 == 1 && m.m12 == 0 && m.m23 == 0 && m.m31 == 0)
        #expect(attitude.quaternion.w == 1)
    }

    @Test(arguments: [-1.2, -0.3, 0.4, 1.1])
    func pitchIsRotationAboutX(angle: Double) {
        let attitude = Self.attitude(Self.rotation(Self.xAxis, angle))
        #expect(abs(attitude.pitch - angle) < 1e-12)
        #expect(abs(attitude.roll) < 1e-12 && abs(attitude.yaw) < 1e-12)
        // Raising the top edge by `angle` tilts gravity (0, 0, -1) towards -y in device axes.
        let m = attitude.rotationMatrix
        #expect(abs(-m.m23 - -sin(angle)) < 1e-12)
        #expect(abs(-m.m33 - -cos(angle)) < 1e-12)
    }

    @Test(arguments: [-2.5, -0.7, 0.5, 3.0])
    func rollIsRotationAboutY(angle: Double) {
        let attitude = Self.attitude(Self.rotation(Self.yAxis, angle))
        #expect(abs(attitude.roll - angle) < 1e-12)
        #expect(abs(attitude.pitch) < 1e-12 && abs(attitude.yaw) < 1e-12)
        // Lowering the right edge (positive roll) puts gravity on +x.
        #expect(abs(-attitude.rotationMatrix.m13 - sin(angle)) < 1e-12)
    }

    @Test(arguments: [-3.0, -1.0, 0.25, 2.0])
    func yawIsRotationAboutZ(angle: Double) {
        let attitude = Self.attitude(Self.rotation(Self.zAxis, angle))
        #expect(abs(attitude.yaw - angle) < 1e-12)
        #expect(abs(attitude.roll) < 1e-12 && abs(attitude.pitch) < 1e-12)
    }

    @Test func eulerAnglesInvertZXYComposition() {
        let cases: [(roll: Double, pitch: Double, yaw: Double)] = [
            (0.3, -0.4, 1.2), (-2.0, 1.0, -2.8), (1.5, 0.2, 0.1), (-0.1, -1.3, 3.0),
        ]
        for angles in cases {
            let q = Self.product(
                Self.product(Self.rotation(Self.zAxis, angles.yaw), Self.rotation(Self.xAxis, angles.pitch)),
                Self.rotation(Self.yAxis, angles.roll))
            let attitude = Self.attitude(q)
            #expect(abs(attitude.roll - angles.roll) < 1e-9)
            #expect(abs(attitude.pitch - angles.pitch) < 1e-9)
            #expect(abs(attitude.yaw - angles.yaw) < 1e-9)
        }
    }

    @Test func rotationMatrixMapsReferenceIntoDeviceAsConjugateQuaternion() {
        let q = Self.product(Self.rotation(SIMD3(0.48, -0.6, 0.64), 2.1), Self.rotation(Self.yAxis, 0.3))
        let attitude = Self.attitude(q)
        let m = attitude.rotationMatrix
        let cq = attitude.quaternion
        let quaternion = SIMD4(cq.w, cq.x, cq.y, cq.z)
        let conjugate = SIMD4(cq.w, -cq.x, -cq.y, -cq.z)
        for v in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0.3, -2, 5)] {
            // q* ⊗ v ⊗ q carries reference coordinates into device coordinates.
            let rotated = Self.product(Self.product(conjugate, SIMD4(0, v.x, v.y, v.z)), quaternion)
            let byMatrix = SIMD3(
                m.m11 * v.x + m.m12 * v.y + m.m13 * v.z,
                m.m21 * v.x + m.m22 * v.y + m.m23 * v.z,
                m.m31 * v.x + m.m32 * v.y + m.m33 * v.z)
            #expect(abs(byMatrix.x - rotated[1]) < 1e-12)
            #expect(abs(byMatrix.y - rotated[2]) < 1e-12)
            #expect(abs(byMatrix.z - rotated[3]) < 1e-12)
        }
        let determinant =
            m.m11 * (m.m22 * m.m33 - m.m23 * m.m32) - m.m12 * (m.m21 * m.m33 - m.m23 * m.m31)
            + m.m13 * (m.m21 * m.m32 - m.m22 * m.m31)
        #expect(abs(determinant - 1) < 1e-12)
    }

    @Test func multiplyByInverseGivesTheChangeInDeviceAxes() {
        let reference = Self.product(Self.rotation(Self.xAxis, 0.7), Self.rotation(Self.zAxis, -1.1))
        // From the reference attitude, turn the device by 0.4 rad about its own z-axis.
        let current = Self.attitude(Self.product(reference, Self.rotation(Self.zAxis, 0.4)))
        let cached = Self.attitude(reference)
        let untouched = current.copy() as! CMAttitude
        current.multiply(byInverseOf: cached)
        #expect(abs(current.yaw - 0.4) < 1e-12)
        #expect(abs(current.roll) < 1e-12 && abs(current.pitch) < 1e-12)
        // The copy is independent, and the reference relative to itself is the identity.
        #expect(abs(untouched.yaw - Self.attitude(Self.product(reference, Self.rotation(Self.zAxis, 0.4))).yaw) < 1e-12)
        cached.multiply(byInverseOf: Self.attitude(reference))
        #expect(abs(cached.quaternion.w) > 1 - 1e-12)
    }
}
