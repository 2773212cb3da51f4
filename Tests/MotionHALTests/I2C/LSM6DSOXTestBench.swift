import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// An emulated LSM6DSOX at 0x6A, optionally with an emulated LIS3MDL, on one emulated bus: the FeatherWing.
struct LSM6DSOXTestBench {
    let bus = EmulatedI2CBus()
    let chip: EmulatedLSM6DSOX
    let magnetometer: EmulatedLIS3MDL?
    let address: UInt8 = 0x6A
    /// The time of the chips, the driver and the device (a manual clock unless a test asks for real time).
    let time: TestTime

    /// Attaches the chips, both measuring `motion`.
    /// - Parameters:
    ///   - motion: the physical input (the magnetometer reads its `magneticField`).
    ///   - magnetometerAddress: where to attach a LIS3MDL; `nil` for none.
    ///   - oscillatorError: relative clock error of both chips.
    ///   - whoAmI: the identity the LSM6DSOX reports.
    ///   - accelerometerWordFirst: FIFO word order inside a slot.
    ///   - time: the chips' and the driver's time (a manual clock by default: the tests advance it).
    init(
        motion: EmulatedMotion = .atRest(), magnetometerAddress: UInt8? = nil, oscillatorError: Double = 0,
        whoAmI: UInt8 = 0x6C, accelerometerWordFirst: Bool = false, time: TestTime = .manual()
    ) {
        self.time = time
        chip = EmulatedLSM6DSOX(
            motion: motion, oscillatorError: oscillatorError, whoAmI: whoAmI,
            accelerometerWordFirst: accelerometerWordFirst, now: time.nanosecondSource)
        bus.attach(chip, at: address)
        if let magnetometerAddress {
            let magnetometer = EmulatedLIS3MDL(motion: motion, oscillatorError: oscillatorError, now: time.nanosecondSource)
            bus.attach(magnetometer, at: magnetometerAddress)
            self.magnetometer = magnetometer
        } else {
            magnetometer = nil
        }
    }

    /// The driver the LSM6DSOX model's probe makes.
    func driver(_ model: I2CChipModel = .lsm6dsox) throws -> LSM6DSOXDriver {
        let driver = try #require(try model.probe(bus, address, time: time.device))
        return try #require(driver as? LSM6DSOXDriver)
    }

    /// The device as the agent opens it, through every known chip model.
    func device() throws -> I2CIMU {
        try I2CIMU(openingBus: { [bus] in bus }, busName: bus.name, address: address, time: time.device)
    }

    /// The device limited to `model`.
    func device(_ model: I2CChipModel) throws -> I2CIMU {
        try I2CIMU(openingBus: { [bus] in bus }, busName: bus.name, address: address, models: [model], time: time.device)
    }



    /// The median gap between consecutive timestamps, ns.
    static func medianSpacing(_ samples: [IMUSample]) -> Double {
        let gaps = zip(samples, samples.dropFirst()).map { Double($1.timestamp) - Double($0.timestamp) }.sorted()
        return gaps.isEmpty ? 0 : gaps[gaps.count / 2]
    }
}
