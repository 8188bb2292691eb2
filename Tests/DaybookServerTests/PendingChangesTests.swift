@testable import DaybookServer
import Testing

/// The debounce's bookkeeping: the watch loop sleeps exactly until a burst has been quiet for the
/// period, and takes the burst's paths once, sorted and without repeats.
@Suite struct PendingChangesTests {
    @Test func nothingPendingMeansNoDeadline() async {
        let pending = PendingChanges()
        #expect(await pending.quietRemaining(of: .seconds(5)) == nil)
        #expect(await pending.takeIfQuiet(for: .zero) == nil)
    }

    @Test func aChangeWaitsOutTheQuietPeriodThenIsTakenOnce() async {
        let pending = PendingChanges()
        await pending.add(["content/posts/b.md", "content/posts/a.md"])
        await pending.add(["content/posts/a.md"])
        let remaining = await pending.quietRemaining(of: .seconds(5))
        #expect(remaining.map { $0 > .seconds(4) && $0 <= .seconds(5) } == true)
        #expect(await pending.takeIfQuiet(for: .seconds(5)) == nil)
        #expect(await pending.quietRemaining(of: .zero) == .zero)
        #expect(await pending.takeIfQuiet(for: .zero) == ["content/posts/a.md", "content/posts/b.md"])
        #expect(await pending.takeIfQuiet(for: .zero) == nil)
        #expect(await pending.quietRemaining(of: .zero) == nil)
    }

    @Test func anEditorsBackupFileAloneCallsForNoRebuildButIsTakenWithTheNextChange() async {
        let pending = PendingChanges()
        await pending.add(["content/posts/a.md~"])
        #expect(await pending.quietRemaining(of: .zero) == nil)
        #expect(await pending.takeIfQuiet(for: .zero) == nil)
        await pending.add(["content/posts/a.md"])
        #expect(await pending.takeIfQuiet(for: .zero) == ["content/posts/a.md", "content/posts/a.md~"])
    }
}
