import Foundation
import MotionCommandLine
import MotionHAL

/// `motion-bench broad-variants DIR --out DIR`: writes each trial of DIR as the robustness battery's
/// variants would have recorded it (``IMURecordingVariant/battery``), one directory per variant, in the
/// trials' own CSV format, so that MotionBridge's filter (`motion-bench broad`) and VQF
/// (`Benchmarks/broad/vqf_reference.py`) score the very same data. Writes only under `--out`.
enum BroadVariants {
    static let usage = """
        usage: motion-bench broad-variants DIR --out DIR [--variant NAME,...]
          DIR        a directory of BROAD trials as CSV (e.g. ../shared/data/broad)
          --out      where to write: one directory per variant (created if missing), each with every trial
          --variant  only these variants (comma-separated): \(IMURecordingVariant.battery.map(\.name).joined(separator: ", "))
        Prints the variants' directories, one a line.
        """

    static func run(_ options: ArgumentScanner) throws {
        guard options.positional.count == 1, let directory = options.positional.first else {
            throw CommandLineError("broad-variants takes one directory")
        }
        guard let output = options["--out"] else { throw CommandLineError("broad-variants needs --out DIR") }
        let names = options["--variant"].map { $0.split(separator: ",").map(String.init) } ?? []
        let known = Set(IMURecordingVariant.battery.map(\.name))
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw CommandLineError("unknown variant \(unknown) (one of \(IMURecordingVariant.battery.map(\.name).joined(separator: ", ")))")
        }
        let variants = IMURecordingVariant.battery.filter { names.isEmpty || names.contains($0.name) }
        let files = try BroadBenchmark.trialFiles(in: directory)
        for variant in variants {
            let target = output + "/" + variant.name
            do {
                try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            } catch {
                throw BenchError("cannot create \(target): \(error.localizedDescription)")
            }
        }
        for file in files {
            let recording = try BroadBenchmark.load(file, in: directory)
            for variant in variants {
                let changed = variant.apply(to: recording)
                try changed.write(
                    toFile: output + "/" + variant.name + "/" + file,
                    comment: "\(file) as variant \(variant.name) (motion-bench broad-variants); sampling_rate_hz=\(changed.sampleRate)")
            }
        }
        for variant in variants { print(output + "/" + variant.name) }
    }
}
