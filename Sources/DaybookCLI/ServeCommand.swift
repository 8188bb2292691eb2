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
            The site is rebuilt when the calendar day changes in its time zone. Ctrl-C stops it.
            """
    )

    @Option(name: .long, help: "The site folder, holding site.yml, content/ and Templates/.")
    var site: String = "."

    @Option(name: .long, help: "The output folder to build into and serve (default: <site>/output).")
    var output: String?

    @Option(name: .long, help: "The address to listen on; keep it on loopback.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "The port; 0 picks a free one and prints it.")
    var port: Int = 8000

    @Flag(name: .long, help: "Include sent prompts, posts, comments and responses dated after now.")
    var future = false

    @Flag(name: .long, help: "Include prompts, posts, comments and responses marked draft: true.")
    var drafts = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let cwd = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
        let siteURL = URL(filePath: site, directoryHint: .isDirectory, relativeTo: cwd).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: siteURL.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("site folder '\(site)' does not exist")
        }
        let outputURL = output.map { URL(filePath: $0, directoryHint: .isDirectory, relativeTo: cwd).standardizedFileURL }
            ?? siteURL.appending(path: "output")
        let environment = ProcessInfo.processInfo.environment
        let server = PreviewServer(
            siteDirectory: siteURL, outputDirectory: outputURL, host: host, port: port, includeFuture: future, includeDrafts: drafts,
            // SOURCE_DATE_EPOCH pins "now" as in `build`; otherwise the clock, read at each rebuild.
            clock: { (try? NowResolver(environment: environment, clock: { Date() }).resolve(nil)) ?? Instant(secondsSince1970: Date().timeIntervalSince1970) },
            log: { result in
                DiagnosticPrinter.print(result.diagnostics)
                if result.succeeded {
                    DiagnosticPrinter.printSummary(BuildSummary.line(result))
                } else {
                    DiagnosticPrinter.printSummary("build failed; still serving the last good build", toStandardError: true)
                }
            },
            announce: { DiagnosticPrinter.printSummary($0) })
        try await server.run()
    }
}
