import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// Mount matrices: IIO's text form, the checks, the algebra, and a device turned on its board.
@Suite struct MountMatrixTests {
    @Test func parsesTheIIOFormAndMapsChipAxesToBoardAxes() throws {
        // The chip turned 90° about z on the board: chip x = board −y, chip y = board x.
        let matrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(matrix.apply(SIMD3(1, 0, 0)) == SIMD3(0, -1, 0))
        #expect(matrix.apply(SIMD3(0, 1, 0)) == SIMD3(1, 0, 0))
        #expect(matrix.apply(SIMD3(0.5, -2, 9.81)) == SIMD3(-2, -0.5, 9.81))
        #expect(matrix.description == "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(try MountMatrix(parsing: matrix.description) == matrix)
        // White space and the kernel's decimals, e.g. a 45° turn.
        let turned = try MountMatrix(parsing: " 0.7071, 0.7071, 0 ;-0.7071,0.7071, 0; 0, 0, 1 ")
        #expect(abs(turned.apply(SIMD3(1, 1, 0)).x - 1.4142) < 1e-9)
        #expect(MountMatrix.identity.apply(SIMD3(1, 2, 3)) == SIMD3(1, 2, 3))
    }

    @Test func refusesTextThatIsNotARotationOfTheAxes() {
        let cases: [(String, MountMatrixError)] = [
            ("1, 0, 0; 0, 1, 0", .malformed("1, 0, 0; 0, 1, 0", "needs 3 rows separated by ';', found 2")),
            ("1, 0; 0, 1, 0; 0, 0, 1", .malformed("1, 0; 0, 1, 0; 0, 0, 1", "row 1 needs 3 numbers separated by ',', found 2")),
            ("1, 0, 0; 0, x, 0; 0, 0, 1", .malformed("1, 0, 0; 0, x, 0; 0, 0, 1", "row 2 ('0, x, 0') holds something not a number")),
            ("2, 0, 0; 0, 1, 0; 0, 0, 1", .notARotation("2, 0, 0; 0, 1, 0; 0, 0, 1")),
            ("1, 0, 0; 1, 0, 0; 0, 0, 1", .notARotation("1, 0, 0; 1, 0, 0; 0, 0, 1")),
        ]
        for (text, error) in cases {
            #expect(throws: error) { try MountMatrix(parsing: text) }
        }
        #expect(MountMatrixError.notARotation("2, 0, 0; 0, 1, 0; 0, 0, 1").description.contains("not a rotation"))
    }

    @Test func composesMountings() throws {
        let quarterTurn = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let halfTurn = quarterTurn * quarterTurn
        let expected = try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")
        #expect(halfTurn == expected)
        let vector = SIMD3(0.3, -0.7, 2.0)
        #expect(halfTurn.apply(vector) == quarterTurn.apply(quarterTurn.apply(vector)))
        #expect(quarterTurn * .identity == quarterTurn)
    }

    @Test func aMountedDeviceDeliversTheBoardsAxes() throws {
        // The simulator lies face up with y to magnetic north; mounted upside down about x on the board.
        let flipped = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")
        let time = TestTime.manual()
        let device = MountedIMU(
            SimulatedIMU(configuration: .init(motion: .stationary(attitude: .identity)).withoutSensorErrors, time: time.device),
            mountMatrix: flipped)
        #expect(device.info.chip.hasSuffix("(mount matrix 1, 0, 0; 0, -1, 0; 0, 0, -1)"))
        let samples = Mutex<[IMUSample]>([])
        try device.start(sampleRate: 200) { event in
            if case .samples(let batch) = event { samples.withLock { $0 += batch } }
        }
        time.pass(0.1)
        device.stop()
        let first = try #require(samples.withLock { $0.first })
        #expect(abs(first.acceleration!.z + 9.81) < 1e-9)
        #expect(abs(first.magneticField!.y + 19.5) < 1e-9 && abs(first.magneticField!.z - 44.5) < 1e-9)
    }
}
