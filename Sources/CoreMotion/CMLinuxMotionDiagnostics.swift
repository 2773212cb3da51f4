import MotionEngine

/// Linux only: the health of the process's IMU and its sensor fusion, for status reports (see
/// ``CMLinuxMotionDevice/diagnostics``): the engine's ``MotionDiagnostics`` (driver, configured and
/// achieved rate, samples, fault episodes, the current fault, and per reference frame in use whether its
/// filter has an attitude, its gyroscope bias estimate, whether the field is rejected as disturbed and the
/// filter's own heading and inclination uncertainty, 1 σ, degrees). A snapshot; take a new one to see
/// changes.
public typealias CMLinuxMotionDiagnostics = MotionDiagnostics
