import Testing

@testable import motionctl

/// `motionctl watch`'s live table, from payloads as the broker delivers them.
@Suite struct WatchBoardTests {
    @Test func watchBoardShowsValuesRatesAndLoss() {
        let board = WatchBoard(prefix: "motion", rateWindow: 1)
        board.receive(topic: "motion/pi/status", payload: Array("online".utf8), arrival: 0)
        board.receive(topic: "motion/pi/gyro/status", payload: Array(#"{"available":true,"active":true,"interval":0.1,"rate_hz":10}"#.utf8), arrival: 0)
        board.receive(topic: "motion/pi/magnetometer/status",
                      payload: Array(#"{"available":false,"active":false,"interval":0.1,"rate_hz":10,"error":"no magnetometer"}"#.utf8), arrival: 0)
        for (index, seq) in [1, 2, 3, 4, 5, 8, 9, 10].enumerated() {
            board.receive(topic: "motion/pi/gyro", payload: Array(#"{"seq":\#(seq),"timestamp":\#(seq),"ts":\#(seq),"rotationRate":{"x":0.5,"y":-1,"z":0.125}}"#.utf8),
                          arrival: 0.1 * Double(index + 1))
        }
        let table = board.render(now: 0.85)
        #expect(table.contains("motion/pi  [online]"))
        #expect(table.contains("active @ 10 Hz"))
        #expect(table.contains("unavailable: no magnetometer"))
        #expect(table.contains("x   +0.500  y   -1.000  z   +0.125 rad/s"))
        #expect(table.contains("(2 lost)"))
        #expect(table.contains("8.0"), "8 messages within the last second: \(table)")
    }
}
