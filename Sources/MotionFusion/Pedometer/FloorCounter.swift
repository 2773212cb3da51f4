/// Floors climbed and descended from the relative altitude: a floor is counted each time the altitude has
/// risen (or fallen) by 90 % of ``floorHeight`` from the level of the last floor counted, and that level
/// then moves by a whole ``floorHeight``; so noise and a few steps up and back down count nothing, and a
/// climb of exactly two floors counts two even when the barometer reads it a few centimetres short. Pure
/// value; m.
public struct FloorCounter: Sendable, Equatable {
    /// Height of one floor, m. Default 3 (Apple's pedometer counts about 3 m a floor).
    public let floorHeight: Double
    /// The level of the last floor counted (the first altitude until then), m.
    public private(set) var level: Double?

    /// Creates a counter.
    /// - Parameter floorHeight: m, > 0.
    public init(floorHeight: Double = 3) {
        self.floorHeight = floorHeight
    }

    /// Feeds one altitude.
    /// - Parameter altitude: m, relative to any fixed level.
    /// - Returns: +1 for a floor climbed, −1 for one descended, 0 otherwise.
    public mutating func update(altitude: Double) -> Int {
        guard altitude.isFinite else { return 0 }
        guard let current = level else {
            level = altitude
            return 0
        }
        if altitude - current >= 0.9 * floorHeight {
            level = current + floorHeight
            return 1
        }
        if current - altitude >= 0.9 * floorHeight {
            level = current - floorHeight
            return -1
        }
        return 0
    }
}
