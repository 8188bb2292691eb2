import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// CONTRACT §9, live reload: a page open from the preview reloads by itself within 2 seconds
    /// of a saved change that alters that page's bytes.
    @Suite("Live reload")
    struct LiveReload {
        @Test("editing a post's caption reloads its open page within 2 seconds")
        func captionEdit() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now, watching: true) { site, page in
                try await page.navigate(site.url("posts/p5/"))
                #expect(try await page.string("document.querySelector('.caption').textContent") == "Tram 28")
                // Wait for the event stream, then mark this document: a reload makes a new one.
                try await site.waitForReloadListener()
                try await page.evaluate("window.daybookMarker = 1")

                let saved = ContinuousClock.now
                try site.site.write("content/posts.json", BrowserSite.posts.replacingOccurrences(of: "Tram 28", with: "Tram 28, edited"))
                try await page.waitUntil(
                    "document.querySelector('.caption')?.textContent === 'Tram 28, edited'", timeout: .seconds(2), "the edited caption")
                let elapsed = ContinuousClock.now - saved
                #expect(try await page.evaluate("window.daybookMarker") == nil, "the page was reloaded, not patched")
                #expect(elapsed < .seconds(2))
                print("live reload: caption edit to new text in the page in \(elapsed.milliseconds) ms")
            }
        }
    }
}
