import MotionContract
import Testing

@testable import MotionFleet

/// The fleet ledger on an agent's Sparkplug B messages as its edge node writes them: births, data by alias,
/// deaths with their `bdSeq`, a node that is not MotionBridge's left out, and an agent heard on both the
/// contract and Sparkplug listed once.
@Suite struct FleetLedgerSparkplugTests {
    private static let now = 1_796_139_113.0

    private static func payload(_ metrics: [SparkplugMetric], seq: UInt64? = 0) -> [UInt8] {
        SparkplugPayload(timestamp: 1, metrics: metrics, seq: seq).encoded()
    }

    private static func nodeBirth(bdSeq: Int64) -> [UInt8] {
        payload([
            SparkplugMetric(name: SparkplugMetricName.birthDeathSequence, value: .int64(bdSeq)),
            SparkplugMetric(name: SparkplugMetricName.rebirth, value: .boolean(false)),
            SparkplugMetric(name: SparkplugMetricName.version, alias: 1, value: .string("1.9.0")),
            SparkplugMetric(name: SparkplugMetricName.deviceID, alias: 2, value: .string("press-7")),
            SparkplugMetric(name: SparkplugMetricName.imu, alias: 3, value: .string("LSM6DSOX")),
        ])
    }

    private static func death(bdSeq: Int64) -> [UInt8] {
        payload([SparkplugMetric(name: SparkplugMetricName.birthDeathSequence, value: .int64(bdSeq))], seq: nil)
    }

    private static let gyroBirth = payload([
        SparkplugMetric(name: SparkplugMetricName.running, alias: 10, value: .boolean(true)),
        SparkplugMetric(name: SparkplugMetricName.interval, alias: 11, value: .double(0.02)),
        SparkplugMetric(name: SparkplugMetricName.available, alias: 12, value: .boolean(true)),
        SparkplugMetric(name: SparkplugMetricName.unavailableReason, alias: 13, value: .string("")),
        SparkplugMetric(name: "x", alias: 14, nullOf: .float),
    ])

    private static func gyroData(_ x: Float) -> [UInt8] {
        payload([SparkplugMetric(name: nil, alias: 14, value: .float(x))], seq: 3)
    }

    @Test func aSparkplugOnlyAgentIsListedFromItsBirthsDataAndDeath() throws {
        var ledger = FleetLedger(prefix: "motion")
        ledger.receive(topic: "spBv1.0/plant-1/NBIRTH/press-7", payload: Self.nodeBirth(bdSeq: 4), retained: false, arrival: Self.now - 3)
        ledger.receive(topic: "spBv1.0/plant-1/DBIRTH/press-7/gyro", payload: Self.gyroBirth, retained: false, arrival: Self.now - 3)
        for index in 0..<10 {
            ledger.receive(
                topic: "spBv1.0/plant-1/DDATA/press-7/gyro", payload: Self.gyroData(Float(index)), retained: false,
                arrival: Self.now - 2 + Double(index) / 10)
        }
        // The interval written by a host, echoed by alias: a control metric, not a sample.
        ledger.receive(
            topic: "spBv1.0/plant-1/DDATA/press-7/gyro", payload: Self.payload([SparkplugMetric(name: nil, alias: 11, value: .double(0.5))]),
            retained: false, arrival: Self.now - 1)
        let device = try #require(ledger.summaries(now: Self.now, listened: 2).first)
        #expect(device.deviceID == "press-7" && device.state == .online && device.sparkplug == "plant-1/press-7")
        #expect(device.agentVersion == "1.9.0" && device.imu == "LSM6DSOX" && device.contractVersion == nil)
        #expect(device.lastSeen == Self.now - 1)
        let gyro = try #require(device.services.first)
        #expect(device.services.count == 1 && gyro.service == .gyro && gyro.state == "active")
        #expect(gyro.status?.interval == 0.5 && gyro.measuredRate == 5)
        #expect(FleetTable.render([device], now: Self.now).contains("1.9.0, Sparkplug B"))
        #expect(FleetTable.json([device], now: Self.now).contains(#""sparkplug":"plant-1/press-7""#))

        // A late will of an earlier connection says nothing; this connection's death makes it offline.
        ledger.receive(topic: "spBv1.0/plant-1/NDEATH/press-7", payload: Self.death(bdSeq: 3), retained: false, arrival: Self.now)
        #expect(ledger.summaries(now: Self.now, listened: 2).first?.state == .online)
        ledger.receive(topic: "spBv1.0/plant-1/NDEATH/press-7", payload: Self.death(bdSeq: 4), retained: false, arrival: Self.now)
        #expect(ledger.summaries(now: Self.now, listened: 2).first?.state == .offline)
        // A device's death makes its service unavailable, with the reason.
        ledger.receive(topic: "spBv1.0/plant-1/NBIRTH/press-7", payload: Self.nodeBirth(bdSeq: 5), retained: false, arrival: Self.now)
        ledger.receive(topic: "spBv1.0/plant-1/DBIRTH/press-7/gyro", payload: Self.gyroBirth, retained: false, arrival: Self.now)
        ledger.receive(topic: "spBv1.0/plant-1/DDEATH/press-7/gyro", payload: Self.payload([]), retained: false, arrival: Self.now)
        let dead = ledger.summaries(now: Self.now, listened: 2).first?.services.first
        #expect(ledger.summaries(now: Self.now, listened: 2).first?.state == .online && dead?.state == "unavailable")
    }

