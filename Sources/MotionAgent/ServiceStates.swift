import MotionContract

/// Every service's run-time state, one for each service always: a total table, so that reading or changing
/// one needs no unwrapping (the initialiser fills every service and nothing removes one).
struct ServiceStates: Sendable {
    /// The states in ``MotionService/ordinal`` order (every service is there).
    private var states: [ServiceState]

    /// A table with `make(service)` for every service.
    init(_ make: (MotionService) -> ServiceState) {
        states = MotionService.allCases.map(make)
        precondition(MotionService.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
    }

    /// The states by service.
    var byService: [MotionService: ServiceState] {
        Dictionary(uniqueKeysWithValues: MotionService.allCases.map { ($0, states[$0.ordinal]) })
    }

    /// The state of `service`, changed in place.
    subscript(service: MotionService) -> ServiceState {
        get { states[service.ordinal] }
        _modify { yield &states[service.ordinal] }
    }

    /// What `body` makes of `service`'s state, read in place: the publishing path reads a few fields of it
    /// for every message, and the subscript's getter would copy the whole state (its settings hold
    /// strings and arrays) for each field.
    func reading<Result>(_ service: MotionService, _ body: (borrowing ServiceState) -> Result) -> Result {
        body(states[service.ordinal])
    }
}
