import MotionHAL
import Synchronization

/// A register-level emulation of the AKM AK09916 magnetometer (the one inside the ICM-20948), following its
/// datasheet: WIA1 0x48 and WIA2 0x09; CNTL2 modes power-down (0x00), single measurement (0x01) and
/// continuous 10, 20, 50 and 100 Hz (0x02, 0x04, 0x06, 0x08; other modes, such as self-test, are stored but
/// measure nothing); CNTL3 SRST soft reset; ST1 DRDY when a measurement is new and DOR when one was lost
/// (not read in time, or finished while a read was under way); HXL...HZH little-endian at 0.15 µT per count,
/// saturated at ±32752; ST2 HOFL when |X| + |Y| + |Z| reached 4912 µT. Reading a data register starts a read,
/// which keeps the data registers still; reading ST2 ends it and clears DRDY and DOR.
public final class EmulatedAK09916: EmulatedI2CChip {
    private let state: Mutex<State>
    /// The chip\'s time, `CLOCK_MONOTONIC` ns.
    private let time: @Sendable () -> UInt64

    /// Creates a magnetometer in power-down.
    /// - Parameters:
    ///   - motion: the field it measures (`magneticField`, µT) in its own axes.
    ///   - oscillatorError: relative error of its measurement clock (default 0).
    ///   - now: the chip's time, `CLOCK_MONOTONIC` ns (a test's manual clock makes it sample without waiting).
    public init(
        motion: EmulatedMotion = .atRest(), oscillatorError: Double = 0, now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        time = now
        state = Mutex(State(motion: motion, clock: EmulatedSampleClock(oscillatorError: oscillatorError)))
    }

    /// The field it measures, in its own axes; may be changed while it runs.
    public var motion: EmulatedMotion {
        get { state.withLock { $0.motion } }
        set { state.withLock { $0.motion = newValue } }
    }

    /// CNTL2: the operating mode now (a single measurement returns it to power-down when done).
    public var mode: UInt8 {
        let now = time()
        return state.withLock { state in
            state.advance(to: now)
            return state.mode
        }
    }

    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        let now = time()
        return state.withLock { state in
            state.advance(to: now)
            return (0..<count).map { offset in state.readByte(register &+ UInt8(truncatingIfNeeded: offset)) }
        }
    }

    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        let now = time()
        state.withLock { state in
            state.advance(to: now)
            for (offset, byte) in bytes.enumerated() {
                state.writeByte(register &+ UInt8(truncatingIfNeeded: offset), byte, at: now)
            }
        }
    }

    /// The register file and measurement clock.
    private struct State {
        static let status1: UInt8 = 0x10
        static let firstData: UInt8 = 0x11
        static let dummy: UInt8 = 0x17
        static let status2: UInt8 = 0x18
        static let control2: UInt8 = 0x31
        static let control3: UInt8 = 0x32
        /// Continuous-mode rates by CNTL2 value, Hz; single measurement takes as long as one at 100 Hz.
        static let rates: [UInt8: Double] = [0x01: 100, 0x02: 10, 0x04: 20, 0x06: 50, 0x08: 100]
        static let resolution = 0.15
        static let largestCount = 32752.0
        static let overflowSum = 4912.0

        var motion: EmulatedMotion
        var clock: EmulatedSampleClock
        var mode: UInt8 = 0
        var status1: UInt8 = 0
        var data = [UInt8](repeating: 0, count: 6)
        var status2: UInt8 = 0
        /// A data register was read and ST2 not yet.
        var reading = false

        mutating func readByte(_ address: UInt8) -> UInt8 {
            switch address {
            case 0x00: return 0x48
            case 0x01: return 0x09
            case Self.status1: return status1
            case Self.firstData...Self.dummy:
                reading = true
                return address == Self.dummy ? 0 : data[Int(address - Self.firstData)]
            case Self.status2:
                reading = false
                status1 = 0
                return status2
            case Self.control2: return mode
            default: return 0
            }
        }

        mutating func writeByte(_ address: UInt8, _ value: UInt8, at time: UInt64) {
            switch address {
            case Self.control2:
                mode = value & 0x1F
                if let rate = Self.rates[mode] { clock.start(rate: rate, at: time) } else { clock.stop() }
            case Self.control3 where value & 0x01 != 0:
                self = State(motion: motion, clock: EmulatedSampleClock(oscillatorError: clock.oscillatorError))
            default:
                break
            }
        }

        /// Takes the measurements due by `time`.
        mutating func advance(to time: UInt64) {
            for measurementTime in clock.due(at: time) {
                if status1 & 0x01 != 0 || reading { status1 |= 0x02 }
                if !reading {
                    measure(at: measurementTime)
                    status1 |= 0x01
                }
                if mode == 0x01 {
                    mode = 0
                    clock.stop()
                    return
                }
            }
        }

        private mutating func measure(at time: UInt64) {
            let field = motion.truth(time).magneticField ?? .zero
            let counts = [field.x, field.y, field.z].map {
                Int16(min(max(($0 / Self.resolution).rounded(), -Self.largestCount), Self.largestCount))
            }
            data = counts.flatMap { [UInt8(UInt16(bitPattern: $0) & 0xFF), UInt8(UInt16(bitPattern: $0) >> 8)] }
            let sum = abs(field.x) + abs(field.y) + abs(field.z)
            status2 = sum >= Self.overflowSum ? 0x08 : 0
        }
    }
}
