import DaybookBuild
import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// CONTRACT §9, load more: one button on a list page with a next page; each click appends
    /// the next page's items in order without repeats, and the address follows.
    @Suite("Load more")
    struct LoadMore {
        static let shownIDs = "[...document.querySelectorAll('[data-id]')].map(e => e.dataset.id)"
        static let button = "document.querySelectorAll('button[data-load-more]')"

        /// The `data-id`s of a page as the server sends it now.
        static func ids(of url: String, in page: BrowserPage) async throws -> [String] {
            try await page.strings("""
                fetch(\(BrowserPage.literal(url))).then(r => r.text()).then(html =>
                  [...new DOMParser().parseFromString(html, 'text/html').querySelectorAll('[data-id]')].map(e => e.dataset.id))
                """)
        }

        /// Clicks the button and waits until the page it fetched has been appended.
        static func loadMore(_ page: BrowserPage) async throws {
            let before = try await page.location
            try await page.click("button[data-load-more]")
            try await page.waitUntil(
                "location.href !== \(BrowserPage.literal(before)) && !document.querySelector('button[data-load-more][aria-busy]')",
                "the next page to be appended")
        }

        @Test("clicking until the end shows every timeline page's items once, in order; the address is the last page's; the button is gone",
            arguments: SiteLanguage.both)
        func timeline(language: SiteLanguage) async throws {
            try await withServedSite(language.site(BrowserSite.archive), now: BrowserSite.now) { site, page in
                let urls = [site.url("timeline/"), site.url("timeline/page/2/"), site.url("timeline/page/3/")]
                try await page.navigate(urls[0])
                var pages: [[String]] = []
                for url in urls { pages.append(try await Self.ids(of: url, in: page)) }
                #expect(pages == [["p8", "p7", "p6"], ["p5", "p4", "p3"], ["p2", "p1"]])

                #expect(try await page.int("\(Self.button).length") == 1)
                #expect(try await page.bool("!document.querySelector('button[data-load-more]').closest('[hidden]')"))
                var clicks = 0
                while try await page.bool("!!document.querySelector('button[data-load-more]')"), clicks < 5 {
                    try await Self.loadMore(page)
                    clicks += 1
                    #expect(try await page.location == urls[clicks])
                    #expect(try await page.strings(Self.shownIDs) == Array(pages[0...clicks].joined()))
                }
                #expect(clicks == 2)
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6", "p5", "p4", "p3", "p2", "p1"])
                #expect(try await page.location == urls[2])
                #expect(try await page.int("\(Self.button).length") == 0)
                // The links for readers without JavaScript now say where the address is.
                #expect(try await page.string("document.querySelector('.page-count').textContent") == language.text("pageOf", ["number": "3", "total": "3"]))
                #expect(try await page.string("document.documentElement.dir") == (language.isRightToLeft ? "rtl" : ""))
                #expect(try await page.bool("!document.querySelector('a[rel=next]')"))
                // Every appended item sits in the one list, after the first page's.
                #expect(try await page.int("document.querySelectorAll('ol.items > li > [data-id]').length") == 8)
            }
        }

        @Test("an item the next page repeats (a newer post pushed it along) is not shown twice", arguments: SiteLanguage.both)
        func noDuplicates(language: SiteLanguage) async throws {
            try await withServedSite(language.site(BrowserSite.archive), now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("timeline/"))
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6"])
                // A new post while the page is open: page 2 now starts with p6, shown already.
                let newer = BrowserSite.posts.replacingOccurrences(
                    of: "[\n", with: "[\n  {\"id\": \"p9\", \"author\": \"ana\", \"createdAt\": \"2026-11-21T09:00:00Z\", \"caption\": \"Newest\"},\n")
                try site.site.write("content/posts.json", newer)
                let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.site.directory, now: Fixed.at(BrowserSite.now)))
                #expect(result.report != nil)
                #expect(try await Self.ids(of: site.url("timeline/page/2/"), in: page) == ["p6", "p5", "p4"])

                try await Self.loadMore(page)
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6", "p5", "p4"])
                try await Self.loadMore(page)
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6", "p5", "p4", "p3", "p2", "p1"])
                #expect(try await page.location == site.url("timeline/page/3/"))
                #expect(try await page.int("\(Self.button).length") == 0)
            }
        }

        @Test("without JavaScript the button is not shown and rel=next still leads on", arguments: SiteLanguage.both)
        func withoutJavaScript(language: SiteLanguage) async throws {
            try await withServedSite(language.site(BrowserSite.archive), now: BrowserSite.now) { site, page in
                try await page.send("Emulation.setScriptExecutionDisabled", ["value": true])
                try await page.navigate(site.url("timeline/page/2/"))
                #expect(try await page.bool("!!document.querySelector('button[data-load-more]').closest('[hidden]')"))
                #expect(try await page.string("document.querySelector('a[rel=next]').getAttribute('href')") == "/timeline/page/3/")
                #expect(try await page.string("document.querySelector('a[rel=prev]').getAttribute('href')") == "/timeline/")
            }
        }

        @Test("list pages with a next page have exactly one button; a last page has none", arguments: [
            ("timeline/", 1), ("timeline/page/2/", 1), ("timeline/page/3/", 0), ("users/", 0),
        ])
        func oneButton(path: String, buttons: Int) async throws {
            let site = try SiteFixture(BrowserSite.archive)
            defer { try? FileManager.default.removeItem(at: site.directory) }
            _ = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(BrowserSite.now)))
            let html = try #require(site.read("output/\(path)index.html"))
            #expect(html.components(separatedBy: "<button type=\"button\" data-load-more").count - 1 == buttons)
            #expect(html.contains("rel=\"next\"") == (buttons == 1))
        }
    }
}
