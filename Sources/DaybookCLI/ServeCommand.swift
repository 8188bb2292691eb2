import ArgumentParser
import DaybookBuild
import DaybookModel
import DaybookServer
import Foundation

/// `daybook serve`: a preview that rebuilds and reloads as people write.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, serve it on loopback, and rebuild and reload pages as you edit.",
        discussion: """
            Watches content/, Templates/ and site.yml. Open pages reload when a rebuild changed them; \
            a failed rebuild shows its problems over the page and the last good build stays served. \
            The site is rebuilt when the calendar day changes in its time zone. Ctrl-C stops it. \
            "Now" starts where `daybook build` would (SOURCE_DATE_EPOCH when set, else the clock) and \
            then runs with the clock, so scheduled posts appear as their time comes.
            """
    )

    @OptionGroup var folders: SiteOptions

    @Option(name: .long, help: "The address to listen on; keep it on loopback.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "The port; 0 picks a free one and prints it.")
    var port: Int = 8000

    @Flag(name: .long, help: "Include sent prompts, posts, comments and responses dated after now, to preview scheduled items.")
    var future = false

    @Flag(name: .long, help: "Include prompts, posts, comments and responses marked draft: true.")
    var drafts = false

    @Flag(name: .long, help: "After each rebuild, list what changed item by item and the time of each phase.")
    var verbose = false

    /// Whether `host` names this machine alone (CONTRACT §6: `serve` serves on loopback; another
    /// address is the user's choice, said out loud since `--drafts` previews are served too).
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let start = try NowResolver(environment: environment, clock: { Date() }).resolveForCommand(nil)
        try folders.requireContent()
        // Before building: a taken port would otherwise fail only after the whole first build.
        if port != 0 {
            switch PortProbe.check(host: host, port: port) {
            case .free: break
            case .inUse: throw CommandFailure("port \(port) is in use; try --port 0 for a free one")
            case .unavailable(let reason): throw CommandFailure("cannot listen on \(host):\(port): \(reason)")
            }
        }
        if !Self.isLoopback(host) {
            DiagnosticPrinter.printSummary(
                "warning: --host \(host) is not a loopback address: anyone who can reach this machine can read the preview, drafts and scheduled items included; --host 127.0.0.1 keeps it to this machine",
                toStandardError: true)
        }
        if let epoch = environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
            DiagnosticPrinter.printSummary(
                "SOURCE_DATE_EPOCH is set: the preview starts at \(start.utcText), as 'daybook build' would, and then follows the clock")
        }
        let clock = ServeClock(start: start)
        let verbose = verbose
        let server = PreviewServer(
            siteDirectory: folders.siteDirectory, outputDirectory: folders.outputDirectory, host: host, port: port,
            includeFuture: future, includeDrafts: drafts,
            clock: { clock.now() },
            log: { result in
                DiagnosticPrinter.print(result.diagnostics)
                if result.succeeded {
                    DiagnosticPrinter.printSummary(BuildSummary.line(result))
                    if verbose { BuildSummary.details(result).forEach { DiagnosticPrinter.printSummary($0) } }
                } else {
                    DiagnosticPrinter.printSummary("build failed; still serving the last good build", toStandardError: true)
                }
            },
            announce: { DiagnosticPrinter.printSummary($0) })
        do {
            try await server.run()
        } catch let error as PreviewServer.AddressInUse {
            // Taken between the check above and the bind.
            throw CommandFailure("port \(error.port) is in use; try --port 0 for a free one")
        }
    }
}
