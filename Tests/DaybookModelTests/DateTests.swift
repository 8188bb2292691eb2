import DaybookModel
import Foundation
import Testing

@Suite("Dates")
struct DateTests {
    @Test("RFC 3339 date-times", arguments: [
        ("2026-11-21T08:00:00Z", 1_795_248_000.0),
        ("2026-11-21T09:00:00+01:00", 1_795_248_000.0),
        ("2026-11-21T03:30:00-04:30", 1_795_248_000.0),
        ("2026-11-21t08:00:00.5z", 1_795_248_000.5),
    ])
    func parses(text: String, seconds: Double) {
        #expect(Instant(rfc3339: text)?.secondsSince1970 == seconds)
    }

    @Test("not RFC 3339", arguments: [
        "2026-11-21", "2026-11-21 08:00:00Z", "2026-11-21T08:00:00", "2026-02-30T08:00:00Z", "2026-11-21T24:00:00Z",
        "2026-11-21T08:00:00+0100", "21/11/2026", "",
    ])
    func rejects(text: String) {
        #expect(Instant(rfc3339: text) == nil)
    }

    @Test("calendar days", arguments: [("2026-11-21", true), ("2024-02-29", true), ("2026-02-29", false), ("2026-1-01", false), ("2026-13-01", false)])
    func days(text: String, valid: Bool) {
        #expect((CalendarDay(text) != nil) == valid)
    }

    @Test("start of a day in a zone")
    func startOfDay() {
        let lisbon = TimeZone(identifier: "Europe/Lisbon")!
        #expect(CalendarDay("2026-06-02")!.start(in: lisbon).utcText == "2026-06-01T23:00:00Z")
        #expect(CalendarDay("2026-12-02")!.start(in: lisbon).utcText == "2026-12-02T00:00:00Z")
    }
}
