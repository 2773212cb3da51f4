import MotionHAL
import Synchronization

/// A register-level emulation of an MPU-6050 / MPU-6500 / MPU-9250 / MPU-9255 on an ``EmulatedI2CBus``.
///
/// Registers (RM-MPU-6000A, RM-MPU-9250A) with their reset values and the behaviour a driver relies on:
/// - PWR_MGMT_1 DEVICE_RESET restores every register's reset value and empties the FIFO; the bit reads 1
///   and writes are ignored for ``resetDuration``, then it clears itself. SLEEP stops sampling.
/// - Sampling: the rate comes from CONFIG DLPF_CFG and SMPLRT_DIV (1 kHz / (1 + SMPLRT_DIV) for DLPF_CFG
///   1...6; 8 kHz otherwise, divided on the MPU-6050 only; 32 kHz on the MPU-6500 family when GYRO_CONFIG
///   FCHOICE_B is not 0), timed by an ``EmulatedSampleClock`` with the given oscillator error. Samples are
///   made when a transfer comes (the chip catches up with the time then), from ``EmulatedMotion`` in the
///   chip's axes, quantised with the configured ranges and saturated to int16; the last one is in the
///   data registers ACCEL_XOUT_H ... GYRO_ZOUT_L.
/// - FIFO: USER_CTRL FIFO_EN on, each sample appends what FIFO_EN selects in register order (accelerometer
///   6, temperature 2, gyroscope x, y, z 2 each). Full: the MPU-6050, and the others with CONFIG FIFO_MODE 0,
///   drop the oldest bytes; with FIFO_MODE 1 the new bytes are dropped; either sets INT_STATUS FIFO_OFLOW.
///   USER_CTRL FIFO_RESET (only while FIFO_EN is 0 in the same write) empties it. FIFO_COUNT_H latches the
///   count that FIFO_COUNT_L then gives; reads of FIFO_R_W pop a byte each and do not move on to the next
///   register (an empty FIFO repeats the last byte). Every other register auto-increments.
/// - INT_STATUS: DATA_RDY_INT and FIFO_OFLOW_INT, cleared by reading it.
/// - Bypass: ``isBypassEnabled`` (INT_PIN_CFG BYPASS_EN and not USER_CTRL I2C_MST_EN) is what makes the
///   MPU-9250's AK8963 reachable; ``attach(to:at:)`` wires that up.
///
/// Not emulated: the auxiliary I²C master and its FIFO slots, the DMP, PWR_MGMT_2 standby, self-test,
/// interrupt pins, and low-pass filtering itself (values are the truth at each sample time).
public final class EmulatedInvenSenseMPU: EmulatedI2CChip {
    /// Which part is emulated.
    public let model: EmulatedInvenSenseModel
    /// The AK8963 inside an MPU-9250 or MPU-9255; `nil` for the others.
    public let magnetometer: EmulatedAK8963?
    /// How long DEVICE_RESET takes, s: the emulation's choice, within the 100 ms register start-up time
    /// the product specification gives (PS-MPU-6000A).
    public static let resetDuration = 0.05

    private let motion: EmulatedMotion
    private let identity: UInt8
    private let temperature: Double
    private let state: Mutex<State>
    /// The chip\'s time, `CLOCK_MONOTONIC` ns.
    private let time: @Sendable () -> UInt64

    private struct State {
        var registers: [UInt8]
        var fifo: [UInt8] = []
        /// Index of the oldest byte still in `fifo` (popped bytes are removed in chunks).
        var fifoStart = 0
        var latchedCount = 0
        var lastFIFOByte: UInt8 = 0
        var clock: EmulatedSampleClock
        /// The rate `clock` runs at, Hz; `nil` while stopped.
        var clockRate: Double?
        /// When a DEVICE_RESET in progress ends, ns.
        var resetEnds: UInt64?

        var fifoCount: Int { fifo.count - fifoStart }
    }

    private enum Register {
        static let sampleRateDivider = 0x19
        static let configuration = 0x1A
        static let gyroscopeConfiguration = 0x1B
        static let accelerometerConfiguration = 0x1C
        static let fifoEnable = 0x23
        static let interruptPinConfiguration = 0x37
        static let interruptStatus = 0x3A
        static let accelerometerOutput = 0x3B
        static let userControl = 0x6A
        static let powerManagement1 = 0x6B
        static let fifoCountHigh = 0x72
        static let fifoCountLow = 0x73
        static let fifoData = 0x74
        static let whoAmI = 0x75
    }

