/// Finds Linux IIO devices: the directories `iio:deviceN` under the sysfs root, each with its `name`, and
/// their character devices `iio:deviceN` in the device directory.
///
/// A device is selected by a text (``device(_:)``): `iio:deviceN` names that directory; anything else is
/// compared with the devices' `name` attributes and the lowest-numbered match wins (names are part
/// numbers, so two identical chips share one: select those by directory).
public struct IIODeviceDiscovery: Sendable, Equatable {
    /// Where the kernel lists IIO devices and triggers.
    public static let defaultSysfsRoot = "/sys/bus/iio/devices"
    /// Where the kernel creates the devices' character devices.
    public static let defaultDeviceDirectory = "/dev"

    /// The directory holding `iio:deviceN/` and `triggerN/`.
    public var sysfsRoot: String
    /// The directory holding the nodes `iio:deviceN`.
    public var deviceDirectory: String

    /// Creates a discovery over the given directories (the kernel's by default; a test's fake tree).
    /// - Parameters:
    ///   - sysfsRoot: the directory holding `iio:deviceN/` and `triggerN/`.
    ///   - deviceDirectory: the directory holding the nodes `iio:deviceN`.
    public init(sysfsRoot: String = defaultSysfsRoot, deviceDirectory: String = defaultDeviceDirectory) {
        self.sysfsRoot = sysfsRoot
        self.deviceDirectory = deviceDirectory
    }

    /// Every IIO device, by number, with its channels.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the root cannot be read or a device's attributes
    ///   are missing or malformed (the message names the file).
    public func devices() throws(IMUDeviceError) -> [IIODeviceInfo] {
        var devices: [IIODeviceInfo] = []
        for (directoryName, number) in try deviceDirectories() {
            devices.append(try load(directoryName, number: number))
        }
        return devices
    }

    /// The device `selector` names: `iio:deviceN` by directory, anything else by `name`.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when there is no such device (the message lists the
    ///   devices there are) or its attributes are missing or malformed.
    public func device(_ selector: String) throws(IMUDeviceError) -> IIODeviceInfo {
        let directories = try deviceDirectories()
        if let number = Self.deviceNumber(selector) {
            guard directories.contains(where: { $0.number == number }) else {
                throw .unavailable("no IIO device \(selector) under \(sysfsRoot)")
            }
            return try load(selector, number: number)
        }
        var found: [String] = []
        for (directoryName, number) in directories {
            let name = try IIOSysfsDevice(path: "\(sysfsRoot)/\(directoryName)").readText("name")
            if name == selector { return try load(directoryName, number: number) }
            found.append("\(name) (\(directoryName))")
        }
        let present = found.isEmpty ? "none" : found.joined(separator: ", ")
        throw .unavailable("no IIO device named '\(selector)' under \(sysfsRoot) (devices: \(present))")
    }

    /// The names of the triggers under the root (`triggerN/name`), by trigger number.
    public func triggerNames() -> [String] {
        DirectoryListing.names(in: sysfsRoot)
            .compactMap { entry -> (Int, String)? in
                guard entry.hasPrefix("trigger"), let number = Int(entry.dropFirst(7)),
                    let name = try? IIOSysfsDevice(path: "\(sysfsRoot)/\(entry)").readText("name")
                else { return nil }
                return (number, name)
            }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    /// `N` when `text` is `iio:deviceN`.
    static func deviceNumber(_ text: String) -> Int? {
        guard text.hasPrefix("iio:device"), let number = Int(text.dropFirst(10)), number >= 0 else { return nil }
        return number
    }

    func deviceDirectories() throws(IMUDeviceError) -> [(name: String, number: Int)] {
        guard IIOSysfsDevice(path: sysfsRoot).isPresent else {
            throw .unavailable("no IIO sysfs directory \(sysfsRoot) (is the kernel's industrialio module loaded?)")
        }
        return DirectoryListing.names(in: sysfsRoot)
            .compactMap { entry in Self.deviceNumber(entry).map { (entry, $0) } }
            .sorted { $0.number < $1.number }
    }

    private func load(_ directoryName: String, number: Int) throws(IMUDeviceError) -> IIODeviceInfo {
        try IIODeviceInfo.load(
            directory: "\(sysfsRoot)/\(directoryName)", directoryName: directoryName, number: number,
            deviceDirectory: deviceDirectory)
    }
}
