import MotionContract
import MotionMath
import MotionModel
import Testing

/// The SenML forms of the sample topics (RFC 8428), byte for byte: names, units converted to SenML's
/// registered ones, base time and relative times, and CBOR's integer labels. schemas/senml_decode.py reads
/// the agent's packs with kpn-senml in SenMLIntegrationTests.
@Suite struct SenMLPackTests {
    static func encoder() -> SamplePayloadEncoder {
        var encoder = SamplePayloadEncoder(wallClockOffset: 1_800_000_000)
        encoder.senmlBaseName = "urn:dev:mac:0024beffff804ff1_pump-7:"
        return encoder
    }

    @Test func aBatchIsOnePackWithBaseNameBaseTimeAndRelativeTimes() {
        let samples = [VectorSample(timestamp: 10, value: SIMD3(0, 0.5, -1)), VectorSample(timestamp: 10.1, value: SIMD3(0, 0, -1))]
        let json = String(decoding: Self.encoder().encode(samples, service: .accelerometer, seq: 4, format: .senmlJSON), as: UTF8.self)
        #expect(json == """
            [{"bn":"urn:dev:mac:0024beffff804ff1_pump-7:accelerometer:","bt":1800000010.0,"n":"x","u":"m/s2","v":0.0},\
            {"n":"y","u":"m/s2","v":4.903325},{"n":"z","u":"m/s2","v":-9.80665},\
            {"n":"x","u":"m/s2","v":0.0,"t":0.1},{"n":"y","u":"m/s2","v":0.0,"t":0.1},{"n":"z","u":"m/s2","v":-9.80665,"t":0.1}]
            """)
        let gyro = String(decoding: Self.encoder().encode([samples[0]], service: .gyro, seq: 1, format: .senmlJSON), as: UTF8.self)
        #expect(gyro.contains(#""n":"z","u":"rad/s","v":-1.0}"#))
        let field = String(decoding: Self.encoder().encode([VectorSample(timestamp: 10, value: SIMD3(20, 0, -40))], service: .magnetometer, seq: 1, format: .senmlJSON), as: UTF8.self)
        #expect(field.contains(#""n":"x","u":"T","v":2e-05}"#) && field.contains(#""n":"z","u":"T","v":-4e-05}"#))
    }

    @Test func cborUsesTheIntegerLabels() {
        let samples = [VectorSample(timestamp: 10, value: SIMD3(0, 0, -1)), VectorSample(timestamp: 10.5, value: SIMD3(0, 0, -1))]
        let bytes = Self.encoder().encode(samples, service: .gyro, seq: 1, format: .senmlCBOR)
        // An array of 6 maps; the first has bn (−2: 0x21), bt (−3: 0x22), n (0), u (1), v (2).
        #expect(Array(bytes.prefix(3)) == [0x86, 0xA5, 0x21])
        let baseName = Array("urn:dev:mac:0024beffff804ff1_pump-7:gyro:".utf8)
        #expect(Array(bytes[3...4]) == [0x78, UInt8(baseName.count)] && Array(bytes[5..<5 + baseName.count]) == baseName)
        // bt: a double (0xFB) of 1800000010.0.
        let afterName = 5 + baseName.count
        #expect(bytes[afterName] == 0x22 && bytes[afterName + 1] == 0xFB)
        // The last record: n "z", u, v as a single-precision float (0xFA), t (6) = 0.5 as a double.
        #expect(Array(bytes.suffix(10)) == [0x06, 0xFB, 0x3F, 0xE0, 0, 0, 0, 0, 0, 0])
        #expect(PayloadFormat.of(bytes) == .senmlCBOR)
        #expect(PayloadFormat.of(Self.encoder().encode(samples, service: .gyro, seq: 1, format: .senmlJSON)) == .senmlJSON)
    }

    @Test func deviceMotionConvertsToRegisteredUnitsAndLeavesOutAHeadingWithoutNorth() {
        var sample = DeviceMotionSample(
            timestamp: 5, attitude: Quaternion(w: 1, x: 0, y: 0, z: 0), rotationRate: SIMD3(0.1, 0, 0), gravity: SIMD3(0, 0, -1),
            userAcceleration: .zero, magneticField: SIMD3(20, 0, -40), magneticAccuracy: .high, heading: 90)
        let pack = String(decoding: Self.encoder().encode([sample], seq: 1, format: .senmlJSON), as: UTF8.self)
        #expect(pack.contains(#"{"n":"attitude:w","v":1.0}"#) && pack.contains(#"{"n":"gravity:z","u":"m/s2","v":-9.80665}"#))
        #expect(pack.contains(#"{"n":"magneticField:accuracy","vs":"high"}"#))
        #expect(pack.contains(#"{"n":"heading","u":"rad","v":1.5707964}"#))
        sample.heading = -1
        let withoutNorth = String(decoding: Self.encoder().encode([sample], seq: 1, format: .senmlJSON), as: UTF8.self)
        #expect(!withoutNorth.contains("heading"))
    }

    @Test func aReadingThatIsNotANumberIsLeftOutNotWrittenAsNull() {
        let samples = [VectorSample(timestamp: 10, value: SIMD3(.nan, 0, -1)), VectorSample(timestamp: 10.1, value: SIMD3(.infinity, 1e39, -1))]
        let json = String(decoding: Self.encoder().encode(samples, service: .gyro, seq: 1, format: .senmlJSON), as: UTF8.self)
        #expect(json == """
            [{"bn":"urn:dev:mac:0024beffff804ff1_pump-7:gyro:","bt":1800000010.0,"n":"y","u":"rad/s","v":0.0},\
            {"n":"z","u":"rad/s","v":-1.0},{"n":"z","u":"rad/s","v":-1.0,"t":0.1}]
            """)
        #expect(!json.contains("null"))
    }

    @Test func aSenMLPayloadIsNotTakenForTheContractsOwnForm() throws {
        let payload = Self.encoder().encode([VectorSample(timestamp: 1, value: .zero)], service: .gyro, seq: 1, format: .senmlJSON)
        #expect(throws: PayloadError(
            fieldPath: "", reason: "a SenML pack (senml+json), not the contract's own form: read it with a SenML decoder, or set the topic's format to json or cbor")) {
            _ = try SamplePayloadDecoder.vectors(payload, service: .gyro)
        }
    }
}
