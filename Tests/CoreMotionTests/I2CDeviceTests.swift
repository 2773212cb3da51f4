import CoreMotion
import Foundation
import MotionHAL
import MotionTestSupport
import Testing

extension CMMotionManagerDeviceTests {
    /// CoreMotion on a real driver: an MPU-9250 emulated at register level on an emulated I²C bus, read by
    /// the I²C driver (nested so that the parent's `.serialized` keeps it off the shared device of the other tests).
    @Suite struct I2CDeviceTests {
        /// An MPU-9250 lying face up at 0x68 on a fresh bus, and the device that reads it.
        static func emulatedMPU9250() throws -> (device: I2CIMU, bus: EmulatedI2CBus, chip: EmulatedInvenSenseMPU) {
            let bus = EmulatedI2CBus()
            let chip = EmulatedInvenSenseMPU(
                model: .mpu9250,
                motion: .atRest(rotationRate: SIMD3(0, 0, 0.5), magneticField: SIMD3(0, 20, -40)))
            chip.attach(to: bus, at: 0x68)
            let device = try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68)
            return (device, bus, chip)
        }

        @Test func applesUnitsAndSignsFromTheChipsRegisters() throws {
            let (device, _, _) = try Self.emulatedMPU9250()
            #expect(device.info.driver == "mpu9250" && device.info.sensors == .all)
            CMLinuxMotionDevice.use(device)
            let manager = CMMotionManager()
            #expect(manager.isDeviceMotionAvailable && manager.isMagnetometerAvailable)
            manager.startAccelerometerUpdates()
            manager.startGyroUpdates()
            manager.startMagnetometerUpdates()
            defer {
                manager.stopAccelerometerUpdates()
                manager.stopGyroUpdates()
                manager.stopMagnetometerUpdates()
            }
            #expect(waitUntil { manager.accelerometerData != nil && manager.magnetometerData != nil })
            // Face up: −1 g on z (Apple's sign), within the ±8 g range's resolution.
            let acceleration = try #require(manager.accelerometerData).acceleration
            #expect(abs(acceleration.x) < 1e-3 && abs(acceleration.y) < 1e-3 && abs(acceleration.z + 1) < 1e-3)
            let rate = try #require(manager.gyroData).rotationRate
            #expect(abs(rate.z - 0.5) < 2e-3 && abs(rate.x) < 2e-3)
            let field = try #require(manager.magnetometerData).magneticField
            #expect(abs(field.x) < 0.3 && abs(field.y - 20) < 0.3 && abs(field.z + 40) < 0.3, "field \(field)")
        }

        @Test func aChipPulledOffTheBusIsReportedOnceAndReadAgainWhenItIsBack() throws {
            let (device, bus, chip) = try Self.emulatedMPU9250()
            CMLinuxMotionDevice.use(device)
            let manager = CMMotionManager()
            let queue = OperationQueue()
            let samples = Recorder<TimeInterval>()
            let errors = Recorder<NSError>()
            manager.accelerometerUpdateInterval = 0.02
            manager.startAccelerometerUpdates(to: queue) { data, error in
                if let error { errors.append(error as NSError) }
                if let data { samples.append(data.timestamp) }
            }
            defer { manager.stopAccelerometerUpdates() }
            #expect(waitUntil { samples.count >= 5 })

            bus.detach(address: 0x68)
            #expect(waitUntil { errors.count == 1 })
            let error = try #require(errors.all.first)
            #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorNotAvailable.rawValue))
            #expect(CMLinuxMotionDevice.diagnostics.lastFault?.contains("no chip answers at address 0x68") == true)
            Thread.sleep(forTimeInterval: 1.2)  // restarts at 0.5 s and 1.5 s fail: still one episode
            #expect(errors.count == 1)
            let countWhileGone = samples.count

            chip.attach(to: bus, at: 0x68)
            #expect(waitUntil(timeout: 5) { samples.count > countWhileGone + 5 }, "data resumes after the next restart")
            #expect(errors.count == 1)
            #expect(CMLinuxMotionDevice.diagnostics.lastFault == nil)
            queue.waitUntilAllOperationsAreFinished()
            let times = samples.all
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "timestamps increase across the loss")
        }
    }
}
