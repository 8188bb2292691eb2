import DaybookModel
import Foundation

/// "Now" for one build, injected: `--now`, else `SOURCE_DATE_EPOCH`, else the clock, resolved by
/// the command line and passed down, so the feed core never reads a clock.
package struct BuildMoment: Sendable, Hashable {
    package var now: Instant
    package var timeZone: TimeZone
    /// `--future`: list sent prompts, posts and comments dated after now.
    package var includeFuture: Bool
    /// `--drafts`: show prompts, posts, comments and responses marked `draft: true` (CONTRACT §8).
    package var includeDrafts: Bool

    package init(now: Instant, timeZone: TimeZone, includeFuture: Bool = false, includeDrafts: Bool = false) {
        self.now = now
        self.timeZone = timeZone
        self.includeFuture = includeFuture
        self.includeDrafts = includeDrafts
    }

    /// CONTRACT §3: now's calendar day in the site time zone.
    package var today: CalendarDay { now.day(in: timeZone) }

    /// Whether something dated `instant` is shown in this build.
    package func isVisible(_ instant: Instant) -> Bool { includeFuture || instant <= now }

    /// Whether an item dated `instant`, a draft or not, is shown in this build: a draft is left out
    /// like an item after now, unless `--drafts`.
    package func isVisible(_ instant: Instant, draft: Bool) -> Bool { (includeDrafts || !draft) && isVisible(instant) }

    /// Whether an undated item (a prompt) is shown: only a draft can be left out.
    package func isShown(draft: Bool) -> Bool { includeDrafts || !draft }
}
