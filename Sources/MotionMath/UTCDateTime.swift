/// A moment as a UTC calendar date and time of day (proleptic Gregorian calendar, no leap seconds, as
/// Unix time counts), computed without Foundation's calendars: for the wall-clock stamps of the agent's
/// log and announcements and for the World Magnetic Model's decimal year.
public struct UTCDateTime: Sendable, Equatable {
    /// The year, e.g. 2026.
    public var year: Int
    /// The month, 1…12.
    public var month: Int
    /// The day of the month, 1…31.
    public var day: Int
    /// Hours, 0…23.
    public var hour: Int
    /// Minutes, 0…59.
    public var minute: Int
    /// Seconds, 0…59.
    public var second: Int
    /// Nanoseconds into the second, 0…999 999 999.
    public var nanosecond: Int

    /// The date and time of `unixTime`, rounded down to the nanosecond.
    /// - Parameter unixTime: seconds since 1970-01-01T00:00:00Z; finite, within about ±2.9 × 10¹¹ years.
    public init(unixTime: Double) {
        let whole = unixTime.rounded(.down)
        let seconds = Int(whole)
        let days = Self.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        nanosecond = min(Int((unixTime - whole) * 1e9), 999_999_999)
    }

    /// ISO 8601 in UTC, `2026-12-01T15:31:53Z`, or with `fractionalDigits` (1…9) digits of the second
    /// (truncated), `2026-12-01T15:31:53.042Z`.
    public func iso8601(fractionalDigits: Int = 0) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
        let places = min(max(fractionalDigits, 0), 9)
        if places > 0 {
            var fraction = nanosecond
            for _ in places..<9 { fraction /= 10 }
            text += "." + padded(fraction, places)
        }
        return text + "Z"
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` (negative before).
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // H. Hinnant's days_from_civil: years start in March, so the leap day is the last day of a year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of day `days` (0 = 1970-01-01).
    public static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        // H. Hinnant's civil_from_days, the inverse of `daysSinceEpoch(year:month:day:)`.
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
