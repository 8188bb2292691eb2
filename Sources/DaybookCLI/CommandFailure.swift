import ArgumentParser

/// A problem with the site or the folders a command was given, not with how it was called.
///
/// Usage errors (ArgumentParser's `ValidationError`) exit 64 and show the usage; these exit 1 and
/// print only `error: message`, since the usage would not help (CONTRACT §6).
struct CommandFailure: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    /// For `validate()`, whose errors ArgumentParser wraps before `Daybook.start` sees them:
    /// prints the failure as `start` would, and gives the exit code to throw instead.
    func printed() -> ExitCode {
        DiagnosticPrinter.printError(message)
        return .failure
    }
}
