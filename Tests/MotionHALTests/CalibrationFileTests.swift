import Foundation
import MotionHAL
import Testing

/// The calibration file: JSON round trip, the documented format, and errors naming the file and the field.
@Suite struct CalibrationFileTests {
    static let example = IMUCalibration(
        created: Date(timeIntervalSince1970: 1_796_000_000), device: "sim:motion=stationary (sim, simulated 9-axis IMU)",
        gyroscope: .init(bias: SIMD3(0.0121, -0.0043, 0.0008)),
        accelerometer: .init(
            offset: SIMD3(0.12, -0.05, 0.31),
            scale: .init(row0: SIMD3(1.004, 0, 0), row1: SIMD3(0, 0.998, 0), row2: SIMD3(0, 0, 0.991)), residual: 0.004),
        magnetometer: .init(
            hardIron: SIMD3(12.5, -30.1, 4.2),
            softIron: .init(row0: SIMD3(1.05, 0.02, 0), row1: SIMD3(0.02, 0.97, 0.01), row2: SIMD3(0, 0.01, 0.98)),
            fieldStrength: 48.7, residual: 0.6, coverage: 0.91, quality: .high))

    private func temporaryFile(_ contents: String? = nil) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID().uuidString).json").path
        if let contents { _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)) }
        return path
    }

    /// The example with one field replaced (`nil`: removed), as JSON text.
    private func document(_ path: [String], _ value: Any?) throws -> String {
        var object = try #require(JSONSerialization.jsonObject(with: Self.example.encoded()) as? [String: Any])
        func replace(_ dictionary: inout [String: Any], _ keys: ArraySlice<String>) {
            guard let key = keys.first else { return }
            if keys.count == 1 {
                dictionary[key] = value
            } else if var inner = dictionary[key] as? [String: Any] {
                replace(&inner, keys.dropFirst())
                dictionary[key] = inner
            }
        }
        replace(&object, path[...])
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    private func loadError(_ text: String) -> IMUCalibrationError? {
        let path = temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try IMUCalibration.load(contentsOf: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func savedCalibrationLoadsBackUnchanged() throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.example.save(to: path)
        #expect(try IMUCalibration.load(contentsOf: path) == Self.example)
        // Parts may be left out.
        let gyroscopeOnly = IMUCalibration(created: Self.example.created, device: "x", gyroscope: Self.example.gyroscope)
        try gyroscopeOnly.save(to: path)
        #expect(try IMUCalibration.load(contentsOf: path) == gyroscopeOnly)
    }

    @Test func theFileHasTheDocumentedKeysAndUnits() throws {
        let object = try #require(JSONSerialization.jsonObject(with: Self.example.encoded()) as? [String: Any])
        #expect(Set(object.keys) == ["format_version", "created", "device", "gyroscope", "accelerometer", "magnetometer"])
        #expect(object["format_version"] as? Int == 1)
        #expect(object["created"] as? String == "2026-11-30T00:53:20Z")
        let gyroscope = try #require(object["gyroscope"] as? [String: Any])
        #expect(gyroscope["bias_rad_s"] as? [Double] == [0.0121, -0.0043, 0.0008])
        let accelerometer = try #require(object["accelerometer"] as? [String: Any])
        #expect(Set(accelerometer.keys) == ["offset_m_s2", "scale", "residual_m_s2"])
        #expect(accelerometer["scale"] as? [[Double]] == [[1.004, 0, 0], [0, 0.998, 0], [0, 0, 0.991]])
        let magnetometer = try #require(object["magnetometer"] as? [String: Any])
        #expect(Set(magnetometer.keys) == ["hard_iron_ut", "soft_iron", "field_strength_ut", "residual_ut", "coverage", "quality"])
        #expect(magnetometer["quality"] as? String == "high")
    }

    @Test func errorsNameTheFileAndTheField() throws {
        let missing = try #require(loadError(try document(["magnetometer", "hard_iron_ut"], nil)))
        guard case .invalid(let path, let field, let reason) = missing else { Issue.record("\(missing)"); return }
        #expect(path.hasSuffix(".json") && field == "magnetometer.hard_iron_ut" && reason == "is missing")
        #expect(missing.description.contains("calibration file \(path): field magnetometer.hard_iron_ut: is missing"))

        let cases: [(String, String)] = [
            (try document(["gyroscope", "bias_rad_s"], [1, 2]), "gyroscope.bias_rad_s"),
            (try document(["gyroscope", "bias_rad_s"], "fast"), "gyroscope.bias_rad_s"),
            (try document(["accelerometer", "scale"], [[1, 0, 0], [0, 1, 0]]), "accelerometer.scale"),
            (try document(["accelerometer", "scale"], [[1, 0, 0], [0, 0, 0], [0, 0, 1]]), "accelerometer.scale"),
            (try document(["magnetometer", "soft_iron"], [[1, 0, 0], [0, 1, 0], [0, 0, 1, 4]]), "magnetometer.soft_iron[2]"),
            (try document(["magnetometer", "quality"], "excellent"), "magnetometer.quality"),
            (try document(["magnetometer", "coverage"], 1.5), "magnetometer.coverage"),
            (try document(["magnetometer", "field_strength_ut"], -3), "magnetometer.field_strength_ut"),
            (try document(["format_version"], 2), "format_version"),
            (try document(["created"], "yesterday"), "created"),
            (try document(["device"], nil), "device"),
            // A misspelt key is refused, not read as an absent part.
            (try document(["magnetomter"], ["hard_iron_ut": [0, 0, 0]]), "magnetomter"),
            (try document(["gyroscope", "bias_rads"], [0.01, 0, 0]), "gyroscope.bias_rads"),
            (try document(["accelerometer", "residual"], 0.1), "accelerometer.residual"),
            (try document(["magnetometer", "Quality"], "high"), "magnetometer.Quality"),
        ]
        for (text, expectedField) in cases {
            let error = loadError(text)
            guard case .invalid(_, let field, let reason) = error else { Issue.record("\(expectedField): \(String(describing: error))"); continue }
            #expect(field == expectedField, "\(reason)")
            #expect(!reason.isEmpty)
        }
    }

    @Test func theNoisePartRoundTripsAndRefusesNegativeFigures() throws {
        var calibration = Self.example
        calibration.noise = .init(
            gyroscope: .init(noiseDensity: SIMD3(1.7e-4, 1.6e-4, 1.9e-4), biasInstability: SIMD3(2.1e-5, 1.8e-5, 2.6e-5)),
            accelerometer: nil, duration: 120)
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try calibration.save(to: path)
        #expect(try IMUCalibration.load(contentsOf: path) == calibration)
        let object = try #require(JSONSerialization.jsonObject(with: calibration.encoded()) as? [String: Any])
        let noise = try #require(object["noise"] as? [String: Any])
        #expect(Set(noise.keys) == ["gyroscope", "duration_s"])
        #expect(Set(try #require(noise["gyroscope"] as? [String: Any]).keys) == ["noise_density", "bias_instability"])
        let negative = String(decoding: calibration.encoded(), as: UTF8.self).replacingOccurrences(of: "0.00017", with: "-0.00017")
        guard case .invalid(_, let field, _) = loadError(negative) else { Issue.record("a negative density was accepted"); return }
        #expect(field == "noise.gyroscope.noise_density")
        let misspelt = String(decoding: calibration.encoded(), as: UTF8.self).replacingOccurrences(of: "bias_instability", with: "bias_instabilty")
        guard case .invalid(_, let unknown, let reason) = loadError(misspelt) else { Issue.record("a misspelt key was accepted"); return }
        #expect(unknown == "noise.gyroscope.bias_instabilty" && reason.contains("not a known key"), "\(unknown): \(reason)")
        let extra = String(decoding: calibration.encoded(), as: UTF8.self).replacingOccurrences(of: "\"duration_s\"", with: "\"seconds\" : 1, \"duration_s\"")
        guard case .invalid(_, let unknownPart, _) = loadError(extra) else { Issue.record("an unknown key was accepted"); return }
        #expect(unknownPart == "noise.seconds")
    }

    @Test func unreadableAndMalformedFilesAreReported() throws {
        #expect(throws: IMUCalibrationError.unreadable(path: "/nonexistent/calibration.json", reason: "No such file or directory")) {
            try IMUCalibration.load(contentsOf: "/nonexistent/calibration.json")
        }
        let notJSON = try #require(loadError("{ \"format_version\": 1, "))
        guard case .invalid(_, let field, let reason) = notJSON else { Issue.record("\(notJSON)"); return }
        #expect(field.isEmpty && reason.contains("not valid JSON"))
        #expect(throws: IMUCalibrationError.self) { try Self.example.save(to: "/nonexistent/directory/calibration.json") }
    }
}
