import DaybookBuild
import DaybookModel
import DaybookServer
import DaybookTestSupport
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A built site served over HTTP on 127.0.0.1 at a port the system picks, by the preview
/// server's own responder: pages need `http:` for `fetch()`, and this is how `daybook serve`
/// serves them.
///
/// With `watching`, it is the whole preview: the sources are watched, a change rebuilds, and open
/// pages get the live-reload events, as under `daybook serve`.
struct LoopbackSite: Sendable {
    /// `http://127.0.0.1:PORT` and the site's base path, ending in `/`.
    let root: String
    let site: SiteFixture
    let hub: ReloadHub
    private let running: Task<Void, any Error>

    /// Builds `site` at `now` into its `output/` folder and serves it.
    static func start(_ site: SiteFixture, now: String, watching: Bool = false) async throws -> LoopbackSite {
        let hub = ReloadHub()
        let instant = Fixed.at(now)
        let output = site.directory.appending(path: "output")
        let session = PreviewSession(siteDirectory: site.directory, outputDirectory: output, hub: hub, clock: { instant })
        let result = await session.rebuild()
        guard result.report != nil else {
            throw BrowserError("the fixture site did not build:\n" + result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        let basePath = await session.basePath
        var logger = Logger(label: "daybook-browser-tests")
        logger.logLevel = .error
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            responder: SiteResponder(outputDirectory: output, basePath: basePath, hub: hub),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "daybook"),
            onServerRunning: { channel in
                announce.yield(channel.localAddress?.port ?? 0)
                announce.finish()
            },
            logger: logger)
        var services: [any Service] = [app]
        if watching {
            // The watcher polls every 100 ms here (500 ms in `serve`) where inotify cannot be had.
            services.append(PreviewService(session: session, watcher: SiteWatcher(siteDirectory: site.directory, pollInterval: .milliseconds(100))))
        }
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        let running = Task { try await group.run() }
        var port = 0
        for await announced in ports { port = announced }
        guard port > 0 else {
            running.cancel()
            throw BrowserError("the test server did not start")
        }
        return LoopbackSite(root: "http://127.0.0.1:\(port)" + basePath, site: site, hub: hub, running: running)
    }

    /// The absolute URL of a site path such as `timeline/page/2/`.
    func url(_ path: String) -> String { root + path }

    /// Waits until a page listens to the live-reload events, so a change made next is not missed.
    func waitForReloadListener(timeout: Duration = .seconds(5)) async throws {
        let deadline = ContinuousClock.now + timeout
        while await hub.subscriberCount == 0 {
            guard ContinuousClock.now < deadline else { throw BrowserError("no page opened the live-reload stream within \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops serving (and watching) and waits until the server has let go of its port.
    ///
    /// By cancelling, not a graceful shutdown: the browser is gone by then, and Hummingbird's
    /// graceful shutdown waited 3 s here for nothing.
    func stop() async {
        running.cancel()
        _ = try? await running.value
    }
}

/// Serves `site` and opens a browser on it for `body`; quits the browser, then stops the server.
func withServedSite<Result>(
    _ archive: String, now: String, watching: Bool = false, width: Int = 1280,
    _ body: (LoopbackSite, BrowserPage) async throws -> Result
) async throws -> Result {
    let fixture = try SiteFixture(archive)
    let served = try await LoopbackSite.start(fixture, now: now, watching: watching)
    do {
        let result = try await withBrowser(width: width) { page in try await body(served, page) }
        await served.stop()
        try? FileManager.default.removeItem(at: fixture.directory)
        return result
    } catch {
        await served.stop()
        try? FileManager.default.removeItem(at: fixture.directory)
        throw error
    }
}

extension Duration {
    /// Whole milliseconds, for the timings the tests print.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
