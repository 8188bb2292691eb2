import DaybookFeed
import DaybookModel
import DaybookTestSupport
import Testing

/// CONTRACT §3, journal order, with literal inputs and exact id lists.
@Suite("Journal feed")
struct JournalFeedTests {
    let utc = Fixed.zone("UTC")

    func prompt(_ id: String, date: String? = nil) -> Prompt {
        Prompt(id: id, title: "Title \(id)", date: date.map(Fixed.day))
    }

    func sent(_ id: String, _ promptID: String, _ at: String) -> SentPrompt {
        SentPrompt(id: id, promptID: promptID, sentAt: Fixed.at(at))
    }

    func ids(_ prompts: [Prompt], _ sent: [SentPrompt], now: String, zone: String = "UTC", future: Bool = false) -> [String] {
        let moment = BuildMoment(now: Fixed.at(now), timeZone: Fixed.zone(zone), includeFuture: future)
        return JournalFeed(prompts: prompts, sentPrompts: sent).entries(at: moment).entries.map(\.promptID)
    }

    @Test("sent prompts newest first")
    func newestFirst() {
        let prompts = ["a", "b", "c"].map { prompt($0) }
        let sent = [
            sent("s1", "a", "2026-11-18T08:00:00Z"), sent("s2", "b", "2026-11-20T08:00:00Z"), sent("s3", "c", "2026-11-19T08:00:00Z"),
        ]
        #expect(ids(prompts, sent, now: "2026-11-21T12:00:00Z") == ["b", "c", "a"])
    }

    @Test("equal sentAt is broken by sent-prompt id ascending, by scalar value")
    func tiesByID() {
        let prompts = ["a", "b", "c"].map { prompt($0) }
        let sent = [
            sent("s2", "a", "2026-11-20T08:00:00Z"), sent("s10", "b", "2026-11-20T09:00:00+01:00"), sent("s1", "c", "2026-11-20T08:00:00Z"),
        ]
        // s1 < s10 < s2 by Unicode scalars.
        #expect(ids(prompts, sent, now: "2026-11-21T12:00:00Z") == ["c", "b", "a"])
    }

