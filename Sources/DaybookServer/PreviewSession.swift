import DaybookBuild
import DaybookModel
import DaybookRender
import Foundation

/// Rebuilds the site for the preview and tells open pages what changed.
///
/// The build is all-or-nothing, so the output folder always holds the last good build: while a
/// rebuild runs, and after one fails. One rebuild runs at a time: each waits for the one asked
/// for before it (`latest`), since an actor alone interleaves calls at their suspension points.
package actor PreviewSession {
    package let siteDirectory: URL
    package let outputDirectory: URL
    package let hub: ReloadHub
    /// "Now", injected: the clock in `daybook serve`, a fixed or stepped instant in tests.
    private let clock: @Sendable () -> Instant
    private let log: @Sendable (BuildResult) -> Void
    /// `--future` and `--drafts`, passed to every rebuild.
    private let includeFuture: Bool
    private let includeDrafts: Bool
    package private(set) var lastResult: BuildResult?
    /// The incremental layer's memo, kept between rebuilds.
    private let memo: ProcessMemo
    /// The last rebuild asked for, which the next one waits for.
    private var latest: Task<BuildResult, Never>?
    /// The calendar day of the last build in the site's zone, to notice when it changes.
    private var builtDay: CalendarDay?
    /// Whether the watcher is in place, and whether it was when the last build read the sources:
    /// only then has it named every change since, and may the next build read just those.
    private var watching = false
    private var lastReadWatched = false
    /// How long a rebuild may read only the paths the watcher named since the site was last read
    /// whole. A change the watcher cannot see (a file edited through a hard link in another
    /// folder, a network file system) would otherwise go unread for as long as the preview runs;
    /// with this it is read by the first rebuild after the interval (a whole read of a
    /// 20,000-post site costs some 40 ms).
    package let wholeReadEvery: Duration
    private var lastWholeRead: ContinuousClock.Instant?

    package init(
        siteDirectory: URL, outputDirectory: URL, hub: ReloadHub, clock: @escaping @Sendable () -> Instant,
        log: @escaping @Sendable (BuildResult) -> Void = { _ in }, includeFuture: Bool = false, includeDrafts: Bool = false,
        wholeReadEvery: Duration = .seconds(60)
    ) {
        self.wholeReadEvery = wholeReadEvery
        self.includeFuture = includeFuture
        self.includeDrafts = includeDrafts
        self.siteDirectory = siteDirectory
        self.outputDirectory = outputDirectory
        self.hub = hub
        self.clock = clock
        self.log = log
        self.memo = ProcessMemo(site: siteDirectory)
    }

    /// The path of the site's base URL, where the preview serves the folder.
    package var basePath: String { SiteURLs(baseURL: lastResult?.baseURL ?? "/").root }

    /// Tells the session that the watcher is in place: from the next build on, the builds after
    /// it may read only the paths it names.
    package func watcherStarted() { watching = true }

    /// Builds, logs, and sends the reload events the result calls for, once the rebuild before it
    /// is done.
    /// - Parameter changed: the site-relative paths the watcher named since the last build, which
    ///   is then read again for them alone when it can be (`BuildSession.changedSources`).
    @discardableResult
    package func rebuild(changed: [String]? = nil) async -> BuildResult {
        // An actor runs one call at a time only between its suspension points, and a build
        // suspends: without the chain, the midnight rebuild could run beside a save's, two builds
        // writing one folder.
        let previous = latest
        let next = Task {
            _ = await previous?.value
            return await build(changed: changed)
        }
        latest = next
        return await next.value
    }

    private func build(changed: [String]?) async -> BuildResult {
        let now = clock()
        let options = BuildOptions(
            siteDirectory: siteDirectory, outputDirectory: outputDirectory, now: now, includeFuture: includeFuture,
            includeDrafts: includeDrafts)
        var session = BuildSession(memo: memo)
        let started = ContinuousClock.now
        let recent = lastWholeRead.map { started - $0 < wholeReadEvery } ?? false
        session.changedSources = lastReadWatched && recent ? changed : nil
        if session.changedSources == nil { lastWholeRead = started }
        // Whatever this build reads (or fails before reading), it starts after the watcher did.
        lastReadWatched = watching
        // Open pages reload as soon as the files are in place; the build then saves its record.
        let hub = hub
        session.onWritten = { report, baseURL in
            let basePath = SiteURLs(baseURL: baseURL).root
            for event in ReloadEvent.events(written: report.writtenPaths, removed: report.removedPaths, basePath: basePath) {
                await hub.publish(event)
            }
        }
        let result = await SiteBuilder().build(options, session: session)
        lastResult = result
        builtDay = now.day(in: result.timeZone)
        log(result)
        if result.report == nil {
            let text = result.diagnostics.map(\.description).joined(separator: "\n")
            await hub.publish(.failed(text))
        }
        return result
    }

    /// Rebuilds when the calendar day has changed in the site's zone since the last build, so
    /// today's prompt moves on, as the journal feed does when the device's day changes.
    @discardableResult
    package func rebuildIfTheDayChanged() async -> Bool {
        guard let builtDay, let zone = lastResult?.timeZone, clock().day(in: zone) != builtDay else { return false }
        await rebuild()
        return true
    }

    /// Seconds until the next midnight in the site's zone (at least one), for the day timer.
    package func secondsUntilTomorrow() -> Double {
        guard let zone = lastResult?.timeZone else { return 60 }
        let now = clock()
        let tomorrow = CalendarDay(daysSince1970: now.day(in: zone).daysSince1970 + 1)
        return max(1, tomorrow.start(in: zone).secondsSince1970 - now.secondsSince1970)
    }
}
