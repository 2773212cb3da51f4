/// What the InvenSense drivers share for talking to their chips: bus errors as device errors.
enum InvenSenseBusAccess {
    /// Runs bus transfers, turning a bus failure into the device error ``IMUDeviceError/init(_:)`` gives
    /// (a chip that does not answer is unavailable, anything else a failed read).
    static func transfer<Result>(_ body: () throws(I2CBusError) -> Result) throws(IMUDeviceError) -> Result {
        do {
            return try body()
        } catch {
            throw IMUDeviceError(error)
        }
    }
}
