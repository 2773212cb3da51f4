@_exported import CoreMotion
import MQTT

extension CMMotionManager {
    /// Creates a manager for a board across the network: its services read the board's topics on an MQTT
    /// broker (docs/MQTT-CONTRACT.md) with Apple's API: start methods, handlers on their queues, pull
    /// properties, availability from the board's retained status. A Linux addition. See
    /// ``RemoteMotionSource`` for what start and stop do on the board.
    /// - Parameters:
    ///   - deviceID: the board's device id, e.g. `board-7`.
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

extension RemoteMotionSource {
    /// The source of board `deviceID` on the broker at `brokerURL` (`mqtt://HOST:PORT`), for the managers'
    /// `init(linuxRemoteDevice:broker:prefix:)`.
    /// - Throws: ``RemoteMotionError`` when the URL or id cannot be used or the broker cannot be reached
    ///   within 5 s.
    static func connect(deviceID: String, brokerURL: String, prefix: String) throws -> RemoteMotionSource {
        let address: MQTTBrokerAddress
        do {
            address = try MQTTBrokerAddress(url: brokerURL)
        } catch {
            throw RemoteMotionError.invalidBroker("\(error)")
        }
        return try RemoteMotionSource(deviceID: deviceID, broker: address, prefix: prefix)
    }
}
