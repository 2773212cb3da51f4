import Foundation
import MotionAgent
import MotionContract
import MotionFleet

/// `motionctl config set PATTERN FILE|KEY=VALUE…`: sends one run-time configuration document to every
/// matching device's `{base}/config/set` and waits for each device's answer (as `start` and `stop` do).
enum ConfigSetCommand {
    static let usage = """
        usage: motionctl config set PATTERN FILE|KEY=VALUE… \(FleetCommandRound.usage)
          sends a run-time configuration document to {prefix}/{id}/config/set of every device matching PATTERN:
          FILE, a JSON object, or KEY=VALUE pairs with the configuration file's dotted names, e.g.
            services.gyro.rate_hz=10 services.gyro.mode=mean health_interval=30 services.magnetometer.enabled=false
            mount_matrix="0, 1, 0; -1, 0, 0; 0, 0, 1"   services.gyro=null (the file's gyro settings again)
          (a VALUE is read as JSON when it is JSON, else as text). The document is merged into what the device
          was sent before and kept in its state file; a document the agent would refuse is refused here first
        \(FleetCommandRound.explanation)
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: FleetCommandRound.valued, switches: ["--json"], usage: usage)
        guard options.positional.count >= 2 else { options.fail("config set needs PATTERN and FILE or KEY=VALUE…") }
        let sources = Array(options.positional.dropFirst())
        let document: [UInt8]
        if sources.count == 1, !sources[0].contains("=") {
            guard let bytes = FileManager.default.contents(atPath: sources[0]) else { options.fail("cannot read \(sources[0])") }
            document = Array(bytes)
        } else {
            do {
                document = JSONWriter.canonical(try ConfigurationPatch.document(from: sources))
            } catch {
                options.fail(error.description)
            }
        }
        // Checked as a device checks it (with a declination, which the devices' files may give, so that
        // a true-north frame is not refused here).
        var probe = AgentConfiguration()
        probe.magneticReference = .declination(0)
        do {
            _ = try probe.applying(remote: try RemoteConfiguration().accepting(document).overlay)
        } catch {
            options.fail("the document: \(error)")
        }
        FleetCommandRound.run(FleetCommandRound.request(options, pattern: options.positional[0], target: .configuration, payload: document))
    }
}