    @Test func nodesThatAreNotMotionBridgesAndMalformedPayloadsAreLeftOut() {
        var ledger = FleetLedger(prefix: "motion")
        // A PLC's edge node: its own metrics, a device that is no service of the agent.
        ledger.receive(
            topic: "spBv1.0/plant-1/NBIRTH/plc-3",
            payload: Self.payload([SparkplugMetric(name: SparkplugMetricName.birthDeathSequence, value: .int64(0))]),
            retained: false, arrival: Self.now)
        ledger.receive(topic: "spBv1.0/plant-1/DDATA/plc-3/line-1", payload: Self.gyroData(1), retained: false, arrival: Self.now)
        ledger.receive(topic: "spBv1.0/plant-1/DDATA/press-7/gyro", payload: [0xFF, 0xFF], retained: false, arrival: Self.now)
        ledger.receive(topic: "spBv1.0/STATE/scada", payload: Array(#"{"online":true,"timestamp":1}"#.utf8), retained: true, arrival: Self.now)
        #expect(ledger.summaries(now: Self.now, listened: 2).isEmpty)
        #expect(ledger.sparkplugNodesWithoutBirth.isEmpty)
        // Data of an agent's service without a birth: listed (online, heard), and named for a rebirth.
        ledger.receive(topic: "spBv1.0/plant-1/DDATA/press-8/gyro", payload: Self.gyroData(1), retained: false, arrival: Self.now)
        #expect(ledger.summaries(now: Self.now, listened: 2).map(\.deviceID) == ["press-8"])
        #expect(ledger.sparkplugNodesWithoutBirth.map(\.edgeNode) == ["press-8"])
    }

    @Test func anAgentHeardOnBothIsOneDeviceStatedByItsContract() throws {
        var ledger = FleetLedger(prefix: "motion")
        ledger.receive(topic: "motion/press-7/status", payload: Array("offline".utf8), retained: true, arrival: Self.now)
        ledger.receive(topic: "spBv1.0/plant-1/NBIRTH/press-7", payload: Self.nodeBirth(bdSeq: 0), retained: false, arrival: Self.now)
        let devices = ledger.summaries(now: Self.now, listened: 2)
        #expect(devices.count == 1 && devices[0].state == .offline && devices[0].sparkplug == "plant-1/press-7")
    }
}
