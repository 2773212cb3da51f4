import Foundation
import MotionContract
import MotionHAL
import MQTT
import Synchronization

extension RecordCommand {
    /// `motionctl record --remote DEVICE`: the board's published gyro, accelerometer and magnetometer
    /// streams into a recording, merged by time (``RemoteRecordingMerger``), with the lost messages
    /// counted; exits the process.
    static func recordRemote(_ deviceID: String, connection: BrokerCommandOptions, output: String, seconds: Double?) -> Never {
        let topics = TopicLayout(prefix: connection.prefix, deviceID: deviceID)
        let writer: IMURecordingWriter
        do {
            writer = try IMURecordingWriter(
                path: output, includesMagnetometer: true,
                comment: "MotionBridge recording; remote device \(topics.base) on \(connection.broker) (its published "
                    + "gyro, accelerometer and magnetometer topics); gyr rad/s, acc m/s^2, mag uT; started \(Date())")
        } catch {
            CommandOptions.exit(error.description, status: 73)  // EX_CANTCREAT
        }
        let state = Mutex((merger: RemoteRecordingMerger(), writer: writer, messages: 0))
        let services: [MotionService] = [.gyro, .accelerometer, .magnetometer]
        let client = connection.subscriber(to: services.map(topics.data), command: "record") { message in
            guard case .data(let service)? = topics.kind(ofTopic: message.topic) else { return }
            state.withLock { state in
                state.messages += 1
                state.merger.receive(message.payload, of: service)
                state.writer.append(state.merger.rows())
            }
        }
        CommandOptions.waitForStop(after: seconds)
        client.shutdown(timeout: .seconds(1))
        let (count, messages, lost, unreadable, failure) = state.withLock { state in
            state.writer.append(state.merger.rows(finishing: true))
            let failure: String? = {
                do { try state.writer.flush(); return nil } catch { return "\(error)" }
            }()
            return (state.writer.count, state.messages, state.merger.lost, state.merger.unreadable, failure)
        }
        if let failure { CommandOptions.exit(failure, status: 74) }  // EX_IOERR
        let gaps = services.map { "\($0.topicName) \(lost[$0] ?? 0)" }.joined(separator: ", ")
        FileHandle.standardError.write(Data(
            ("motionctl: recorded \(count) samples from \(messages) messages of \(topics.base) to \(output); "
                + "messages lost: \(gaps)" + (unreadable > 0 ? "; \(unreadable) unreadable" : "") + "\n").utf8))
        guard count > 0 else {
            CommandOptions.exit("no gyroscope samples arrived: is \(topics.base) online with its gyro running?", status: 1)
        }
        exit(0)
    }
}
