#if canImport(Glibc)
import Glibc
#endif
import MotionMath
import MotionTestSupport
import Testing

@Suite struct UTCDateTimeTests {
    @Test func formatsKnownInstantsAsISO8601() {
        #expect(UTCDateTime(unixTime: 0).iso8601() == "1970-01-01T00:00:00Z")
        #expect(UTCDateTime(unixTime: -1).iso8601() == "1969-12-31T23:59:59Z")
        #expect(UTCDateTime(unixTime: 951_782_400).iso8601() == "2000-02-29T00:00:00Z", "a leap day of a year divisible by 400")
        #expect(UTCDateTime(unixTime: 4_107_542_400).iso8601() == "2100-03-01T00:00:00Z", "2100 has no 29 February")
        #expect(UTCDateTime(unixTime: 1_796_139_113.0425).iso8601(fractionalDigits: 3) == "2026-12-01T15:31:53.042Z")
        #expect(UTCDateTime(unixTime: 1_796_139_113.9999).iso8601() == "2026-12-01T15:31:53Z", "seconds are truncated, as Foundation does")
        #expect(UTCDateTime(unixTime: -0.25).iso8601(fractionalDigits: 2) == "1969-12-31T23:59:59.75Z")
        #expect(UTCDateTime(unixTime: 1.5).iso8601(fractionalDigits: 12) == "1970-01-01T00:00:01.500000000Z", "at most 9 digits")
    }

    @Test("agrees with the C library's gmtime_r from 1900 to 2200")
    func agreesWithGmtime() {
        var generator = SeededGenerator(seed: 20261201)
        for _ in 0..<20_000 {
            let seconds = Int.random(in: -2_208_988_800...7_258_118_400, using: &generator)
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let date = UTCDateTime(unixTime: Double(seconds))
            #expect(
                [date.year, date.month, date.day, date.hour, date.minute, date.second]
                    == [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
                        Int(parts.tm_min), Int(parts.tm_sec)], "\(seconds)")
        }
    }

    @Test func daysAndDatesAreInverses() {
        for days in stride(from: -1_000_000, through: 1_000_000, by: 337) {
            let (year, month, day) = UTCDateTime.civilDate(daysSinceEpoch: days)
            #expect(UTCDateTime.daysSinceEpoch(year: year, month: month, day: day) == days, "\(days)")
            #expect((1...12).contains(month) && (1...31).contains(day))
        }
        #expect(UTCDateTime.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(UTCDateTime.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
    }
}
