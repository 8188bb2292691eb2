import DaybookModel
import Foundation

/// "Now" for one build, injected: `--now`, else `SOURCE_DATE_EPOCH`, else the clock, resolved by
/// the command line and passed down, so the feed core never reads a clock.
public struct BuildMoment: Sendable, Hashable {
    public var now: Instant
    public var timeZone: TimeZone
    /// `--future`: list sent prompts, posts and comments dated after now.
    public var includeFuture: Bool

    public init(now: Instant, timeZone: TimeZone, includeFuture: Bool = false) {
        self.now = now
        self.timeZone = timeZone
        self.includeFuture = includeFuture
    }

    /// CONTRACT §3: now's calendar day in the site time zone.
    public var today: CalendarDay { now.day(in: timeZone) }

    /// Whether something dated `instant` is shown in this build.
    public func isVisible(_ instant: Instant) -> Bool { includeFuture || instant <= now }
}
