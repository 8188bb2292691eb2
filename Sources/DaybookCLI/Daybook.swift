import ArgumentParser
import CHeap
import Foundation

/// The `daybook` command: a static site generator for a journal of daily prompts and a photo timeline.
package struct Daybook: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "daybook",
        abstract: "Builds a static site from a journal of daily prompts and a photo timeline.",
        version: "daybook \(DaybookVersion.number)",
        subcommands: [BuildCommand.self, CheckCommand.self, ServeCommand.self, NewCommand.self],
        defaultSubcommand: BuildCommand.self
    )

    package init() {}

    /// Parses `CommandLine.arguments` and runs the command; the executable target is this one call.
    ///
    /// ArgumentParser's own `main()` prints any error as `Error: …` with the usage for validation
    /// errors; a `CommandFailure` is a problem with the site instead, so it is printed here as
    /// `error: …` (coloured like a diagnostic) with no usage, and exits 1.
    package static func start() async {
        // One heap arena per core, set before any thread allocates (`daybook_heap_bound_arenas`):
        // a full build of `large` peaked at 1,047 MiB rather than 1,182, and took no longer.
        _ = daybook_heap_bound_arenas(Int32(clamping: ProcessInfo.processInfo.activeProcessorCount))
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            DiagnosticPrinter.printError(failure.message)
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
