import DaybookModel
import Foundation

/// The only writer to the terminal: diagnostics to standard error, summaries to standard output.
///
/// Everything printed goes through `TerminalText.escaped`, on a terminal or not, since messages
/// quote content; only the severity words are coloured, and only on a terminal.
enum DiagnosticPrinter {
    private static let colour = TerminalText.usesColour(environment: ProcessInfo.processInfo.environment)

    static func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        let text = diagnostics.map(line).joined(separator: "\n") + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `path:line:column: error|warning: message`, escaped, with the severity coloured on a terminal.
    static func line(_ diagnostic: Diagnostic) -> String {
        let severity = TerminalText.severity(diagnostic.severity.rawValue, colour: colour)
        return TerminalText.escaped(diagnostic.location.description) + ": " + severity + ": "
            + TerminalText.escaped(diagnostic.message)
    }

    /// A problem that is not at a place in the site: `error: message` on standard error.
    static func printError(_ message: String) {
        let text = TerminalText.severity("error", colour: colour) + ": " + TerminalText.escaped(message) + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func printSummary(_ line: String, toStandardError: Bool = false) {
        (toStandardError ? FileHandle.standardError : FileHandle.standardOutput).write(Data((TerminalText.escaped(line) + "\n").utf8))
    }

    /// Text that is already safe and must stay byte for byte, such as `check --format json`
    /// (JSONEncoder escapes every control character itself).
    static func printVerbatim(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
