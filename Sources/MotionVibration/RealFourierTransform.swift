import CFFTW
import Synchronization

/// The discrete Fourier transform of a real signal of a fixed length, through FFTW's single-precision
/// real-to-complex plan (`fftwf_plan_dft_r2c_1d`, planned with `FFTW_ESTIMATE`: no timing runs at start-up,
/// and the same plan on every board). Unnormalised, as FFTW and NumPy define it:
/// X[k] = Σₙ x[n]·e^(−2πi·kn/N), for k = 0 … N/2.
///
/// Threading: FFTW's planner is not thread-safe, so plans are made and destroyed under one process-wide
/// lock; executing a plan is. Each transform owns its plan and its aligned buffers behind a lock of its
/// own, so one transform may be shared between threads (they take turns).
public final class RealFourierTransform: Sendable {
    /// The number of real samples transformed, N (even, ≥ 2).
    public let length: Int
    /// The number of complex bins of the result, N/2 + 1 (0 Hz to half the sample rate).
    public var binCount: Int { length / 2 + 1 }

    /// The plan and its buffers; only touched under ``workspace``'s lock, which is what makes sharing them
    /// between threads sound.
    private struct Workspace: @unchecked Sendable {
        let plan: fftwf_plan
        let input: UnsafeMutablePointer<Float>
        let output: UnsafeMutablePointer<fftwf_complex>
    }

    private let workspace: Mutex<Workspace>
    /// FFTW's planner (plan creation and destruction) is the one part of FFTW that is not re-entrant.
    private static let planner = Mutex(())

    /// A transform of `length` real samples (even, ≥ 2).
    public init(length: Int) {
        precondition(length >= 2 && length % 2 == 0 && length <= Int(Int32.max), "an even length ≥ 2: \(length)")
        self.length = length
        let planned = Self.planner.withLock { _ in
            let input = fftwf_alloc_real(length)!
            let output = fftwf_alloc_complex(length / 2 + 1)!
            return Workspace(plan: fftwf_plan_dft_r2c_1d(Int32(length), input, output, UInt32(FFTW_ESTIMATE))!, input: input, output: output)
        }
        workspace = Mutex(planned)
    }

    deinit {
        workspace.withLock { workspace in
            Self.planner.withLock { _ in fftwf_destroy_plan(workspace.plan) }
            fftwf_free(workspace.input)
            fftwf_free(workspace.output)
        }
    }

    /// Transforms one block and hands its bins to `read`.
    /// - Parameters:
    ///   - fill: writes the N input samples (the buffer's previous contents are undefined).
    ///   - read: reads the N/2 + 1 bins, each (real, imaginary); the buffer is valid only during the call.
    public func transform<Result>(
        fill: (UnsafeMutableBufferPointer<Float>) -> Void, read: (UnsafeBufferPointer<(Float, Float)>) -> Result
    ) -> Result {
        workspace.withLock { workspace in
            fill(UnsafeMutableBufferPointer(start: workspace.input, count: length))
            fftwf_execute(workspace.plan)
            return read(UnsafeBufferPointer(start: workspace.output, count: binCount))
        }
    }
}
