import MotionMath
import Foundation
import MotionFusion
import MotionEngine
import MotionHAL

/// `motionctl fuse`: reads a recording, fuses it, writes the attitude per sample as CSV
/// (`t,quat_w,quat_x,quat_y,quat_z`, the rotation device → the reference frame).
enum FuseCommand {
    static let usage = """
        usage: motionctl fuse --input RECORDING.csv --output ATTITUDE.csv [--frame NAME] [--axes 6|9]
                              [--declination DEG | --location LAT,LON[,ALT_M] --year YEAR]
          --frame        Apple's case name: xArbitraryZVertical (6-axis), xArbitraryCorrectedZVertical,
                         xMagneticNorthZVertical (default with 9 axes), xTrueNorthZVertical (needs the declination)
          --axes         6 (gyroscope and accelerometer) or 9 (plus magnetometer, the default)
          --declination  magnetic declination, degrees east of true north, for xTrueNorthZVertical
          --location     where the recording was made (degrees, metres): the declination then comes from the
                         World Magnetic Model 2025 at --year (decimal year of the recording, e.g. 2026.9)
        """

    /// Runs the command with the arguments after `fuse`; exits the process.
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: ["--input", "--output", "--frame", "--axes", "--declination", "--location", "--year"], usage: usage)
        guard options.positional.isEmpty else { options.fail("fuse takes no positional arguments") }
        guard let input = options["--input"] else { options.fail("--input is required") }
        guard let output = options["--output"] else { options.fail("--output is required") }
        let axes = options["--axes"].map { Int($0) ?? 0 } ?? (options["--frame"] == AttitudeReferenceFrame.xArbitraryZVertical.rawValue ? 6 : 9)
        guard axes == 6 || axes == 9 else { options.fail("--axes must be 6 or 9") }
        let frame: AttitudeReferenceFrame
        if let name = options["--frame"] {
            guard let named = AttitudeReferenceFrame(rawValue: name) else {
                options.fail("--frame: \(name) is not one of \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            frame = named
        } else {
            frame = axes == 6 ? .xArbitraryZVertical : .xMagneticNorthZVertical
        }
        guard frame.usesMagnetometer == (axes == 9) else {
            options.fail("--frame \(frame.rawValue) is a \(frame.usesMagnetometer ? 9 : 6)-axis frame, not \(axes)-axis")
        }
        var declination = options["--declination"].map { Double($0) ?? .nan }
        if let declination, !(declination.isFinite && abs(declination) <= 180) {
            options.fail("--declination must be degrees within ±180")
        }
        if let location = options["--location"] {
            guard declination == nil else { options.fail("give --declination or --location, not both") }
            declination = modelDeclination(location: location, year: options["--year"], options: options)
        }
        if frame == .xTrueNorthZVertical, declination == nil {
            options.fail("--frame xTrueNorthZVertical needs --declination (degrees east of true north) or --location and --year")
        }

        let recording: IMURecording
        do {
            recording = try IMURecording.load(contentsOf: input)
        } catch {
            CommandOptions.exit(error.description, status: error.isUnreadable ? 66 : 65)
        }
        let fusion = RecordingFusion(recording, frame: frame, declination: declination)
        var text = "t,quat_w,quat_x,quat_y,quat_z\n"
        text.reserveCapacity(recording.samples.count * 64)
        for (sample, attitude) in zip(recording.samples, fusion.attitudes) {
            let q = attitude.w < 0 ? Quaternion(w: -attitude.w, x: -attitude.x, y: -attitude.y, z: -attitude.z) : attitude
            text += String(format: "%.6f,%.9f,%.9f,%.9f,%.9f\n", Double(sample.timestamp) / 1e9, q.w, q.x, q.y, q.z)
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
            CommandOptions.exit("cannot write \(output)", status: 73)
        }
        CommandOptions.exit(nil, status: 0)
    }
}

/// The World Magnetic Model's declination for `--location LAT,LON[,ALT_M]` at `--year`; exits with a usage
/// error naming the bad value.
private func modelDeclination(location: String, year: String?, options: CommandOptions) -> Double {
    let place: GeodeticLocation
    do {
        place = try GeodeticLocation(parsing: location)
    } catch {
        options.fail("--location \(location): \(error)")
    }
    guard let yearText = year, let decimalYear = Double(yearText), decimalYear.isFinite else {
        options.fail("--location needs --year, the decimal year of the recording (e.g. 2026.9)")
    }
    let model = WorldMagneticModel.wmm2025
    if !model.isValid(at: decimalYear) {
        FileHandle.standardError.write(Data(
            "motionctl: warning: WMM2025 is valid 2025.0–2030.0; \(decimalYear) is extrapolated\n".utf8))
    }
    return model.declination(at: place, year: decimalYear)
}

extension IMURecordingError {
    /// Whether the file could not be read at all (as opposed to holding bad data).
    var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }
}
