// tilt-monitor: motion code written as for an iPhone, unchanged, running on a Linux board, or reading a
// board across the network (RemoteMotion).
//
//   MOTION_DEVICE=sim swift run tilt-monitor [UPDATES]
//   swift run tilt-monitor [UPDATES] --remote DEVICE_ID [--broker mqtt://HOST:PORT]
//
// Prints roll, pitch and yaw (degrees), gravity and user acceleration (g) ten times a second from the
// handler on `OperationQueue.main`, and exits after UPDATES updates (default: runs until interrupted).
// A command-line program services the main queue only while its main thread runs the main run loop:
// that is the `RunLoop.main.run()` at the end, which an iOS app's UIApplicationMain does for it.
import CoreMotion
import RemoteMotion  // Linux: CMMotionManager(linuxRemoteDevice:broker:) for a board across the network

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } }
let remoteDevice = option("--remote")

// The one Linux line: which board. Everything after it is iPhone code.
let manager: CMMotionManager
if let remoteDevice {
    do {
        manager = try CMMotionManager(linuxRemoteDevice: remoteDevice, broker: option("--broker") ?? "mqtt://127.0.0.1:1883")
    } catch {
        print("Cannot read the remote device \(remoteDevice): \(error)")
        exit(1)
    }
} else {
    manager = CMMotionManager()
}
guard manager.isDeviceMotionAvailable else {
    print(remoteDevice == nil
        ? "Device motion is not available: no IMU (choose one with MOTION_DEVICE, for example MOTION_DEVICE=sim)"
        : "Device motion is not available on \(remoteDevice!): offline, or its device-motion service is unavailable")
    exit(1)
}

let updateLimit = arguments.first.flatMap { Int($0) }
var updates = 0

// The same negotiation an iOS app does: north when the hardware allows it, else a corrected arbitrary frame.
let frames = manager.linuxAvailableAttitudeReferenceFrames
let frame: CMAttitudeReferenceFrame =
    frames.contains(.xMagneticNorthZVertical) ? .xMagneticNorthZVertical
    : frames.contains(.xArbitraryCorrectedZVertical) ? .xArbitraryCorrectedZVertical : .xArbitraryZVertical

manager.deviceMotionUpdateInterval = 0.1
manager.startDeviceMotionUpdates(using: frame, to: .main) { motion, error in
    guard let motion else {
        print("error: \(error.map { "\($0)" } ?? "no data")")
        return
    }
    let degrees = 180 / Double.pi
    let attitude = motion.attitude
    let gravity = motion.gravity, user = motion.userAcceleration
    let line = String(
        format: "t=%.2f roll=%.1f pitch=%.1f yaw=%.1f heading=%.1f gravity=(%.3f,%.3f,%.3f) user=(%.3f,%.3f,%.3f) main=%@\n",
        motion.timestamp, attitude.roll * degrees, attitude.pitch * degrees, attitude.yaw * degrees, motion.heading,
        gravity.x, gravity.y, gravity.z, user.x, user.y, user.z, Thread.isMainThread ? "yes" : "no")
    FileHandle.standardOutput.write(Data(line.utf8))  // unbuffered: each update shows at once in a pipe
    updates += 1
    if let updateLimit, updates >= updateLimit {
        manager.stopDeviceMotionUpdates()
        exit(0)
    }
}

RunLoop.main.run()
