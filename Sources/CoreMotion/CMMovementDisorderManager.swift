import Dispatch

/// The handler of ``CMMovementDisorderManager/queryDyskineticSymptom(from:to:withHandler:)``: the results
/// (empty on an error) and the error.
public typealias CMDyskineticSymptomResultHandler = ([CMDyskineticSymptomResult], (any Error)?) -> Void
/// The handler of ``CMMovementDisorderManager/queryTremor(from:to:withHandler:)``: the results (empty on
/// an error) and the error.
public typealias CMTremorResultHandler = ([CMTremorResult], (any Error)?) -> Void

/// Apple's manager of Parkinsonian tremor and dyskinesia results (watchOS, with an entitlement and the
/// watch on the patient's most affected arm). Its algorithm is Apple's and clinically validated on Apple
/// Watch; a board has neither, so this class answers as a device without the feature: ``isAvailable()``
/// is false, monitoring does nothing, and every query ends with no results and ``CMErrorNotAvailable``.
/// It never crashes. Thread safety: every method may be called from any thread; handlers run on a
/// background queue, as Apple's.
open class CMMovementDisorderManager: NSObject {
    private static let queue = DispatchQueue(label: "CoreMotion.CMMovementDisorderManager")

    /// Creates a manager.
    public override init() {
        super.init()
    }

    /// Whether movement disorder results are available: false on Linux.
    open class func isAvailable() -> Bool { false }

    /// The authorization status: always ``CMAuthorizationStatus/authorized`` on Linux (there is no prompt).
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// Would enable the calculation of results for `duration` seconds (Apple: at most seven days); does
    /// nothing where results are not available.
    open func monitorKinesias(forDuration duration: TimeInterval) {}

    /// Queries the dyskinetic symptom results between two dates: none, with ``CMErrorNotAvailable``.
    open func queryDyskineticSymptom(from fromDate: Date, to toDate: Date, withHandler handler: @escaping CMDyskineticSymptomResultHandler) {
        let call = UncheckedBox(handler)
        Self.queue.async { call.value([], Self.notAvailable) }
    }

    /// Queries the tremor results between two dates: none, with ``CMErrorNotAvailable``.
    open func queryTremor(from fromDate: Date, to toDate: Date, withHandler handler: @escaping CMTremorResultHandler) {
        let call = UncheckedBox(handler)
        Self.queue.async { call.value([], Self.notAvailable) }
    }

    /// The dyskinetic symptom results between two dates (Swift's form of the query); throws
    /// ``CMErrorNotAvailable`` on Linux.
    open func queryDyskineticSymptom(from fromDate: Date, to toDate: Date) async throws -> [CMDyskineticSymptomResult] {
        throw Self.notAvailable
    }

    /// The tremor results between two dates (Swift's form of the query); throws ``CMErrorNotAvailable``
    /// on Linux.
    open func queryTremor(from fromDate: Date, to toDate: Date) async throws -> [CMTremorResult] {
        throw Self.notAvailable
    }

    /// The last time results were processed: nil (never).
    open func lastProcessedDate() -> Date? { nil }

    /// When the current monitoring ends: nil (none runs).
    open func monitorKinesiasExpirationDate() -> Date? { nil }

    private static var notAvailable: NSError {
        CMErrorNotAvailable.nsError("movement disorder results need Apple Watch's clinically validated algorithm; a board has none")
    }
}
