#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// How much of the sphere of directions a set of vectors covers: the sphere is divided into 32 sectors of
/// equal area (4 bands of equal height in z, each cut into 8 slices of 45° of longitude, Archimedes' hat-box
/// theorem making their areas equal), and a sector counts once it holds ``minimumSamplesPerSector``
/// directions.
///
/// For a magnetometer the vectors are the (centred) field readings: turning the board through every
/// orientation sweeps the field's direction over the whole sphere in board axes.
public struct SphereCoverage: Sendable, Equatable {
    /// Bands of equal height in z.
    public static let bandCount = 4
    /// Slices of longitude per band.
    public static let sliceCount = 8
    /// Directions a sector needs to count as covered: 3, so that a single disturbed reading does not count.
    public static let minimumSamplesPerSector = 3

    /// Directions seen in each sector, band-major (`band * sliceCount + slice`).
    public private(set) var counts: [Int]

    /// Creates an empty coverage.
    public init() {
        counts = [Int](repeating: 0, count: Self.bandCount * Self.sliceCount)
    }

    /// Creates the coverage of `vectors` (any unit; only their directions count).
    /// - Parameter vectors: the vectors; zero and non-finite ones are ignored.
    public init(_ vectors: [SIMD3<Double>]) {
        self.init()
        for vector in vectors { add(vector) }
    }

    /// Counts one more vector (zero and non-finite vectors are ignored).
    public mutating func add(_ vector: SIMD3<Double>) {
        let direction = vector.normalized
        guard direction != .zero else { return }
        let band = min(Self.bandCount - 1, Int((direction.z + 1) / 2 * Double(Self.bandCount)))
        var longitude = atan2(direction.y, direction.x) / (2 * .pi)  // −½…½ turn
        if longitude < 0 { longitude += 1 }
        let slice = min(Self.sliceCount - 1, Int(longitude * Double(Self.sliceCount)))
        counts[band * Self.sliceCount + slice] += 1
    }

    /// Sectors holding at least ``minimumSamplesPerSector`` directions.
    public var coveredSectorCount: Int {
        counts.filter { $0 >= Self.minimumSamplesPerSector }.count
    }

    /// The covered fraction of the sphere, 0…1.
    public var fraction: Double {
        Double(coveredSectorCount) / Double(counts.count)
    }
}
