import MotionContract
import MotionMath
import Testing

import MotionEngine
@testable import MotionAgent
import MQTT

/// The payloads' exact bytes for fixed inputs, recorded before the contract moved into its own module
/// (issue 13), measurements in single precision since the fleet simulator's work (issue 14): a
/// refactoring must not change a single byte a subscriber receives.
@Suite struct PayloadGoldenTests {
    private let encoder = SamplePayloadEncoder(wallClockOffset: 1_796_118_483.67683)

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func vectorSamples() {
        let sample = VectorSample(timestamp: 11052.537661835, value: SIMD3(0.16488682866286367, -0.39854634129245725, -0.9022046040538142))
        #expect(text(encoder.encode([sample], service: .accelerometer, seq: 1)) == #"{"seq":1,"timestamp":11052.537661835,"ts":1796129536.2144918,"acceleration":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463}}"#)
        #expect(text(encoder.encode([sample], service: .gyro, seq: 2)) == #"{"seq":2,"timestamp":11052.537661835,"ts":1796129536.2144918,"rotationRate":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463}}"#)
        #expect(text(encoder.encode([sample], service: .magnetometer, seq: 3, batched: true)) == #"{"seq":3,"samples":[{"timestamp":11052.537661835,"ts":1796129536.2144918,"magneticField":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463}}]}"#)
        let later = VectorSample(timestamp: 11052.557661835, value: SIMD3(7.704630263920252, -0.2252366353899588, -47.8699218724791))
        #expect(text(encoder.encode([sample, later], service: .magnetometer, seq: 18446744073709551615)) == #"{"seq":18446744073709551615,"samples":[{"timestamp":11052.537661835,"ts":1796129536.2144918,"magneticField":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463}},{"timestamp":11052.557661835,"ts":1796129536.2344918,"magneticField":{"x":7.7046304,"y":-0.22523664,"z":-47.869923}}]}"#)
    }

    private var deviceMotion: DeviceMotionSample {
        DeviceMotionSample(
            timestamp: 11052.537661835,
            attitude: Quaternion(w: 0.6783676357856111, x: 0.2028646030318887, y: -0.08799801594244677, z: -0.70065658688515),
            rotationRate: SIMD3(0.16766052719067223, 0.32789033559009473, 0.23270958170061576),
            gravity: SIMD3(0.16488682866286367, -0.39854634129245725, -0.9022046040538142),
            userAcceleration: SIMD3(0.0001435161614059821, -0.00034689151042888167, -0.0007852715867400217),
            magneticField: SIMD3(7.384948744292167, 0.0024031681667380095, -47.94600481524212),
            magneticAccuracy: .low, heading: 4.010669717779691)
    }

    @Test func deviceMotionSamples() {
        #expect(text(encoder.encode([deviceMotion], seq: 1)) == #"{"seq":1,"timestamp":11052.537661835,"ts":1796129536.2144918,"attitude":{"quaternion":{"x":0.2028646,"y":-0.08799802,"z":-0.7006566,"w":0.6783676},"roll":0.18076494,"pitch":0.40993133,"yaw":-1.6407957},"rotationRate":{"x":0.16766053,"y":0.32789034,"z":0.23270959},"gravity":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463},"userAcceleration":{"x":0.00014351617,"y":-0.00034689152,"z":-0.0007852716},"magneticField":{"field":{"x":7.3849487,"y":0.0024031682,"z":-47.946003},"accuracy":"low"},"heading":4.0106697}"#)
        var second = deviceMotion
        second.timestamp += 0.02
        second.magneticAccuracy = .uncalibrated
        second.heading = -1
        #expect(text(encoder.encode([deviceMotion, second], seq: 2)) == #"{"seq":2,"samples":[{"timestamp":11052.537661835,"ts":1796129536.2144918,"attitude":{"quaternion":{"x":0.2028646,"y":-0.08799802,"z":-0.7006566,"w":0.6783676},"roll":0.18076494,"pitch":0.40993133,"yaw":-1.6407957},"rotationRate":{"x":0.16766053,"y":0.32789034,"z":0.23270959},"gravity":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463},"userAcceleration":{"x":0.00014351617,"y":-0.00034689152,"z":-0.0007852716},"magneticField":{"field":{"x":7.3849487,"y":0.0024031682,"z":-47.946003},"accuracy":"low"},"heading":4.0106697},{"timestamp":11052.557661835,"ts":1796129536.2344918,"attitude":{"quaternion":{"x":0.2028646,"y":-0.08799802,"z":-0.7006566,"w":0.6783676},"roll":0.18076494,"pitch":0.40993133,"yaw":-1.6407957},"rotationRate":{"x":0.16766053,"y":0.32789034,"z":0.23270959},"gravity":{"x":0.16488683,"y":-0.39854634,"z":-0.90220463},"userAcceleration":{"x":0.00014351617,"y":-0.00034689152,"z":-0.0007852716},"magneticField":{"field":{"x":7.3849487,"y":0.0024031682,"z":-47.946003},"accuracy":"uncalibrated"},"heading":-1.0}]}"#)
    }

