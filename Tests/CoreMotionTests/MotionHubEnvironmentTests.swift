@testable import CoreMotion
import Foundation
import MotionHAL
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `MOTION_DEVICE` fallback, on private hubs (the shared one is left to the device suite).
@Suite(.serialized) struct MotionHubEnvironmentTests {
    @Test func motionDeviceVariableChoosesTheDevice() {
        setenv("MOTION_DEVICE", "sim:rate=500,motion=stationary", 1)
        defer { unsetenv("MOTION_DEVICE") }
        let info = MotionHub().deviceInfo
        #expect(info?.driver == "sim")
        #expect(info?.defaultSampleRate == 500)
    }

    @Test func withoutTheVariableOrAnIIOIMUThereIsNoDevice() {
        guard IIODeviceDiscovery().detectedIMUSpecification() == nil else { return }  // a board with an IMU
        unsetenv("MOTION_DEVICE")
        #expect(MotionHub().deviceInfo == nil)
    }

    @Test func anInvalidSpecificationMeansNoDevice() {
        setenv("MOTION_DEVICE", "sim:rate=fast", 1)
        defer { unsetenv("MOTION_DEVICE") }
        #expect(MotionHub().deviceInfo == nil)
    }

    @Test func mountMatrixVariableTurnsTheDevicesAxes() {
        setenv("MOTION_DEVICE", "sim:motion=stationary", 1)
        setenv("MOTION_MOUNT_MATRIX", "0, 1, 0; -1, 0, 0; 0, 0, 1", 1)
        defer {
            unsetenv("MOTION_DEVICE")
            unsetenv("MOTION_MOUNT_MATRIX")
        }
        #expect(MotionHub().deviceInfo?.chip.hasSuffix("(mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1)") == true)
        // Wrong axes would be worse than none: an unreadable matrix means no device.
        setenv("MOTION_MOUNT_MATRIX", "0, 1, 0; -1, 0, 0", 1)
        #expect(MotionHub().deviceInfo == nil)
    }
}
