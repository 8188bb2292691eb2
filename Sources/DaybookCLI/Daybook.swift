import ArgumentParser

/// The `daybook` command: a static site generator for a journal of daily prompts and a photo timeline.
public struct Daybook: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "daybook",
        abstract: "Builds a static site from a journal of daily prompts and a photo timeline.",
        subcommands: [BuildCommand.self, CheckCommand.self, ServeCommand.self],
        defaultSubcommand: BuildCommand.self
    )

    public init() {}

    /// Parses `CommandLine.arguments` and runs the command; the executable target is this one call.
    public static func start() async { await main() }
}
