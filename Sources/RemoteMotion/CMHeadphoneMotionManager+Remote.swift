extension CMHeadphoneMotionManager {
    /// Creates a headphone manager whose headphones are a board across the network, for example a head-worn
    /// board publishing its device motion: the board's `device_motion` topic (in its `xArbitraryZVertical`
    /// frame) is the head motion, and the board's availability its connection (the delegate hears of the
    /// board going offline and coming back). A Linux addition; see ``RemoteMotionSource``.
    /// - Parameters:
    ///   - deviceID: the board's device id, e.g. `helmet-3`.
    ///   - broker: the broker's URL, `mqtt://HOST:PORT`.
    ///   - prefix: the contract's first topic level.
    /// - Throws: ``RemoteMotionError`` when the URL or id cannot be used or the broker cannot be reached
    ///   within 5 s.
    public convenience init(linuxRemoteDevice deviceID: String, broker: String, prefix: String = "motion") throws {
        let source = try RemoteMotionSource.connect(deviceID: deviceID, brokerURL: broker, prefix: prefix)
        self.init()
        useLinuxSource(source)
    }
}
