import DaybookModel
import Foundation

/// `serve`'s "now": it starts where `build` would (CONTRACT §3: `SOURCE_DATE_EPOCH` when set,
/// else the clock) and then runs with the real clock.
///
/// So the first preview is the page `daybook build` would write at the same moment, and yet the
/// preview is never frozen: as real time passes, scheduled posts appear and the calendar day
/// changes, which is what the midnight rebuild waits for. Without `SOURCE_DATE_EPOCH` this is
/// simply the clock.
struct ServeClock: Sendable {
    /// The instant of the first build.
    var start: Instant
    /// The real clock's reading at that moment.
    var startedAt: Date
    var clock: @Sendable () -> Date

    init(start: Instant, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.start = start
        self.startedAt = clock()
        self.clock = clock
    }

    /// `start` plus the whole seconds the real clock has run since: within the first second (the
    /// first build) exactly `start`, as `build` would use it.
    func now() -> Instant {
        Instant(secondsSince1970: start.secondsSince1970 + clock().timeIntervalSince(startedAt).rounded(.down))
    }
}
