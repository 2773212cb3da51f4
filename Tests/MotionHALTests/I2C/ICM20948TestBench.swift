import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// An emulated ICM-20948 on an emulated bus, with the helpers the ICM-20948 suites share.
struct ICM20948TestBench {
    let bus = EmulatedI2CBus()
    let chip: EmulatedICM20948
    let address: UInt8
    /// The time of the chip, the driver and the device (a manual clock unless a test asks for real time).
    let time: TestTime

    /// Attaches a chip measuring `motion` at `address`, on `time` (a manual clock by default: the tests
    /// advance it instead of waiting).
    init(
        motion: EmulatedMotion = .atRest(), oscillatorError: Double = 0, whoAmI: UInt8 = 0xEA, address: UInt8 = 0x68,
        time: TestTime = .manual()
    ) {
        self.time = time
        chip = EmulatedICM20948(motion: motion, oscillatorError: oscillatorError, whoAmI: whoAmI, now: time.nanosecondSource)
        self.address = address
        chip.attach(to: bus, at: address)
    }

    /// The driver the ICM-20948 model's probe makes.
    func driver(_ configuration: ICM20948Configuration = ICM20948Configuration()) throws -> any I2CChipDriver {
        try #require(try I2CChipModel.icm20948(configuration: configuration).probe(bus, address, time: time.device))
    }

    /// The device as the agent opens it, through every known chip model.
    func device() throws -> I2CIMU {
        try I2CIMU(openingBus: { [bus] in bus }, busName: bus.name, address: address, time: time.device)
    }

    /// The device limited to the ICM-20948 with `configuration`.
    func device(_ configuration: ICM20948Configuration) throws -> I2CIMU {
        try I2CIMU(
            openingBus: { [bus] in bus }, busName: bus.name, address: address,
            models: [.icm20948(configuration: configuration)], time: time.device)
    }



    /// `0x0c` for 12: a byte as the chip's registers are written in the tests.
    static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }
}
