#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// Reads and writes the attribute files of one directory under the IIO sysfs root (a device
/// `iio:deviceN` or a trigger `triggerN`). Every failure is an ``IMUDeviceError/unavailable(_:)`` that
/// names the file and, for a value that does not parse, quotes the text.
struct IIOSysfsDevice: Sendable {
    /// The directory, e.g. `/sys/bus/iio/devices/iio:device0`.
    let path: String

    /// The full path of `attribute` (which may name a subdirectory, e.g. `buffer/enable`).
    func path(of attribute: String) -> String { "\(path)/\(attribute)" }

    /// Whether the directory itself is still there (a device that was unbound has vanished).
    var isPresent: Bool { access(path, F_OK) == 0 }

    /// Whether `attribute` exists.
    func has(_ attribute: String) -> Bool { access(path(of: attribute), F_OK) == 0 }

    /// The attribute's text without its trailing line break.
    func readText(_ attribute: String) throws(IMUDeviceError) -> String {
        let file = path(of: attribute)
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unavailable("cannot read \(file): \(Self.describe(errno))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unavailable("cannot read \(file): \(Self.describe(errno))")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(Substring(decoding: bytes, as: UTF8.self).trimmingBlanks())
    }

    /// The attribute's text, or `nil` when the file does not exist.
    func readTextIfPresent(_ attribute: String) throws(IMUDeviceError) -> String? {
        has(attribute) ? try readText(attribute) : nil
    }

    /// The attribute as a number (IIO prints integers and fixed-point decimals such as `0.000598550`).
    func readNumber(_ attribute: String) throws(IMUDeviceError) -> Double {
        let text = try readText(attribute)
        guard let number = Double(text), number.isFinite else {
            throw .unavailable("\(path(of: attribute)): '\(text)' is not a number")
        }
        return number
    }

    /// The attribute as a number, or `nil` when the file does not exist.
    func readNumberIfPresent(_ attribute: String) throws(IMUDeviceError) -> Double? {
        has(attribute) ? try readNumber(attribute) : nil
    }

    /// Writes `value` to the attribute (as `echo -n VALUE > attribute` would).
    func writeText(_ attribute: String, _ value: String) throws(IMUDeviceError) {
        let file = path(of: attribute)
        let descriptor = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unavailable("cannot write '\(value)' to \(file): \(Self.describe(errno))") }
        defer { close(descriptor) }
        let bytes = Array(value.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unavailable("cannot write '\(value)' to \(file): \(Self.describe(errno))")
            }
            written += count
        }
    }

    /// Writes `value` and checks that the attribute then reads `value` back.
    func writeAndVerify(_ attribute: String, _ value: String) throws(IMUDeviceError) {
        try writeText(attribute, value)
        let readBack = try readText(attribute)
        guard readBack == value else {
            throw .unavailable("\(path(of: attribute)) reads '\(readBack)' after writing '\(value)'")
        }
    }

    /// The names in the directory (or in its `subdirectory`), sorted; empty when it cannot be read.
    func entries(in subdirectory: String? = nil) -> [String] {
        DirectoryListing.names(in: subdirectory.map(path(of:)) ?? path)
    }

    /// `strerror` text for an errno value.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
