import DaybookBuild
import DaybookModel
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `daybook serve`: build, serve the output folder on loopback, rebuild and reload as sources change.
///
/// The HTTP server and the preview's watcher run as services of one group, which stops both
/// cleanly on SIGINT or SIGTERM: the watcher first, closing every live-reload stream, then the
/// server, which then has no open request left to wait for.
package struct PreviewServer: Sendable {
    package var siteDirectory: URL
    package var outputDirectory: URL
    package var host: String
    package var port: Int
    /// `--future` and `--drafts`, passed to every rebuild.
    package var includeFuture: Bool
    package var includeDrafts: Bool
    package var clock: @Sendable () -> Instant
    package var log: @Sendable (BuildResult) -> Void
    package var announce: @Sendable (String) -> Void

    package init(
        siteDirectory: URL, outputDirectory: URL, host: String, port: Int, includeFuture: Bool = false,
        includeDrafts: Bool = false, clock: @escaping @Sendable () -> Instant,
        log: @escaping @Sendable (BuildResult) -> Void, announce: @escaping @Sendable (String) -> Void
    ) {
        self.siteDirectory = siteDirectory
        self.outputDirectory = outputDirectory
        self.host = host
        self.port = port
        self.includeFuture = includeFuture
        self.includeDrafts = includeDrafts
        self.clock = clock
        self.log = log
        self.announce = announce
    }

    package func run() async throws {
        let hub = ReloadHub()
        let session = PreviewSession(siteDirectory: siteDirectory, outputDirectory: outputDirectory, hub: hub, clock: clock, log: log,
            includeFuture: includeFuture, includeDrafts: includeDrafts)
        await session.rebuild()
        let basePath = await session.basePath
        var logger = Logger(label: "daybook")
        logger.logLevel = .warning
        let announce = self.announce
        let host = self.host
        let app = Application(
            responder: SiteResponder(outputDirectory: outputDirectory, basePath: basePath, hub: hub),
            configuration: .init(address: .hostname(host, port: port), serverName: "daybook"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                announce("Serving \(siteDirectory.path) at http://\(host):\(port)\(basePath) (Ctrl-C to stop)")
            },
            logger: logger)
        var preview = PreviewService(session: session, watcher: SiteWatcher(siteDirectory: siteDirectory, outputDirectory: outputDirectory))
        preview.onChange = { paths in announce("changed: \(paths.joined(separator: ", "))") }
        let group = ServiceGroup(
            configuration: .init(services: [app, preview], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw AddressInUse(port: port)
        }
    }

    /// The port was taken when the server came to bind it.
    package struct AddressInUse: Error {
        package var port: Int
    }
}
