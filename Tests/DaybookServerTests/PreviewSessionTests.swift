import DaybookBuild
import DaybookModel
@testable import DaybookServer
import DaybookTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What happened, in order, from any thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func add(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Instant
    init(_ text: String) { instant = Fixed.at(text) }
    var now: Instant { lock.withLock { instant } }
    func set(_ text: String) { lock.withLock { instant = Fixed.at(text) } }
}

@Suite("Preview rebuilds and live reload")
struct PreviewSessionTests {
    func session(_ site: SiteFixture, clock: TestClock) -> PreviewSession {
        PreviewSession(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: "output"), hub: ReloadHub(),
            clock: { clock.now })
    }

    @Test("an edit reloads exactly the pages that show it; a broken edit keeps the old pages and sends the error")
    func reloadAndFailure() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let session = session(site, clock: TestClock(IndexSite.now))
        await session.rebuild()
        var events = await session.hub.subscribe().makeAsyncIterator()

        // p6 is on its own page, timeline page 3, Zoë's page 2 and Évora's page; not on home or in the feed.
        try site.write("content/posts.json", try #require(site.read("content/posts.json")).replacing(#""caption": "plain""#, with: #""caption": "plain, edited""#))
        await session.rebuild()
        #expect(await events.next() == .built)
        #expect(await events.next() == .reload(
            paths: ["/blog/locations/évora/", "/blog/posts/p6/", "/blog/timeline/page/3/", "/blog/users/zoe/page/2/"], all: false))

        try site.write("content/posts.json", "[{\"id\": \"p1\",]")
        let failed = await session.rebuild()
        #expect(!failed.succeeded)
        guard case .failed(let text) = await events.next() else { Issue.record("expected a failure event"); return }
        // Every diagnostic of the failed run, as the terminal shows them.
        #expect(text == """
            content/comments.json:1:9: warning: comment 'c1' is on post 'p2', which does not exist; it is left out
            content/posts.json:1:14: error: invalid JSON: expected a key in double quotes
            content/sent-prompts.json:4:10: warning: sent prompt 's3' names prompt 'gone', which does not exist; it is shown as a placeholder
            """)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, edited") == true)
        // A page opened now still shows the error at once.
        var late = await session.hub.subscribe().makeAsyncIterator()
        #expect(await late.next() == .failed(text))

        // The old pages stay served while the sources are broken.
        let app = Application(responder: SiteResponder(outputDirectory: site.directory.appending(path: "output"), basePath: "/blog/", hub: ReloadHub()))
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/blog/posts/p6/", method: .get)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("plain, edited"))
        }
    }

    @Test("a stylesheet change swaps CSS without reloading pages")
    func cssOnly() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let session = session(site, clock: TestClock(IndexSite.now))
        await session.rebuild()
        var events = await session.hub.subscribe().makeAsyncIterator()
        try site.write("Templates/style.css", "body { color: rebeccapurple; }\n")
        await session.rebuild()
        #expect(await events.next() == .built)
        #expect(await events.next() == .css)
    }

    @Test("when the day changes in the site's zone, the site is rebuilt and today's prompt moves on")
    func dayChange() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("content/prompts/q4.json", #"{"id": "q4", "title": "Tomorrow's question", "date": "2026-11-21"}"#)
        let clock = TestClock("2026-11-20T23:59:00Z")
        let session = session(site, clock: clock)
        await session.rebuild()
        #expect(HTMLProbe.dataIDs(site.read("output/journal/index.html") ?? "") == ["q2", "q1"])
        #expect(await session.secondsUntilTomorrow() == 60)
        var events = await session.hub.subscribe().makeAsyncIterator()

        clock.set("2026-11-20T23:59:59Z")
        #expect(await session.rebuildIfTheDayChanged() == false)
        clock.set("2026-11-21T00:00:01Z")
        #expect(await session.rebuildIfTheDayChanged() == true)
        #expect(HTMLProbe.dataIDs(site.read("output/journal/index.html") ?? "").first == "q4")
        #expect(await events.next() == .built)
        guard case .reload(let paths, _) = await events.next() else { Issue.record("expected a reload"); return }
        #expect(paths.contains("/blog/journal/"))
        #expect(paths.contains("/blog/"))
    }
}

@Suite("Source watcher")
struct SiteWatcherTests {
    /// The first batch from `stream` that contains `path`, or nil after `seconds`.
    func wait(for path: String, in stream: AsyncStream<[String]>, seconds: Double = 5) async -> [String]? {
        await withTaskGroup(of: [String]?.self) { group in
            group.addTask {
                for await batch in stream where batch.contains(path) { return batch }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test("content, template and site.yml changes are reported; output and hidden files are not")
    func reports() async throws {
        let site = try SiteFixture(IndexSite.archive)
        // Armed when `changes()` returns: no wait before the writes.
        let stream = SiteWatcher(siteDirectory: site.directory).changes()
        try site.write("output/ignored.html", "x")
        try site.write("content/.posts.json.swp", "x")
        try site.write("content/posts.json", "[]")
        let batch = await wait(for: "content/posts.json", in: stream)
        #expect(batch == ["content/posts.json"])
        // A backup file is named (the build reads it as a file under content/), though it calls for no rebuild.
        try site.write("content/posts.json~", "[]")
        #expect(await wait(for: "content/posts.json~", in: stream) == ["content/posts.json~"])
        #expect(!SiteWatcher.matters("content/posts.json~"))
        try site.write("content/posts/new.md", "---\nid: n\n---\n")
        #expect(await wait(for: "content/posts/new.md", in: stream) != nil)
        try site.write("site.yml", "title: Changed\n")
        #expect(await wait(for: "site.yml", in: stream) != nil)
    }

    #if os(Linux)
    @Test("when the kernel's event queue overflows, the roots are reported and folders made meanwhile are watched")
    func overflow() throws {
        try watchingContent { site, fd, state in
            // A folder made while events are lost: its creation is read and thrown away here.
            try FileManager.default.createDirectory(at: site.directory.appending(path: "content/late"), withIntermediateDirectories: false)
            var lost = [UInt8](repeating: 0, count: 4096)
            _ = lost.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }

            var event = inotify_event()
            event.wd = -1
            event.mask = UInt32(IN_Q_OVERFLOW)
            let overflow = withUnsafeBytes(of: event) { Array($0) }
            #expect(state.changes(in: overflow[...]) == ["Templates", "content"])
            try site.write("content/late/a.md", "x")
            #expect(state.read(timeoutMilliseconds: 2000) == ["content/late/a.md"])
        }
    }

    /// The index site with `content/` watched by a bare `InotifyState`, for tests that feed it events.
    func watchingContent(_ body: (SiteFixture, Int32, InotifyState) throws -> Void) throws {
        let site = try SiteFixture(IndexSite.archive)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(fd >= 0)
        defer { close(fd) }
        let state = InotifyState(fd: fd, site: site.directory.path)
        state.addTree(site.directory.appending(path: "content").path)
        try body(site, fd, state)
    }

    @Test("once a folder could not be watched, every batch also names the roots, so rebuilds read the site whole")
    func missedWatch() throws {
        try watchingContent { site, _, state in
            // A folder that is gone needs no watch: nothing is missed.
            state.missedWatch(errorNumber: ENOENT)
            try site.write("content/posts.json", "[]")
            #expect(state.read(timeoutMilliseconds: 2000) == ["content/posts.json"])
            // The kernel's limit on watches: from now on the roots come with every change.
            state.missedWatch(errorNumber: ENOSPC)
            try site.write("content/posts.json", "[ ]")
            #expect(state.read(timeoutMilliseconds: 2000) == ["Templates", "content", "content/posts.json"])
            #expect(state.read(timeoutMilliseconds: 50) == [])
        }
    }
    #endif

    /// Three saves of the posts 20 ms apart. They are written while blocking this thread: a
    /// `Task.sleep` between saves waits for a free concurrency thread to resume, and on a CI
    /// machine whose 2 threads ran other tests' builds, that once took longer than the quiet
    /// period and split the burst.
    func writeBurst(_ site: SiteFixture, _ posts: String) throws {
        for step in 1...3 {
            try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: "\"caption\": \"plain \(step)\""))
            if step < 3 { Thread.sleep(forTimeInterval: 0.02) }
        }
    }

    /// A session over the index site, at its fixed now, writing into its `output/`.
    func indexSession(_ site: SiteFixture) -> PreviewSession {
        PreviewSession(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: "output"), hub: ReloadHub(),
            clock: { Fixed.at(IndexSite.now) })
    }

    @Test("the preview service rebuilds after a burst of edits settles, once, and sleeps while nothing changes", .timeLimit(.minutes(1)))
    func debounced() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let session = indexSession(site)
        await session.rebuild()
        var events = await session.hub.subscribe().makeAsyncIterator()
        var service = PreviewService(session: session, watcher: SiteWatcher(siteDirectory: site.directory))
        // Far longer than the burst's 20 ms gaps, even on a machine busy with the other tests (60 ms by default).
        service.quietPeriod = .seconds(1)
        // The watches are in place once `changes()` returns, so no save below can be missed, however
        // late the loop starts on a busy machine (it once started after the burst, and the test hung).
        let watch = service.watcher.watch()
        let pending = PendingChanges()
        let running = Task { [service] in await service.watchLoop(watch, pending: pending) }
        // While nothing changes the loop sleeps: a build's worth of time (one asked for here,
        // which changes no source) passes without it looking once.
        await session.rebuild()
        #expect(await events.next() == .built)
        #expect(await pending.asked == 0)
        let posts = try #require(site.read("content/posts.json"))
        try writeBurst(site, posts)
        #expect(await events.next() == .built)
        guard case .reload(let paths, _) = await events.next() else { Issue.record("expected a reload"); return }
        #expect(paths.contains("/blog/posts/p6/"))
        #expect(site.read("output/posts/p6/index.html")?.contains("plain 3") == true)
        // Asked once a batch the watcher reported (a write may come as two) and once a wake-up
        // in the quiet period, not every few milliseconds of the second it lasted.
        #expect(await pending.asked <= 12)
        running.cancel()
        await running.value
    }

    @Test("once the watcher is in place, a rebuild reads again only the paths it named; before, the whole site")
    func readsNamedPaths() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let preview = indexSession(site)
        #expect(await preview.rebuild().succeeded)
        let posts = try #require(site.read("content/posts.json"))
        try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: #""caption": "plain, first""#))
        // The last read came before the watcher: its changes may have gone unseen, so all is read.
        await preview.watcherStarted()
        #expect(await preview.rebuild(changed: ["site.yml"]).succeeded)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, first") == true)
        // From now on the watcher names every change, and only what it named is read. (A real
        // watcher would have named the posts; leaving them out shows that they were not read.)
        try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: #""caption": "plain, second""#))
        #expect(await preview.rebuild(changed: ["site.yml"]).succeeded)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, first") == true)
        #expect(await preview.rebuild(changed: ["content/posts.json"]).succeeded)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, second") == true)
    }

    @Test("rebuilds asked for at once run one after the other, never side by side")
    func oneAtATime() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let events = EventLog()
        // The clock is read as a build starts, and the log written as it ends.
        let preview = PreviewSession(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: "output"), hub: ReloadHub(),
            clock: { events.add("start"); return Fixed.at(IndexSite.now) }, log: { _ in events.add("end") })
        async let first = preview.rebuild()
        async let second = preview.rebuild()
        async let third = preview.rebuild()
        let results = await [first, second, third]
        #expect(results.allSatisfy { $0.succeeded })
        #expect(events.all == ["start", "end", "start", "end", "start", "end"])
    }

    @Test("a rebuild reads the site whole again once the interval since its last whole read has passed")
    func wholeReadAfterInterval() async throws {
        // An edit the watcher did not name, as one through a hard link in another folder: unread
        // while the last whole read is recent, read by the first rebuild after the interval.
        for (interval, read) in [(Duration.seconds(60), false), (.zero, true)] {
            let site = try SiteFixture(IndexSite.archive)
            let preview = PreviewSession(
                siteDirectory: site.directory, outputDirectory: site.directory.appending(path: "output"), hub: ReloadHub(),
                clock: { Fixed.at(IndexSite.now) }, wholeReadEvery: interval)
            await preview.watcherStarted()
            #expect(await preview.rebuild().succeeded)
            let posts = try #require(site.read("content/posts.json"))
            try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: #""caption": "plain, unseen""#))
            #expect(await preview.rebuild(changed: ["site.yml"]).succeeded)
            #expect(site.read("output/posts/p6/index.html")?.contains("plain, unseen") == read, "every \(interval)")
        }
    }

    @Test("a rebuild puts the edited post's page in place as a new file, renamed over the old one")
    func replacesWholeFiles() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let session = indexSession(site)
        #expect(await session.rebuild().succeeded)
        let before = try #require(site.inode("output/posts/p6/index.html"))
        let posts = try #require(site.read("content/posts.json"))
        try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: #""caption": "plain, edited""#))
        let result = await session.rebuild()
        #expect(result.report?.writtenPaths.contains("posts/p6/index.html") == true)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, edited") == true)
        #expect(try #require(site.inode("output/posts/p6/index.html")) != before)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/.daybook-tmp").path))
    }

    @Test("serve --drafts and --future rebuild with drafts and future items")
    func draftsAndFuture() async throws {
        let site = try SiteFixture(JournalSite.archive)
        let session = PreviewSession(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: "output"), hub: ReloadHub(),
            clock: { Fixed.at(JournalSite.now) }, includeFuture: true, includeDrafts: true)
        #expect(await session.rebuild().succeeded)
        #expect(site.read("output/posts/pd/index.html") != nil)
        #expect(HTMLProbe.attributeValues("data-response", in: site.read("output/journal/a/index.html") ?? "") == ["r0", "r1", "r2", "rf"])
    }
}
