import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// CONTRACT §9, live reload: a page open from the preview reloads by itself within 2 seconds
    /// of a saved change that alters that page's bytes.
    @Suite("Live reload")
    struct LiveReload {
        @Test("editing a post's caption reloads its open page within 2 seconds", arguments: SiteLanguage.both)
        func captionEdit(language: SiteLanguage) async throws {
            let elapsed = try await Self.captionEditReloads(language.site(BrowserSite.archive), address: "posts/p5/")
            print("live reload: caption edit to new text in the page in \(elapsed.milliseconds) ms")
        }

        /// The page's address is not the form the reload events name (`/posts/p5/`): `serve` also
        /// answers `/posts/p5/index.html`, and a site with a base URL is served under its path.
        @Test(
            "a page reloads whether opened at /x/ or /x/index.html, under a base path too",
            arguments: [
                ("https://example.org/", "posts/p5/index.html"),
                ("https://example.org/blog/", "posts/p5/"),
                ("https://example.org/blog/", "posts/p5/index.html"),
            ])
        func addressForms(baseURL: String, address: String) async throws {
            let archive = BrowserSite.archive.replacingOccurrences(of: "baseURL: https://example.org/", with: "baseURL: \(baseURL)")
            try await Self.captionEditReloads(archive, address: address)
        }

        @Test("a missing address showing the 404 page reloads when the 404 page changes", arguments: SiteLanguage.both)
        func notFoundPage(language: SiteLanguage) async throws {
            try await withServedSite(language.site(BrowserSite.archive), now: BrowserSite.now, watching: true) { site, page in
                try await page.navigate(site.url("nowhere/"))
                #expect(try await page.bool("document.body.textContent.includes(\(BrowserPage.literal(language.text("notFound"))))"))
                try await site.waitForReloadListener()
                try await page.evaluate("window.daybookMarker = 1")
                try site.site.write("Templates/404.mustache", "<h1>Lost here</h1>\n")
                try await page.waitUntil("document.body.textContent.includes('Lost here')", timeout: .seconds(2), "the new 404 page")
                #expect(try await page.evaluate("window.daybookMarker") == nil, "the page was reloaded, not patched")
            }
        }

        /// Opens post p5 at `address` below the site's root, edits its caption, and expects the
        /// page to reload with the new caption within 2 seconds of the save; returns how long it took.
        @discardableResult
        static func captionEditReloads(_ archive: String, address: String) async throws -> Duration {
            try await withServedSite(archive, now: BrowserSite.now, watching: true) { site, page in
                try await page.navigate(site.url(address))
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
                return elapsed
            }
        }
    }
}
