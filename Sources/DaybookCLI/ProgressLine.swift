import DaybookBuild
import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line on a terminal that says where a long build is (`render and write 12,345/32,041`),
/// redrawn in place and erased when the build ends.
///
/// A build under a second shows nothing, so quick rebuilds print exactly what they always did;
/// and nothing at all goes to a pipe or a file, where a carriage return would be noise.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let started = ContinuousClock.now
    private let delay: Duration
    private let interval: Duration
    private var lastDrawn: ContinuousClock.Instant?
    private var latest: BuildProgress?
    private var visible = false
    private var ended = false
    private let write: @Sendable (String) -> Void

    /// `nil` unless standard error is a terminal (and not `dumb`) and the build is not `--quiet`.
    static func forTerminal(quiet: Bool, environment: [String: String]) -> ProgressLine? {
        guard !quiet, isatty(STDERR_FILENO) == 1, environment["TERM"] != "dumb" else { return nil }
        return ProgressLine { text in FileHandle.standardError.write(Data(text.utf8)) }
    }

    init(delay: Duration = .seconds(1), interval: Duration = .milliseconds(100), write: @escaping @Sendable (String) -> Void) {
        self.delay = delay
        self.interval = interval
        self.write = write
    }

    /// Takes a report from the build; draws it when the build has run past the delay and the
    /// last drawing is older than the interval (at most ten a second).
    func report(_ progress: BuildProgress) {
        lock.withLock {
            guard !ended else { return }
            latest = progress
            let now = ContinuousClock.now
            guard now - started >= delay else { return }
            if let lastDrawn, now - lastDrawn < interval { return }
            lastDrawn = now
            visible = true
            write("\r\u{1B}[2K" + Self.text(progress))
        }
    }

    /// Erases the line, if it was drawn, before the build's own output.
    func end() {
        lock.withLock {
            ended = true
            if visible { write("\r\u{1B}[2K") }
            visible = false
        }
    }

    static func text(_ progress: BuildProgress) -> String {
        guard progress.total > 0 else { return progress.phase + "…" }
        return "\(progress.phase) \(progress.done.grouped)/\(progress.total.grouped)"
    }
}
