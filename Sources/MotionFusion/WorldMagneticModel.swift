#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// The earth's main magnetic field from the World Magnetic Model (WMM2025, degree and order 12), for the
/// magnetic declination that turns magnetic north into true north.
///
/// The algorithm follows the WMM technical report: geodetic (WGS 84) to geocentric coordinates,
/// coefficients advanced to the date by their secular variation, Schmidt semi-normalised associated
/// Legendre functions, the field in geocentric spherical components, rotated back to the geodetic frame.
public struct WorldMagneticModel: Sendable {
    /// The field at one place and time.
    public struct Field: Sendable, Equatable {
        /// North component X, nT.
        public var north: Double
        /// East component Y, nT.
        public var east: Double
        /// Downward component Z, nT.
        public var down: Double

        /// Declination D: the angle from true north to the horizontal field, degrees, positive east.
        public var declination: Double { atan2(east, north) * 180 / .pi }
        /// Inclination (dip) I: the angle of the field below the horizontal, degrees.
        public var inclination: Double { atan2(down, (north * north + east * east).squareRoot()) * 180 / .pi }
        /// Total intensity F, nT.
        public var intensity: Double { (north * north + east * east + down * down).squareRoot() }
    }

    /// The model's epoch, decimal year.
    public let epoch: Double
    /// Years from the epoch for which the model is valid (5 for the WMM).
    public let validYears = 5.0
    private let maximumDegree = 12
    /// Gauss-normalised coefficients (Schmidt coefficients times the normalisation factors) by [n][m], nT.
    private let g: [[Double]], h: [[Double]], gDot: [[Double]], hDot: [[Double]]

    /// The WMM2025 model.
    public static let wmm2025 = WorldMagneticModel(
        epoch: wmm2025Epoch, rows: wmm2025Coefficients.map { ($0.n, $0.m, $0.g, $0.h, $0.gDot, $0.hDot) })

