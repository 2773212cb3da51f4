/// One kind of barometer chip the I²C driver (``I2CBarometer``) knows: its catalog is ``all``.
public typealias BarometerChipModel = ChipModel<any BarometerChipDriver>

extension ChipModel where Driver == any BarometerChipDriver {
    /// The Bosch BMP280 (chip ID 0x58 at 0xD0) at 0x76 or 0x77: see ``BoschBarometerDriver``.
    public static var bmp280: BarometerChipModel { bosch(.bmp280) }
    /// The Bosch BME280 (chip ID 0x60 at 0xD0) at 0x76 or 0x77, with relative humidity: see ``BoschBarometerDriver``.
    public static var bme280: BarometerChipModel { bosch(.bme280) }
    /// The ST LPS22HB (WHO_AM_I 0xB1 at 0x0F) at 0x5C or 0x5D: see ``STPressureDriver``.
    public static var lps22hb: BarometerChipModel { st(.lps22hb) }
    /// The ST LPS22DF (WHO_AM_I 0xB4 at 0x0F) at 0x5C or 0x5D: see ``STPressureDriver``.
    public static var lps22df: BarometerChipModel { st(.lps22df) }

    /// Every chip the driver supports, in the order they are probed: the chips with an identity register
    /// first, the MS5837 (recognised by a reset and its PROM) last.
    public static var all: [BarometerChipModel] { [.bmp280, .bme280, .lps22hb, .lps22df, .ms5837] }

    /// Models that only a `chip=` option selects, never probed unnamed: the MS5837 parts taken as named
    /// whatever their version field says.
    public static var namedOnly: [BarometerChipModel] { [.ms5837_30ba, .ms5837_02ba] }

    /// The models a `chip=` option allows: every model of ``all`` for `nil`, else the one of that name
    /// (in ``all`` or ``namedOnly``).
    /// - Parameter name: a model name such as `bmp280`, or `nil`.
    /// - Throws: ``IMUDeviceError/invalidSpecification(_:)`` for a name no model has (the message lists
    ///   the known ones).
    public static func models(named name: String?) throws(IMUDeviceError) -> [BarometerChipModel] {
        guard name != nil else { return all }
        return try models(named: name, in: all + namedOnly, kind: "barometer chip")
    }

    private static func bosch(_ variant: BoschBarometerVariant) -> BarometerChipModel {
        BarometerChipModel(
            name: variant.name.lowercased(), addresses: BoschBarometerRegisterMap.addresses,
            identityRegister: BoschBarometerRegisterMap.chipIdentity, identity: variant.chipIdentity
        ) { bus, address, time in BoschBarometerDriver(bus: bus, address: address, variant: variant, time: time) }
    }

    private static func st(_ variant: STPressureVariant) -> BarometerChipModel {
        BarometerChipModel(
            name: variant.name.lowercased(), addresses: STPressureRegisterMap.addresses,
            identityRegister: STPressureRegisterMap.whoAmI, identity: variant.identity
        ) { bus, address, time in STPressureDriver(bus: bus, address: address, variant: variant, time: time) }
    }
}
