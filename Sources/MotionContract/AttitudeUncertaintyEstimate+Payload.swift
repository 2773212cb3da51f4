import MotionModel

extension AttitudeUncertaintyEstimate {
    /// The optional `uncertainty` object of `fields` (device motion's and a health fusion entry's).
    /// - Returns: nil when absent.
    /// - Throws: ``PayloadError`` naming a missing or wrong `heading` or `inclination`.
    static func decode(in fields: JSONObjectReader<PayloadError>) throws(PayloadError) -> AttitudeUncertaintyEstimate? {
        guard let estimate = try fields.object("uncertainty") else { return nil }
        return AttitudeUncertaintyEstimate(
            heading: try estimate.required("heading", estimate.measurement),
            inclination: try estimate.required("inclination", estimate.measurement))
    }
}
