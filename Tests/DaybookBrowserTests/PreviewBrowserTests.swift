import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// CONTRACT §9, the profile grid's preview and a sensitive photo, in a real browser.
    @Suite("Photos")
    struct Photos {
        static let now = "2026-11-21T12:00:00Z"
        static let archive = """
            -- site.yml --
            title: Photos
            baseURL: https://example.org/
            timeZone: UTC
            -- content/users.json --
            [{"id": "ana", "name": "Ana"}]
            -- content/posts.json --
            [
              {"id": "p3", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "Third and newest", "image": "images/c.png"},
              {"id": "p2", "author": "ana", "createdAt": "2026-11-19T08:00:00Z", "caption": "Second", "image": "images/b.png"},
              {"id": "p1", "author": "ana", "createdAt": "2026-11-18T08:00:00Z", "caption": "First and oldest", "image": "images/a.png"},
              {"id": "s1", "author": "ana", "createdAt": "2026-11-17T08:00:00Z", "caption": "Behind a veil", "image": "images/s.png",
               "sensitive": "Reason text"}
            ]
            """

        /// The fixture with four real photos, served, in a fresh browser.
        static func withPhotos(
            width: Int = 1280, language: SiteLanguage = .english, _ body: (LoopbackSite, BrowserPage) async throws -> Void
        ) async throws {
            let fixture = try SiteFixture(language.site(archive))
            for (name, rgb) in [("a", (200, 60, 60)), ("b", (60, 200, 60)), ("c", (60, 60, 200)), ("s", (90, 90, 90))] as [(String, (UInt8, UInt8, UInt8))] {
                try fixture.write("content/images/\(name).png", bytes: TestPNG.make(width: 600, height: 400, rgb: rgb))
            }
            let served = try await LoopbackSite.start(fixture, now: now)
            defer { try? FileManager.default.removeItem(at: fixture.directory) }
            do {
                try await withBrowser(width: width) { page in try await body(served, page) }
                await served.stop()
            } catch {
                await served.stop()
                throw error
            }
        }

        static let dialogOpen = "!!document.querySelector('dialog[data-preview]')?.open"
        static let caption = "document.querySelector('dialog[data-preview]').textContent"
        /// The `href` of the focused element, or its tag name when it has none (`BODY`).
        static let focused = "document.activeElement?.getAttribute('href') ?? String(document.activeElement?.tagName)"
        /// Sets `window.previewClosed` to a promise that settles once the open dialog's `close`
        /// event has been handled (and gives nothing back, so evaluating it does not wait). On Back
        /// the dialog closes at once and the event comes a task later: focus read in between is
        /// where the browser put it, not the script.
        static let watchClose = """
            window.previewClosed = new Promise(done => document.querySelector('dialog[data-preview]')
              .addEventListener('close', () => setTimeout(done), { once: true }));
            undefined
            """

        @Test("a grid photo opens one preview dialog with the post's photo and caption; arrows step older and newer and stop at the ends; Escape and Back close it, focus returns to the link clicked",
            arguments: SiteLanguage.both)
        func preview(language: SiteLanguage) async throws {
            try await Self.withPhotos(language: language) { site, page in
                let profile = site.url("users/ana/")
                try await page.navigate(profile)
                #expect(try await page.strings("[...document.querySelectorAll('a[data-preview]')].map(a => a.getAttribute('href'))")
                    == ["/posts/p3/", "/posts/p2/", "/posts/p1/", "/posts/s1/"])
                try await page.click("a[data-preview]")
                try await page.waitUntil(Self.dialogOpen, "the preview to open")
                #expect(try await page.int("document.querySelectorAll('dialog[data-preview]').length") == 1)
                #expect(try await page.location == site.url("posts/p3/"))
                #expect(try await page.string(Self.caption).contains("Third and newest"))
                #expect(try await page.bool("!!document.querySelector('dialog[data-preview] img[src]')"))

                // The backward arrow (ArrowLeft, or ArrowRight on a right-to-left page) at the newest post does nothing.
                try await page.press(language.backward)
                #expect(try await page.location == site.url("posts/p3/"))
                try await page.press(language.forward)
                try await page.waitUntil("location.href.endsWith('/posts/p2/')", "the older post")
                #expect(try await page.string(Self.caption).contains("Second"))
                try await page.press(language.forward)
                try await page.waitUntil("location.href.endsWith('/posts/p1/')", "the oldest photo")
                try await page.press(language.backward)
                try await page.waitUntil("location.href.endsWith('/posts/p2/')", "back to the newer post")
                try await page.press(language.backward)
                try await page.waitUntil("location.href.endsWith('/posts/p3/')", "back to the first post")

                try await page.press("Escape")
                try await page.waitUntil("!(\(Self.dialogOpen)) && location.href === \(BrowserPage.literal(profile))", "Escape to close")
                #expect(try await page.bool("document.activeElement === document.querySelector('a[data-preview]')"))

                // Back closes it too.
                try await page.click("a[data-preview]")
                try await page.waitUntil(Self.dialogOpen, "the preview to open again")
                #expect(try await page.location == site.url("posts/p3/"))
                try await page.evaluate(Self.watchClose)
                _ = try await page.evaluate("history.back()")
                try await page.waitUntil("!(\(Self.dialogOpen)) && location.href === \(BrowserPage.literal(profile))", "Back to close")
                try await page.evaluate("window.previewClosed")
                let focus = try await page.string(Self.focused)
                #expect(focus == "/posts/p3/")

                // Focus goes back to the link that was clicked, not to the link of the post the
                // arrows stepped to last.
                for close in ["Escape", "Back"] {
                    try await page.click("a[data-preview][href='/posts/p2/']")
                    try await page.waitUntil(Self.dialogOpen, "the preview to open (\(close))")
                    try await page.press(language.forward)
                    try await page.waitUntil("location.href.endsWith('/posts/p1/')", "the older post (\(close))")
                    try await page.press(language.forward)
                    try await page.waitUntil("location.href.endsWith('/posts/s1/')", "the oldest post (\(close))")
                    try await page.evaluate(Self.watchClose)
                    if close == "Escape" { try await page.press("Escape") } else { try await page.evaluate("history.back()") }
                    try await page.waitUntil("!(\(Self.dialogOpen)) && location.href === \(BrowserPage.literal(profile))", "\(close) to close")
                    try await page.evaluate("window.previewClosed")
                    let focus = try await page.string(Self.focused)
                    #expect(focus == "/posts/p2/", "focus after arrowing, then \(close)")
                }
            }
        }

        @Test("Forward right after Back shows the preview again at the post's address, and Escape closes it", arguments: SiteLanguage.both)
        func forward(language: SiteLanguage) async throws {
            try await Self.withPhotos(language: language) { site, page in
                let profile = site.url("users/ana/")
                try await page.navigate(profile)
                try await page.click("a[data-preview][href='/posts/p2/']")
                try await page.waitUntil(Self.dialogOpen, "the preview to open")
                _ = try await page.evaluate("history.back()")
                try await page.waitUntil("!(\(Self.dialogOpen)) && location.href === \(BrowserPage.literal(profile))", "Back to close")
                _ = try await page.evaluate("history.forward()")
                try await page.waitUntil("(\(Self.dialogOpen)) && location.href.endsWith('/posts/p2/')", "Forward to show the preview again")
                #expect(try await page.string(Self.caption).contains("Second"))
                try await page.press("Escape")
                try await page.waitUntil("!(\(Self.dialogOpen)) && location.href === \(BrowserPage.literal(profile))", "Escape to close")
            }
        }

        @Test("the forward arrow (ArrowRight, ArrowLeft right to left) at the oldest post shown does nothing", arguments: SiteLanguage.both)
        func lastPost(language: SiteLanguage) async throws {
            try await Self.withPhotos(language: language) { site, page in
                try await page.navigate(site.url("users/ana/"))
                let last = "a[data-preview][href='/posts/s1/']"
                guard try await page.bool("!!document.querySelector(\(BrowserPage.literal(last)))") else {
                    Issue.record("the sensitive post is not in the grid as a preview link")
                    return
                }
                try await page.click("a[data-preview][href='/posts/p1/']")
                try await page.waitUntil(Self.dialogOpen, "the preview to open")
                try await page.press(language.forward)
                try await page.waitUntil("location.href.endsWith('/posts/s1/')", "the last post")
                try await page.press(language.forward)
                #expect(try await page.location == site.url("posts/s1/"))
            }
        }

        @Test("a sensitive photo is in a closed details with its reason, and is fetched only when opened", arguments: SiteLanguage.both)
        func sensitive(language: SiteLanguage) async throws {
            try await Self.withPhotos(language: language) { site, page in
                try await page.navigate(site.url("posts/s1/"))
                #expect(try await page.bool("!!document.querySelector('details[data-sensitive]') && !document.querySelector('details[data-sensitive]').open"))
                #expect(try await page.string("document.querySelector('details[data-sensitive] summary').textContent").contains("Reason text"))
                let fetched = "performance.getEntriesByType('resource').some(e => /\\/images\\/s\\./.test(e.name))"
                let shown = "!!document.querySelector('details[data-sensitive] img[src*=\"images/s.\"]')"
                #expect(try await page.bool("!(\(fetched))"))
                #expect(try await page.bool("!(\(shown))"))
                try await page.click("details[data-sensitive] summary")
                try await page.waitUntil("\(shown) && \(fetched)", "the photo to load once opened")
            }
        }
    }
}
