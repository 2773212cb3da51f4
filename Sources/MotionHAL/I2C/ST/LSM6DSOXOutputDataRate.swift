/// An output data rate of the LSM6DSOX's accelerometer and gyroscope in high-performance mode: the 4-bit
/// code of CTRL1_XL ODR_XL, CTRL2_G ODR_G and of FIFO_CTRL3's batch rates (datasheet DS13082 tables 52 and
/// 55; Linux `st_lsm6dsx_core.c` `odr_avl`).
public struct LSM6DSOXOutputDataRate: Sendable, Equatable {
    /// The nominal rate, Hz.
    public let rate: Double
    /// The register code, 1...10.
    public let code: UInt8

    /// Every rate the chip offers, slowest first: 12.5, 26, 52, 104, 208, 416, 833, 1666, 3332 and 6667 Hz.
    public static let all: [LSM6DSOXOutputDataRate] = [
        12.5, 26, 52, 104, 208, 416, 833, 1666, 3332, 6667,
    ].enumerated().map { LSM6DSOXOutputDataRate(rate: $0.element, code: UInt8($0.offset + 1)) }

    /// The rate closest to `requested` in proportion (200 Hz → 208 Hz, 150 Hz → 208 Hz, 140 Hz → 104 Hz): the
    /// chip runs at exactly these rates, so a request in between gets the nearest and the timestamps are
    /// spaced at the chip's rate, not the request.
    /// - Parameter requested: the wanted rate, Hz (positive).
    public static func nearest(to requested: Double) -> LSM6DSOXOutputDataRate {
        all.min { ratio($0.rate, requested) < ratio($1.rate, requested) }!
    }

    /// How far apart two rates are in proportion: 1 for equal rates, 2 for one twice the other.
    private static func ratio(_ a: Double, _ b: Double) -> Double { max(a / b, b / a) }
}
