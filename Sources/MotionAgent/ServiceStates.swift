import MotionContract

/// Every service's run-time state, one for each service always: a total table, so that reading or changing
/// one needs no unwrapping (the initialiser fills every service and nothing removes one).
struct ServiceStates: Sendable {
    /// The states by service (every service is there).
    private(set) var byService: [MotionService: ServiceState]

    /// A table with `make(service)` for every service.
    init(_ make: (MotionService) -> ServiceState) {
        byService = Dictionary(uniqueKeysWithValues: MotionService.allCases.map { ($0, make($0)) })
    }

    /// The state of `service`.
    subscript(service: MotionService) -> ServiceState {
        get {
            guard let state = byService[service] else { preconditionFailure("no state for \(service): the table is total") }
            return state
        }
        set { byService[service] = newValue }
    }
}
