/// Whether a pair of headphones is connected, told from what its device delivers: a sample means it is
/// there, a fault (gone from its bus or its link, or silent) means it left. Pure value; each change is
/// reported once.
struct HeadphoneConnection: Sendable, Equatable {
    /// A change of connection.
    enum Change: Sendable, Equatable {
        /// The headphones connected (their first sample since the last change).
        case connected
        /// The headphones disconnected (a fault after samples).
        case disconnected
    }

    /// Whether the headphones are connected now.
    private(set) var isConnected = false

    /// Notes a sample; `.connected` when it is the first since the headphones were last seen.
    mutating func sampleArrived() -> Change? {
        guard !isConnected else { return nil }
        isConnected = true
        return .connected
    }

    /// Notes a fault; `.disconnected` when the headphones were connected.
    mutating func faulted() -> Change? {
        guard isConnected else { return nil }
        isConnected = false
        return .disconnected
    }

    /// Forgets the connection (monitoring stopped): the next sample reports `.connected` again.
    mutating func reset() {
        isConnected = false
    }
}
