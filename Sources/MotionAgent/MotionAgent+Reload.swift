import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionMath
import Synchronization

extension MotionAgent {
    /// Applies a new configuration without dropping the connection: service settings, the magnetic
    /// reference, the calibration file and the health interval take effect at once; changes that need a restart (device, identity, broker) are kept
    /// as they are and returned as notes.
    /// - Returns: one line per setting that was not applied.
    @discardableResult
    public func reload(_ new: AgentConfiguration) -> [String] {
        controlQueue.sync {
            let old = configuration
            let plan = ReloadPlan(from: old, to: new, services: state.withLock { $0.services })
            var notes = plan.restartNotes
            state.withLock { state in
                state.configuration.services = new.services
                state.configuration.healthInterval = new.healthInterval
                state.configuration.magneticReference = new.magneticReference
            }
            if plan.reloadsCalibration {
                do {
                    if let path = new.calibration {
                        try applyCalibration(path)
                    } else {
                        engine.setCalibration(nil)
                    }
                    state.withLock { $0.configuration.calibration = new.calibration }
                } catch {
                    notes.append("calibration: \(error)")
                }
            }
            if plan.changesMagneticReference {
                // Validated with the file: a failure here would be a range the validation missed.
                do { try apply(new.magneticReference) } catch { notes.append("magnetic reference: \(error)") }
            }
            for (service, next) in plan.restartedServices {
                state.withLock { $0.services[service] = next }
                restart(service)
            }
            scheduleHealthReports(every: new.healthInterval)
            AgentLog.info("configuration reloaded" + (notes.isEmpty ? "" : "; not applied: " + notes.joined(separator: "; ")))
            return notes
        }
    }
}
