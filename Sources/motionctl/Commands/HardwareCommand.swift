import Foundation
import MotionHAL

/// `motionctl hardware`: the IMUs this board offers, with the device string that opens each: the kernel's
/// IIO devices (read from sysfs, nothing touched) and the supported I²C chips answering on the I²C buses
/// at their usual addresses (identity registers read; a chip found is not configured).
enum HardwareCommand {
    static let usage = """
        usage: motionctl hardware [--sysfs DIR] [--dev DIR] [--i2c BUS[,BUS...]]
          --sysfs  where the kernel lists IIO devices (default /sys/bus/iio/devices)
          --dev    where their nodes are (default /dev)
          --i2c    the I2C buses to probe (default: every /dev/i2c-N)
        """

    /// Runs the command with the arguments after `hardware`; exits 0 when an IMU was found, else 69.
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: ["--sysfs", "--dev", "--i2c"], usage: usage)
        guard options.positional.isEmpty else { options.fail("hardware takes no positional arguments") }
        let discovery = IIODeviceDiscovery(
            sysfsRoot: options["--sysfs"] ?? IIODeviceDiscovery.defaultSysfsRoot,
            deviceDirectory: options["--dev"] ?? IIODeviceDiscovery.defaultDeviceDirectory)
        let buses = options["--i2c"].map { $0.split(separator: ",").map(String.init) } ?? Self.i2cBuses()

        var found = 0
        print("IIO devices (\(discovery.sysfsRoot)):")
        do {
            let devices = try discovery.devices()
            let automatic = discovery.detectedIMUSpecification()
            if devices.isEmpty { print("  none") }
            for device in devices {
                let sensors = device.bufferedSensors.map(\.sensorName)
                let specification = "iio:\(device.directoryName)" + Self.options(of: discovery)
                let isIMU = device.bufferedAxes(of: .acceleration) != nil && device.bufferedAxes(of: .angularVelocity) != nil
                if isIMU { found += 1 }
                let mark = automatic.map { $0.hasPrefix("iio:\(device.directoryName)") } == true ? "   (auto)" : ""
                print("  \(device.directoryName)  \(device.name)  \(sensors.isEmpty ? "no buffered sensors" : sensors.joined(separator: ", "))  \(specification)\(mark)")
            }
            if let automatic, automatic.contains("+") { print("  auto joins them: \(automatic)") }
        } catch {
            print("  none: \(error.description)")
        }

        print("I2C chips (\(buses.isEmpty ? "no /dev/i2c-N buses" : buses.joined(separator: ", "))):")
        let addresses = Set(I2CChipModel.all.flatMap(\.addresses)).sorted()
        var chips: [String] = []
        for bus in buses {
            for address in addresses {
                guard let device = try? I2CIMU(bus: bus, address: address) else { continue }
                found += 1
                let hex = "0x" + String(address, radix: 16)
                chips.append("  i2c:\(bus)@\(hex)  \(device.info.chip)")
            }
        }
        print(chips.isEmpty ? "  none" : chips.joined(separator: "\n"))
        if found == 0 {
            CommandOptions.exit("no IMU found (the simulator is always there: --device sim)", status: 69)
        }
        exit(0)
    }

    /// `,sysfs=…,dev=…` when the directories are not the kernel's.
    private static func options(of discovery: IIODeviceDiscovery) -> String {
        (discovery.sysfsRoot == IIODeviceDiscovery.defaultSysfsRoot ? "" : ",sysfs=\(discovery.sysfsRoot)")
            + (discovery.deviceDirectory == IIODeviceDiscovery.defaultDeviceDirectory ? "" : ",dev=\(discovery.deviceDirectory)")
    }

    /// Every `/dev/i2c-N`, by number.
    private static func i2cBuses() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return entries.compactMap { entry -> (Int, String)? in
            guard entry.hasPrefix("i2c-"), let number = Int(entry.dropFirst(4)) else { return nil }
            return (number, "/dev/" + entry)
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }
}

extension IIOChannel.Kind {
    /// `accelerometer`, `gyroscope`, `magnetometer` or `timestamp`.
    fileprivate var sensorName: String {
        switch self {
        case .acceleration: "accelerometer"
        case .angularVelocity: "gyroscope"
        case .magneticField: "magnetometer"
        case .timestamp: "timestamp"
        }
    }
}
