// The contract's payloads carry the model's values (samples, services, accuracies, frames): whoever
// imports MotionContract sees them without importing MotionModel too.
@_exported import MotionModel
