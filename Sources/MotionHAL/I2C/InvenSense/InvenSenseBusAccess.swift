#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the InvenSense drivers share for talking to their chips: bus errors as device errors, and waits.
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

    /// Sleeps the calling thread for at least `seconds`.
    static func pause(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