    @Test("a prompt sent twice is listed once, at its newest sending")
    func sentTwice() {
        let prompts = ["a", "b"].map { prompt($0) }
        let sent = [
            sent("s1", "a", "2026-11-10T08:00:00Z"), sent("s2", "b", "2026-11-15T08:00:00Z"), sent("s3", "a", "2026-11-20T08:00:00Z"),
        ]
        let moment = BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: utc)
        let entries = JournalFeed(prompts: prompts, sentPrompts: sent).entries(at: moment).entries
        #expect(entries.map(\.promptID) == ["a", "b"])
        #expect(entries.map(\.sentPromptID) == ["s3", "s2"])
    }

    @Test("today's prompt is pinned first and not listed again where it was sent earlier")
    func todayPinned() {
        let prompts = [prompt("a"), prompt("t", date: "2026-11-21"), prompt("b")]
        let sent = [sent("s1", "t", "2026-11-20T08:00:00Z"), sent("s2", "a", "2026-11-19T08:00:00Z"), sent("s3", "b", "2026-11-21T07:00:00Z")]
        let moment = BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: utc)
        let entries = JournalFeed(prompts: prompts, sentPrompts: sent).entries(at: moment).entries
        #expect(entries.map(\.promptID) == ["t", "b", "a"])
        #expect(entries.map(\.isToday) == [true, false, false])
        // Sent yesterday, not today: the pinned entry carries no sending of its own.
        #expect(entries[0].sentAt == nil)
    }

    @Test("several prompts dated today: the smallest id wins, with a warning for each other")
    func severalToday() {
        let prompts = [prompt("m", date: "2026-11-21"), prompt("k", date: "2026-11-21"), prompt("z", date: "2026-11-21")]
        let moment = BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: utc)
        let result = JournalFeed(prompts: prompts, sentPrompts: []).entries(at: moment)
        #expect(result.entries.map(\.promptID) == ["k"])
        #expect(result.diagnostics.map(\.message) == [
            "prompt 'm' is also dated 2026-11-21; 'k' (the smallest id) is today's prompt",
            "prompt 'z' is also dated 2026-11-21; 'k' (the smallest id) is today's prompt",
        ])
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test("sent prompts after now are left out, and listed with --future")
    func future() {
        let prompts = ["a", "b"].map { prompt($0) }
        let sent = [sent("s1", "a", "2026-11-21T12:00:00Z"), sent("s2", "b", "2026-11-21T12:00:01Z")]
        #expect(ids(prompts, sent, now: "2026-11-21T12:00:00Z") == ["a"])
        #expect(ids(prompts, sent, now: "2026-11-21T12:00:00Z", future: true) == ["b", "a"])
    }

    @Test("a sent prompt whose prompt is missing is a placeholder, with a warning")
    func skeleton() {
        let moment = BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: utc)
        var lost = sent("s1", "gone", "2026-11-20T08:00:00Z")
        lost.origin = SourceLocation(path: "content/sent-prompts.json", line: 3, column: 9)
        let result = JournalFeed(prompts: [prompt("a")], sentPrompts: [lost, sent("s2", "a", "2026-11-19T08:00:00Z")]).entries(at: moment)
        #expect(result.entries.map(\.promptID) == ["gone", "a"])
        #expect(result.entries.map(\.isSkeleton) == [true, false])
        #expect(result.diagnostics.map(\.description) == [
            "content/sent-prompts.json:3:9: warning: sent prompt 's1' names prompt 'gone', which does not exist; it is shown as a placeholder"
        ])
    }

    @Test("today is the calendar day in the site zone, on both sides of midnight")
    func zones() {
        let prompts = [prompt("nov20", date: "2026-11-20"), prompt("nov21", date: "2026-11-21")]
        // 23:30 UTC on the 20th is already the 21st in Tokyo (UTC+9).
        #expect(ids(prompts, [], now: "2026-11-20T23:30:00Z", zone: "UTC") == ["nov20"])
        #expect(ids(prompts, [], now: "2026-11-20T23:30:00Z", zone: "Asia/Tokyo") == ["nov21"])
        // 02:00 UTC on the 21st is still the 20th in Los Angeles (UTC-8).
        #expect(ids(prompts, [], now: "2026-11-21T02:00:00Z", zone: "UTC") == ["nov21"])
        #expect(ids(prompts, [], now: "2026-11-21T02:00:00Z", zone: "America/Los_Angeles") == ["nov20"])
    }

    @Test("across a DST change the day follows the wall clock")
    func daylightSaving() {
        // Europe/Lisbon moves from UTC+1 to UTC+0 at 02:00 local on 2026-10-25.
        let prompts = [prompt("oct24", date: "2026-10-24"), prompt("oct25", date: "2026-10-25")]
        #expect(ids(prompts, [], now: "2026-10-24T22:59:59Z", zone: "Europe/Lisbon") == ["oct24"])
        #expect(ids(prompts, [], now: "2026-10-24T23:00:00Z", zone: "Europe/Lisbon") == ["oct25"])
        // In summer the same instant is already the next day in Lisbon (UTC+1).
        let summer = [prompt("jun1", date: "2026-06-01"), prompt("jun2", date: "2026-06-02")]
        #expect(ids(summer, [], now: "2026-06-01T23:30:00Z", zone: "Europe/Lisbon") == ["jun2"])
        #expect(ids(summer, [], now: "2026-06-01T23:30:00Z", zone: "UTC") == ["jun1"])
    }

    @Test("no prompts and no sendings give an empty journal")
    func empty() {
        #expect(ids([], [], now: "2026-11-21T12:00:00Z").isEmpty)
    }

    @Test("today's entry carries a sending made earlier the same day")
    func todaySentToday() {
        let prompts = [prompt("t", date: "2026-11-21")]
        let sent = [sent("s1", "t", "2026-11-21T06:00:00Z")]
        let moment = BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: utc)
        let entries = JournalFeed(prompts: prompts, sentPrompts: sent).entries(at: moment).entries
        #expect(entries.map(\.promptID) == ["t"])
        #expect(entries[0].sentAt == Fixed.at("2026-11-21T06:00:00Z"))
    }
}
