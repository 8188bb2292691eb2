import Testing

/// Every browser test, one at a time: each starts its own Chromium, and two at once on a small
/// machine only make both slow.
@Suite("In the browser", .serialized, .timeLimit(.minutes(1)))
enum BrowserTests {}
