import MotionHAL
import MotionTestSupport
import Testing

/// Recognising the parts by WHO_AM_I, and the errors when nothing or something unknown answers.
@Suite struct InvenSenseProbeTests {
    private let invenSenseModels: [I2CChipModel] = [.mpu6050, .mpu6500, .mpu9250, .mpu9255]

    @Test(arguments: EmulatedInvenSenseModel.allCases)
    func eachVariantIsRecognisedByItsWhoAmI(model: EmulatedInvenSenseModel) throws {
        let (bus, _) = InvenSenseTestSupport.bus(model)
        for variant in InvenSenseVariant.all {
            let driver = try InvenSenseMPU.probe(bus: bus, address: 0x68, variant: variant)
            let matches = variant == InvenSenseTestSupport.variant(model)
            #expect((driver != nil) == matches, "\(variant.name) probing \(model)")
        }
        // Through the catalog, as `i2c:BUS@0x68` does.
        let device = try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68)
        #expect(device.model.name == InvenSenseTestSupport.variant(model).name)
        #expect(device.info.driver == InvenSenseTestSupport.variant(model).name)
        #expect(device.info.sensors == (model.hasMagnetometer ? .all : [.accelerometer, .gyroscope]))
        #expect(device.info.supportedSampleRates == 4...1000)
    }

    @Test func theSecondAddressWorks() throws {
        let (bus, _) = InvenSenseTestSupport.bus(.mpu6050, address: 0x69)
        let device = try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x69, models: invenSenseModels)
        #expect(device.model.name == "mpu6050")
        #expect(I2CChipModel.mpu6050.addresses == [0x68, 0x69])
    }

    @Test func anUnknownWhoAmIIsNoneOfTheSupportedChips() throws {
        let (bus, _) = InvenSenseTestSupport.bus(.mpu9250, whoAmI: 0x42)
        for variant in InvenSenseVariant.all {
            #expect(try InvenSenseMPU.probe(bus: bus, address: 0x68, variant: variant) == nil)
        }
        #expect(
            throws: IMUDeviceError.unavailable(
                "the chip at 0x68 on emulated-i2c is none of the supported chips (mpu6050, mpu6500, mpu9250, mpu9255)")
        ) {
            try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68, models: invenSenseModels)
        }
    }

    @Test func anEmptyAddressIsUnavailable() {
        let (bus, _) = InvenSenseTestSupport.bus(.mpu6050)
        #expect(throws: IMUDeviceError.unavailable("no chip answers at address 0x69 on emulated-i2c")) {
            try InvenSenseMPU.probe(bus: bus, address: 0x69, variant: .mpu6050)
        }
        #expect(throws: IMUDeviceError.unavailable("no chip answers at address 0x69 on emulated-i2c")) {
            try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x69, models: invenSenseModels)
        }
    }

    @Test func theCatalogHoldsEveryVariant() {
        let names = I2CChipModel.all.map(\.name)
        for variant in InvenSenseVariant.all { #expect(names.contains(variant.name)) }
    }
}