    private init(epoch: Double, rows: [(Int, Int, Double, Double, Double, Double)]) {
        self.epoch = epoch
        let size = maximumDegree + 1
        var g = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        var h = g, gDot = g, hDot = g
        // Schmidt semi-normalisation factors, to use the Gauss-normalised Legendre recursion below.
        var factor = g
        factor[0][0] = 1
        for n in 1..<size {
            factor[n][0] = factor[n - 1][0] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                factor[n][m] = factor[n][m - 1] * (Double((n - m + 1) * (m == 1 ? 2 : 1)) / Double(n + m)).squareRoot()
            }
        }
        for (n, m, gValue, hValue, gRate, hRate) in rows where n <= maximumDegree && m <= n {
            g[n][m] = gValue * factor[n][m]
            h[n][m] = hValue * factor[n][m]
            gDot[n][m] = gRate * factor[n][m]
            hDot[n][m] = hRate * factor[n][m]
        }
        self.g = g
        self.h = h
        self.gDot = gDot
        self.hDot = hDot
    }

    /// Whether `year` lies within the model's validity (epoch to epoch + 5 years).
    public func isValid(at year: Double) -> Bool {
        year >= epoch && year < epoch + validYears
    }

    /// The main field at a place and time.
    /// - Parameters:
    ///   - latitude: geodetic latitude, degrees (north positive), within ±90.
    ///   - longitude: degrees (east positive).
    ///   - altitude: height above the WGS 84 ellipsoid, km.
    ///   - year: decimal year (for example 2026.5); the model extrapolates outside its validity.
    public func field(latitude: Double, longitude: Double, altitude: Double, year: Double) -> Field {
        let degree = Double.pi / 180
        // WGS 84 and the model's reference radius, km.
        let a = 6378.137, flattening = 1 / 298.257223563, referenceRadius = 6371.2
        let eccentricitySquared = flattening * (2 - flattening)
        let phi = min(max(latitude, -89.999_999), 89.999_999) * degree
        let lambda = longitude * degree
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let curvature = a / (1 - eccentricitySquared * sinPhi * sinPhi).squareRoot()
        let p = (curvature + altitude) * cosPhi
        let z = (curvature * (1 - eccentricitySquared) + altitude) * sinPhi
        let r = (p * p + z * z).squareRoot()
        let geocentricLatitude = asin(z / r)
        // Colatitude θ of the geocentric point.
        let cosTheta = sin(geocentricLatitude), sinTheta = cos(geocentricLatitude)

        let size = maximumDegree + 1
        var legendre = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        var derivative = legendre  // d/dθ
        legendre[0][0] = 1
        var cosines = [Double](repeating: 1, count: size), sines = [Double](repeating: 0, count: size)
        for m in 1..<size {
            cosines[m] = cos(Double(m) * lambda)
            sines[m] = sin(Double(m) * lambda)
        }
        let years = year - epoch
        var radial = 0.0, colatitudinal = 0.0, longitudinal = 0.0
        var ratio = referenceRadius / r
        ratio *= ratio  // (a/r)^(n+2) for n = 0
        for n in 1..<size {
            ratio *= referenceRadius / r
            for m in 0...n {
                // Gauss-normalised associated Legendre functions of cos θ and their θ-derivatives.
                if n == m {
                    legendre[n][m] = sinTheta * legendre[n - 1][m - 1]
                    derivative[n][m] = sinTheta * derivative[n - 1][m - 1] + cosTheta * legendre[n - 1][m - 1]
                } else if n == 1 {
                    legendre[n][m] = cosTheta * legendre[n - 1][m]
                    derivative[n][m] = cosTheta * derivative[n - 1][m] - sinTheta * legendre[n - 1][m]
                } else {
                    let k = m > n - 2 ? 0 : Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
                    let previous = m > n - 2 ? 0 : legendre[n - 2][m], previousDerivative = m > n - 2 ? 0 : derivative[n - 2][m]
                    legendre[n][m] = cosTheta * legendre[n - 1][m] - k * previous
                    derivative[n][m] = cosTheta * derivative[n - 1][m] - sinTheta * legendre[n - 1][m] - k * previousDerivative
                }
                let gNow = g[n][m] + years * gDot[n][m], hNow = h[n][m] + years * hDot[n][m]
                let cosineTerm = gNow * cosines[m] + hNow * sines[m]
                radial += Double(n + 1) * ratio * cosineTerm * legendre[n][m]
                colatitudinal -= ratio * cosineTerm * derivative[n][m]
                longitudinal += ratio * Double(m) * (gNow * sines[m] - hNow * cosines[m]) * legendre[n][m]
            }
        }
        // Geocentric north, east and down; sin θ is far from 0 since the latitude is clamped.
        let northGeocentric = -colatitudinal, east = longitudinal / sinTheta, downGeocentric = -radial
        // Back to the geodetic frame: rotate about east by the difference of the latitudes.
        let psi = geocentricLatitude - phi
        return Field(
            north: northGeocentric * cos(psi) - downGeocentric * sin(psi),
            east: east,
            down: northGeocentric * sin(psi) + downGeocentric * cos(psi))
    }

    /// The magnetic declination, degrees east of true north (negative west).
    /// - Parameters: as ``field(latitude:longitude:altitude:year:)``.
    public func declination(latitude: Double, longitude: Double, altitude: Double, year: Double) -> Double {
        field(latitude: latitude, longitude: longitude, altitude: altitude, year: year).declination
    }

    /// The magnetic declination at a location, degrees east of true north (negative west).
    /// - Parameters:
    ///   - location: where (its altitude in metres).
    ///   - year: decimal year, e.g. ``GeodeticLocation/decimalYear(unixTime:)`` of now.
    public func declination(at location: GeodeticLocation, year: Double) -> Double {
        declination(latitude: location.latitude, longitude: location.longitude, altitude: location.altitude / 1000, year: year)
    }

    /// The magnetic declination at a location and time, degrees east of true north (negative west).
    /// - Parameters:
    ///   - location: where (its altitude in metres).
    ///   - unixTime: when, seconds since 1970 (UTC).
    public func declination(at location: GeodeticLocation, unixTime: Double) -> Double {
        declination(at: location, year: GeodeticLocation.decimalYear(unixTime: unixTime))
    }
}