    @Test func serviceStatuses() {
        #expect(ServiceStatus(available: true, active: true, interval: 0.02).json() == #"{"available":true,"active":true,"interval":0.02,"rate_hz":50.0}"#)
        #expect(ServiceStatus(available: true, active: false, interval: 0.03, referenceFrame: "xMagneticNorthZVertical").json() == #"{"available":true,"active":false,"interval":0.03,"rate_hz":33.333,"frame":"xMagneticNorthZVertical"}"#)
        #expect(ServiceStatus(available: false, active: true, interval: 0.05, error: "the device has no magnetometer \"x\"").json() == #"{"available":false,"active":true,"interval":0.05,"rate_hz":20.0,"error":"the device has no magnetometer \"x\""}"#)
    }

    @Test func health() {
        var statistics = MQTTClientStatistics()
        statistics.messagesPublished = 1234
        statistics.publishErrors = 1
        statistics.reconnects = 2
        statistics.bufferedMessages = 3
        statistics.bufferedBytes = 456
        statistics.droppedFromBuffer = 4
        statistics.droppedWhileDisconnected = 5
        statistics.expiredInBuffer = 6
        statistics.offlineBufferIsDurable = true
        let diagnostics = MotionDiagnostics(
            driver: "sim", configuredSampleRate: 200, isRunning: true, achievedSampleRate: 199.96,
            samplesReceived: 123_456, faultsSeen: 1, lastFault: "stalled",
            fusion: [.init(referenceFrame: .xMagneticNorthZVertical, isInitialized: true, gyroscopeBias: SIMD3(1e-4, -2e-5, 0))])
        var report = HealthReport(
            uptime: 12.34567, unixTime: 1_796_139_113.4567, interval: 10, connected: true, diagnostics: diagnostics, broker: statistics, protocolVersion: .v5,
            commandsDropped: 7)
        report.services = [
            .init(service: .accelerometer, active: true, messages: 500, samples: 2000, messageRate: 49.96, error: nil),
            .init(service: .deviceMotion, active: false, messages: 0, samples: 0, messageRate: nil, error: "no data"),
        ]
        #expect(report.json() == #"{"uptime":12.346,"ts":1796139113.457,"interval":10.0,"connected":true,"device":{"driver":"sim","running":true,"configured_rate_hz":200.0,"achieved_rate_hz":200.0,"samples":123456,"faults":1,"fault":"stalled"},"mqtt":{"protocol":"5","published":1234,"publish_errors":1,"reconnects":2,"queue_depth":3,"queued_bytes":456,"dropped_from_buffer":4,"dropped_while_disconnected":5,"expired_in_buffer":6,"queue_durable":true,"commands_dropped":7},"services":{"accelerometer":{"active":true,"messages":500,"samples":2000,"rate_hz":50.0},"device-motion":{"active":false,"messages":0,"samples":0,"error":"no data"}},"fusion":[{"frame":"xMagneticNorthZVertical","initialized":true,"gyro_bias":{"x":0.0001,"y":-2e-05,"z":0.0}}],"magnetic_disturbance":false}"#)
        let bare = HealthReport(
            uptime: 0, unixTime: 1_000_000_000, interval: 1, connected: false,
            diagnostics: MotionDiagnostics(
                driver: nil, configuredSampleRate: 0, isRunning: false, achievedSampleRate: 0, samplesReceived: 0,
                faultsSeen: 0, lastFault: nil, fusion: []),
            broker: MQTTClientStatistics(), protocolVersion: .v311)
        #expect(bare.json() == #"{"uptime":0.0,"ts":1000000000.0,"interval":1.0,"connected":false,"device":{"running":false,"configured_rate_hz":0.0,"achieved_rate_hz":0.0,"samples":0,"faults":0},"mqtt":{"protocol":"3.1.1","published":0,"publish_errors":0,"reconnects":0,"queue_depth":0,"queued_bytes":0,"dropped_from_buffer":0,"dropped_while_disconnected":0,"expired_in_buffer":0,"queue_durable":false,"commands_dropped":0},"services":{},"fusion":[]}"#)
    }
}
