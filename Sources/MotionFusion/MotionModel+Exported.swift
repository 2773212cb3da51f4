// The filters speak the model's vocabulary (reference frames): whoever imports MotionFusion sees it
// without importing MotionModel too.
@_exported import MotionModel
