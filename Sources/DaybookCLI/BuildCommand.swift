import ArgumentParser
import DaybookBuild
import DaybookModel
import Foundation

/// `daybook build`: renders the site into the output folder, or leaves it untouched on error.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the site into the output folder.",
        discussion: """
            Problems are printed to standard error as path:line:column: error|warning: message. \
            Any error exits non-zero and leaves the output folder exactly as it was.
            """
    )

    @OptionGroup var folders: SiteOptions

    @Option(name: .long, help: "The build's instant as RFC 3339, e.g. 2026-11-21T12:00:00Z (default: SOURCE_DATE_EPOCH, else the clock).")
    var now: String?

    @Flag(name: .long, help: "Include sent prompts, posts and comments dated after now.")
    var future = false

    @Flag(name: .long, help: "Include prompts, posts, comments and responses marked draft: true.")
    var drafts = false

    @Flag(name: .long, help: "Treat warnings as errors.")
    var strict = false

    @Flag(name: .long, help: "Run the checks of `daybook check` on the rendered site before writing anything.")
    var check = false

    @Flag(name: .long, help: "Let the build replace files in the output folder that it did not write.")
    var force = false

    @Flag(name: [.short, .long], help: "Print only problems, no summary.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Also print each list change and each file written or removed.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
        if let now, Instant(rfc3339: now) == nil { throw ValidationError(NowResolver.Failure.badNow(now).description) }
    }

    func run() async throws {
        let instant = try NowResolver(environment: ProcessInfo.processInfo.environment, clock: { Date() }).resolveForCommand(now)
        try folders.requireContent()
        var options = BuildOptions(
            siteDirectory: folders.siteDirectory, outputDirectory: folders.outputDirectory, now: instant, includeFuture: future,
            strict: strict, force: force, check: check, includeDrafts: drafts)
        let progress = ProgressLine.forTerminal(quiet: quiet, environment: ProcessInfo.processInfo.environment)
        if let progress { options.progress = { @Sendable update in progress.report(update) } }
        let result = await SiteBuilder().build(options)
        progress?.end()
        DiagnosticPrinter.print(result.diagnostics)
        guard result.succeeded else {
            DiagnosticPrinter.printSummary(
                "build failed: \(result.errorCount) \(result.errorCount == 1 ? "error" : "errors"), \(result.warningCount) \(result.warningCount == 1 ? "warning" : "warnings")\(strict && result.errorCount == 0 ? " (--strict)" : ""); \(Self.outputNote(result.outputState))",
                toStandardError: true)
            throw ExitCode.failure
        }
        if verbose { BuildSummary.details(result).forEach { DiagnosticPrinter.printSummary($0) } }
        if !quiet { DiagnosticPrinter.printSummary(BuildSummary.line(result)) }
    }

    /// What a failed build left in the output folder, in the words of its last line: only what is true.
    static func outputNote(_ state: OutputState) -> String {
        switch state {
        case .unchanged: "the output folder was not changed"
        case .replaced: "the output folder holds this build's site"
        case .mixed(let paths):
            "the output folder could not be put back as it was: \(paths.count) \(paths.count == 1 ? "path holds" : "paths hold") this build's version (\(paths.prefix(3).joined(separator: ", "))\(paths.count > 3 ? ", …" : "")); build again to finish the job"
        }
    }
}
