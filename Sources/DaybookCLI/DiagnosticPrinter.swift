import DaybookModel
import Foundation

/// The only writer to the terminal: diagnostics to standard error, summaries to standard output.
enum DiagnosticPrinter {
    static func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        let text = diagnostics.map(\.description).joined(separator: "\n") + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func printSummary(_ line: String, toStandardError: Bool = false) {
        (toStandardError ? FileHandle.standardError : FileHandle.standardOutput).write(Data((line + "\n").utf8))
    }
}
