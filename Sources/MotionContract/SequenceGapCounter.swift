/// Messages lost on one data topic, counted as the contract defines it: `seq` counts a topic's messages
/// from 1, so a jump from `n` to `n + k` means `k − 1` were lost. A repeated or older `seq` (a re-sent or
/// restored message, or a restarted agent) is not a loss; counting goes on from it.
public struct SequenceGapCounter: Sendable, Equatable {
    /// Messages lost so far.
    public private(set) var lost: UInt64 = 0
    /// The last `seq` seen, if any.
    public private(set) var last: UInt64?

    /// A counter that has seen nothing.
    public init() {}

    /// Takes in the `seq` of the next message to arrive.
    public mutating func record(_ sequence: UInt64) {
        if let last, sequence > last + 1 { lost += sequence - last - 1 }
        last = sequence
    }
}
