extension ChipModel where Driver == any BarometerChipDriver {
    /// A TE MS5837 at 0x76, either part, told apart by its PROM's version field (0x1A: -30BA; 0x00 or
    /// 0x15: -02BA); a PROM with a valid CRC and another version is not taken for either (name the part
    /// with `chip=`). See ``MS5837Driver``.
    public static var ms5837: BarometerChipModel { te(forcing: nil) }
    /// A TE MS5837-30BA at 0x76 whatever its version field says (`chip=ms5837-30ba`; only when named).
    public static var ms5837_30ba: BarometerChipModel { te(forcing: .ms5837_30ba) }
    /// A TE MS5837-02BA at 0x76 whatever its version field says (`chip=ms5837-02ba`; only when named).
    public static var ms5837_02ba: BarometerChipModel { te(forcing: .ms5837_02ba) }

    /// The MS5837's probe. The chip has no identity register: the probe resets it (so that its PROM is
    /// loaded) and reads PROM words 0…6, and recognises it by their CRC-4 (and C1…C6 being neither all 0
    /// nor all 0xFFFF, which another chip at 0x76, such as a BMP280, or a chip still reloading answers).
    /// It touches the bus only at 0x76, and comes last in ``all``, after the chips that do have an identity
    /// register (a BMP280 / BME280 at 0x76 is recognised by its chip ID before the reset is ever sent).
    ///
    /// Unnamed (`variant` nil) a PROM that is no MS5837's, or whose version field neither datasheet gives,
    /// is not this chip (`nil`: the next model is tried); named, the part is taken as given and a PROM that
    /// is no MS5837's is an error that says why.
    private static func te(forcing variant: MS5837Variant?) -> BarometerChipModel {
        BarometerChipModel(name: variant?.modelName ?? "ms5837", addresses: [MS5837Commands.address]) {
            bus, address, time throws(IMUDeviceError) in
            guard address == MS5837Commands.address else { return nil }
            let prom: [UInt16]
            do throws(I2CBusError) { prom = try MS5837Driver.readPROM(bus: bus, address: address, time: time) } catch {
                throw IMUDeviceError(error)
            }
            if let problem = MS5837Compensation.check(prom: prom) {
                guard let variant else { return nil }
                throw .unavailable("the chip at \(I2CBusError.hex(address)) on \(bus.name) is no \(variant.name): \(problem)")
            }
            guard let part = variant ?? MS5837Variant.detect(version: MS5837Compensation.version(ofWord0: prom[0])) else {
                return nil
            }
            return MS5837Driver(bus: bus, address: address, variant: part, time: time)
        }
    }
}
