#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

extension IMUCalibration {
    /// Reads a calibration file (the JSON form of docs/CALIBRATION.md).
    /// - Parameter path: the file.
    /// - Throws: ``IMUCalibrationError/unreadable(path:reason:)`` if it cannot be read,
    ///   ``IMUCalibrationError/invalid(path:field:reason:)`` naming the missing or bad field.
    public static func load(contentsOf path: String) throws(IMUCalibrationError) -> IMUCalibration {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maximumSize: maximumFileSize)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        return try decode(Data(bytes), path: path)
    }

    /// The largest calibration file read, bytes (a calibration is under 2 KiB).
    public static let maximumFileSize = 1 << 20

    /// Decodes the JSON form; `path` only names the source in errors.
    /// - Throws: ``IMUCalibrationError/invalid(path:field:reason:)`` naming the missing or bad field.
    public static func decode(_ data: Data, path: String) throws(IMUCalibrationError) -> IMUCalibration {
        do {
            return try JSONDecoder().decode(IMUCalibration.self, from: data)
        } catch let error as DecodingError {
            let (field, reason) = error.fieldPathAndReason
            throw .invalid(path: path, field: field, reason: reason)
        } catch {
            throw .invalid(path: path, field: "", reason: "\(error)")
        }
    }

    /// The JSON form: keys sorted, indented.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value is a finite number, a string or a date (the parts' types), which always encode.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Writes the calibration to `path` (replacing the file atomically).
    /// - Throws: ``IMUCalibrationError/unwritable(path:reason:)``.
    public func save(to path: String) throws(IMUCalibrationError) {
        do {
            try (encoded() + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .unwritable(path: path, reason: Self.reason(error))
        }
    }

    /// What went wrong writing a file, for people: the system's words for the error number when there is
    /// one (as `strerror`), else the error's own description.
    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return "\(error)"
    }
}