    /// Creates a chip, powered up with its reset values.
    /// - Parameters:
    ///   - model: the part.
    ///   - motion: what it measures, in its own axes (the magnetic field is the AK8963's to measure).
    ///   - oscillatorError: relative error of its sample clock (0.02: 2 % fast).
    ///   - whoAmI: what WHO_AM_I reads, to emulate a clone or an unknown part (default: the model's).
    ///   - temperature: die temperature, °C, for TEMP_OUT.
    ///   - now: the chip's time, `CLOCK_MONOTONIC` ns (a test's manual clock makes it sample without waiting).
    public init(
        model: EmulatedInvenSenseModel, motion: EmulatedMotion, oscillatorError: Double = 0, whoAmI: UInt8? = nil,
        temperature: Double = 25, now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        time = now
        self.model = model
        self.motion = motion
        self.identity = whoAmI ?? model.whoAmI
        self.temperature = temperature
        magnetometer = model.hasMagnetometer ? EmulatedAK8963(motion: motion, oscillatorError: oscillatorError, now: now) : nil
        var state = State(registers: [], clock: EmulatedSampleClock(oscillatorError: oscillatorError))
        state.registers = Self.resetRegisters(model: model, identity: identity)
        self.state = Mutex(state)
        self.state.withLock { updateSampling(&$0, at: time()) }
    }

    /// Attaches the chip at `address` (0x68 or 0x69) and, for an MPU-9250 or MPU-9255, its AK8963 at 0x0C,
    /// reachable only while ``isBypassEnabled``.
    public func attach(to bus: EmulatedI2CBus, at address: UInt8 = 0x68) {
        bus.attach(self, at: address)
        if let magnetometer {
            bus.attach(magnetometer, at: EmulatedAK8963.address, isReachable: { [self] in isBypassEnabled })
        }
    }

    /// Whether the auxiliary bus is switched through to the host: INT_PIN_CFG BYPASS_EN set, USER_CTRL
    /// I2C_MST_EN clear.
    public var isBypassEnabled: Bool {
        state.withLock { state in
            let bypass = state.registers[Register.interruptPinConfiguration] & 0x02 != 0
            let master = state.registers[Register.userControl] & 0x20 != 0
            return bypass && !master
        }
    }

    /// Bytes in the FIFO now.
    public var fifoCount: Int {
        state.withLock { state in
            advance(&state, to: time())
            return state.fifoCount
        }
    }

