import DaybookModel
import Foundation
import ServiceLifecycle

/// The preview's background work as a service: rebuild on source changes (debounced) and when
/// the day changes; on shutdown, stop watching and close every event stream.
package struct PreviewService: Service {
    package let session: PreviewSession
    package let watcher: SiteWatcher
    /// How long the sources must be quiet before a rebuild starts, so a burst gives one build.
    /// An editor's save (a temporary file written and renamed over the page) reaches inotify
    /// within a millisecond or two; webpack's watcher waits 20 ms for the same reason. A longer
    /// burst (a git checkout) may give two builds, the second with everything: the wait is part
    /// of every save-to-reload, so it is kept short.
    package var quietPeriod: Duration = .milliseconds(25)
    package var onChange: @Sendable ([String]) -> Void = { _ in }

    package init(session: PreviewSession, watcher: SiteWatcher) {
        self.session = session
        self.watcher = watcher
    }

    package func run() async throws {
        let hub = session.hub
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await watchLoop() }
                    group.addTask { await dayLoop() }
                    await group.waitForAll()
                }
            }
        } onGracefulShutdown: {
            Task { await hub.close() }
        }
    }

    /// - Parameters:
    ///   - watch: the watcher's `watch()` when the caller started it (a test, to know that the
    ///     watches are in place before it writes); by default the loop starts it.
    ///   - pending: where the changes wait for the quiet period (a test reads how often it was asked).
    func watchLoop(_ watch: (changes: AsyncStream<[String]>, namesEveryChange: Bool)? = nil, pending: PendingChanges = PendingChanges()) async {
        let (changes, namesEveryChange) = watch ?? watcher.watch()
        if namesEveryChange { await session.watcherStarted() }
        // Told of each batch, so that the debounce sleeps until a change comes: woken every 10 ms
        // to look, an idle preview ran a hundred times a second, and a save waited for the next
        // look (5 ms on average) before its quiet period began.
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await batch in changes {
                    await pending.add(batch)
                    arrived.yield()
                }
                arrived.finish()
            }
            group.addTask {
                // Debounce: rebuild once the sources have been quiet for `quietPeriod`, waking
                // when the quiet period of the last change ends; changes that come during a
                // rebuild are pending when it ends, and give the next.
                for await _ in arrivals {
                    while let remaining = await pending.quietRemaining(of: quietPeriod), !Task.isCancelled {
                        if remaining > .zero { try? await Task.sleep(for: remaining) }
                        if let batch = await pending.takeIfQuiet(for: quietPeriod) {
                            onChange(batch.filter(SiteWatcher.matters))
                            await session.rebuild(changed: batch)
                        }
                    }
                }
            }
            await group.waitForAll()
        }
    }

    func dayLoop() async {
        while !Task.isCancelled {
            let wait = await session.secondsUntilTomorrow()
            // Wake at least every minute: the wall clock may jump (suspend, DST, NTP).
            try? await Task.sleep(for: .milliseconds(Int(min(wait, 60) * 1000) + 50))
            if Task.isCancelled { return }
            await session.rebuildIfTheDayChanged()
        }
    }
}

/// Changes seen since the last rebuild, and when the last one that matters arrived.
///
/// Every path the watcher names is kept, so that the rebuild can read them all again; only one
/// that matters (not an editor's backup or swap file, `SiteWatcher.matters`) calls for a rebuild.
actor PendingChanges {
    private var paths = Set<String>()
    private var matters = false
    private var last = ContinuousClock.now
    /// How many times the debounce asked how long to wait: what an idle preview costs.
    private(set) var asked = 0

    func add(_ batch: [String]) {
        paths.formUnion(batch)
        guard batch.contains(where: SiteWatcher.matters) else { return }
        matters = true
        last = ContinuousClock.now
    }

    /// How long until the changes so far have been quiet for `period`; `nil` when none matters.
    func quietRemaining(of period: Duration) -> Duration? {
        asked += 1
        guard matters else { return nil }
        return max(.zero, period - (ContinuousClock.now - last))
    }

    func takeIfQuiet(for period: Duration) -> [String]? {
        guard matters, ContinuousClock.now - last >= period else { return nil }
        defer { (paths, matters) = ([], false) }
        return paths.sorted()
    }
}
