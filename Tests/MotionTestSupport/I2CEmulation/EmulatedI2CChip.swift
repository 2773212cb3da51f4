/// A chip on an ``EmulatedI2CBus``: its register file and whatever behaviour the registers have (FIFO ports,
/// auto-increment rules, bank switching, self-clearing bits).
///
/// Implementations keep their own lock: the bus calls them from whatever thread the driver runs on.
public protocol EmulatedI2CChip: AnyObject, Sendable {
    /// Answers a combined read: `count` bytes starting at `register`, following the chip's addressing rules
    /// (a real chip answers every read; registers it lacks read as 0).
    func read(startingAt register: UInt8, count: Int) -> [UInt8]

    /// Takes a write of `bytes` starting at `register`, following the chip's addressing rules.
    func write(startingAt register: UInt8, bytes: [UInt8])
}