    /// The value of a register as the chip holds it (no read side effects).
    public func register(_ register: UInt8) -> UInt8 {
        state.withLock { state in
            advance(&state, to: time())
            return state.registers[Int(register & 0x7F)]
        }
    }

    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            advance(&state, to: time())
            var register = Int(register & 0x7F)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            for _ in 0..<count {
                bytes.append(readByte(&state, register))
                if register != Register.fifoData { register = (register + 1) & 0x7F }
            }
            return bytes
        }
    }

    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        state.withLock { state in
            let now = time()
            advance(&state, to: now)
            var register = Int(register & 0x7F)
            for byte in bytes {
                writeByte(&state, register, byte, at: now)
                if register != Register.fifoData { register = (register + 1) & 0x7F }
            }
            updateSampling(&state, at: now)
        }
    }

    // MARK: - Registers

    private static func resetRegisters(model: EmulatedInvenSenseModel, identity: UInt8) -> [UInt8] {
        var registers = [UInt8](repeating: 0, count: 128)
        registers[Register.powerManagement1] = model.powerManagement1Reset
        registers[Register.whoAmI] = identity
        return registers
    }

    private func readByte(_ state: inout State, _ register: Int) -> UInt8 {
        switch register {
        case Register.interruptStatus:
            defer { state.registers[register] = 0 }
            return state.registers[register]
        case Register.fifoCountHigh:
            state.latchedCount = state.fifoCount
            return UInt8(state.latchedCount >> 8)
        case Register.fifoCountLow:
            return UInt8(state.latchedCount & 0xFF)
        case Register.fifoData:
            guard state.fifoCount > 0 else { return state.lastFIFOByte }
            state.lastFIFOByte = state.fifo[state.fifoStart]
            state.fifoStart += 1
            compactFIFO(&state)
            return state.lastFIFOByte
        default:
            return state.registers[register]
        }
    }

    private func writeByte(_ state: inout State, _ register: Int, _ value: UInt8, at now: UInt64) {
        guard state.resetEnds == nil else { return }  // busy resetting: the write is lost
        switch register {
        case Register.powerManagement1 where value & 0x80 != 0:
            state.registers = Self.resetRegisters(model: model, identity: identity)
            state.registers[register] |= 0x80
            emptyFIFO(&state)
            state.resetEnds = now + UInt64(Self.resetDuration * 1e9)
        case Register.userControl:
            if value & 0x04 != 0 && value & 0x40 == 0 { emptyFIFO(&state) }
            state.registers[register] = value & 0xF0  // the reset bits 3:0 clear themselves
        case Register.interruptStatus, Register.fifoCountHigh, Register.fifoCountLow, Register.fifoData,
            Register.whoAmI, Register.accelerometerOutput..<Register.accelerometerOutput + 14:
            break  // read-only (writing the FIFO through FIFO_R_W is not emulated)
        default:
            state.registers[register] = value
        }
    }

    private func emptyFIFO(_ state: inout State) {
        state.fifo.removeAll(keepingCapacity: true)
        state.fifoStart = 0
    }

    // MARK: - Sampling

    /// The rate the configuration gives, Hz; `nil` while asleep or resetting.
    private func configuredRate(_ state: State) -> Double? {
        let registers = state.registers
        guard state.resetEnds == nil, registers[Register.powerManagement1] & 0x40 == 0 else { return nil }
        let lowPass = registers[Register.configuration] & 0x07
        let divider = Double(registers[Register.sampleRateDivider]) + 1
        if model.isMPU6500Family {
            if registers[Register.gyroscopeConfiguration] & 0x03 != 0 { return 32000 }
            return (1...6).contains(lowPass) ? 1000 / divider : 8000
        }
        return ((1...6).contains(lowPass) ? 1000 : 8000) / divider
    }

    private func updateSampling(_ state: inout State, at time: UInt64) {
        let rate = configuredRate(state)
        guard rate != state.clockRate else { return }
        state.clockRate = rate
        if let rate { state.clock.start(rate: rate, at: time) } else { state.clock.stop() }
    }

    /// Brings the chip up to `now`: ends a finished reset, makes the samples due.
    private func advance(_ state: inout State, to now: UInt64) {
        if let resetEnds = state.resetEnds, now >= resetEnds {
            state.resetEnds = nil
            state.registers[Register.powerManagement1] &= 0x7F
            updateSampling(&state, at: resetEnds)
        }
        let times = state.clock.due(at: now)
        guard let newest = times.last else { return }
        let fifoEnabled = state.registers[Register.userControl] & 0x40 != 0
        let selection = state.registers[Register.fifoEnable] & 0xF8
        if fifoEnabled && selection != 0 {
            for time in times { push(&state, measurement(state, at: time), selection: selection) }
        }
        let latest = measurement(state, at: newest)
        state.registers.replaceSubrange(Register.accelerometerOutput..<Register.accelerometerOutput + 14, with: latest)
        state.registers[Register.interruptStatus] |= 0x01
    }

    /// ACCEL_XOUT_H ... GYRO_ZOUT_L for the truth at `time`: 14 bytes, big-endian int16.
    private func measurement(_ state: State, at time: UInt64) -> [UInt8] {
        let truth = motion.truth(time)
        let accelerometerRange = (state.registers[Register.accelerometerConfiguration] >> 3) & 0x03
        let gyroscopeRange = (state.registers[Register.gyroscopeConfiguration] >> 3) & 0x03
        let accelerometerLSBPerG = 16384 / Double(1 << Int(accelerometerRange))
        let gyroscopeLSBPerDegree = [131, 65.5, 32.8, 16.4][Int(gyroscopeRange)]
        let acceleration = (truth.acceleration ?? .zero) / 9.80665 * accelerometerLSBPerG
        let rotationRate = (truth.rotationRate ?? .zero) * (180 / .pi) * gyroscopeLSBPerDegree
        let codes = [
            acceleration.x, acceleration.y, acceleration.z, model.temperatureCode(temperature),
            rotationRate.x, rotationRate.y, rotationRate.z,
        ]
        return codes.flatMap { code -> [UInt8] in
            let saturated = UInt16(bitPattern: Int16(min(max(code.rounded(), -32768), 32767)))
            return [UInt8(saturated >> 8), UInt8(saturated & 0xFF)]
        }
    }

    /// Appends one sample's selected bytes to the FIFO, handling a full FIFO as the model does.
    private func push(_ state: inout State, _ measurement: [UInt8], selection: UInt8) {
        var frame: [UInt8] = []
        if selection & 0x08 != 0 { frame += measurement[0..<6] }  // ACCEL_FIFO_EN
        if selection & 0x80 != 0 { frame += measurement[6..<8] }  // TEMP_FIFO_EN
        for (axis, bit) in [(0, UInt8(0x40)), (1, 0x20), (2, 0x10)] where selection & bit != 0 {  // XG, YG, ZG
            frame += measurement[8 + 2 * axis..<10 + 2 * axis]
        }
        let room = model.fifoCapacity - state.fifoCount
        guard frame.count > room else {
            state.fifo += frame
            return
        }
        state.registers[Register.interruptStatus] |= 0x10
        let keepsOldest = model.isMPU6500Family && state.registers[Register.configuration] & 0x40 != 0
        if keepsOldest {
            state.fifo += frame.prefix(room)
        } else {
            state.fifo += frame
            state.fifoStart += frame.count - room
            compactFIFO(&state)
        }
    }

    /// Drops the bytes before `fifoStart` once there are many of them, or the FIFO is empty.
    private func compactFIFO(_ state: inout State) {
        guard state.fifoStart >= 4096 || state.fifoStart == state.fifo.count else { return }
        state.fifo.removeFirst(state.fifoStart)
        state.fifoStart = 0
    }
}
