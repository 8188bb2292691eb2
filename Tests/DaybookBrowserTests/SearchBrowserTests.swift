import Foundation
import Testing

extension BrowserTests {
    /// CONTRACT §9, search: `?q=` runs on load, `#` and `@` choose the kind whatever the tab.
    @Suite("Search")
    struct Search {
        /// The links in `#search-results`, as site paths, once the status says the search ran.
        static func results(_ page: BrowserPage) async throws -> [String] {
            try await page.waitUntil("document.getElementById('search-status').textContent !== ''", "the search to run")
            return try await page.strings("[...document.querySelectorAll('#search-results a')].map(a => new URL(a.href).pathname)")
        }

        @Test("?q=%23tag on load lists that hashtag, though the People tab is selected")
        func hashtagFromAddress() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("search/?q=%23hiking"))
                #expect(try await Self.results(page) == ["/tags/hiking/"])
                #expect(try await page.string("document.querySelector('#search-results a').textContent") == "#hiking")
                #expect(try await page.string("document.getElementById('search-query').value") == "#hiking")
                #expect(try await page.string("document.getElementById('search-query').type") == "search")
            }
        }

        @Test("?q=@id on load lists that person, whatever the tab")
        func personFromAddress() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("search/?q=@ben"))
                #expect(try await Self.results(page) == ["/users/ben/"])
                // Typed with the Places tab picked, too: the prefix decides.
                try await page.click("label[for=kind-locations]")
                try await page.click("#search-query")
                try await page.evaluate("document.getElementById('search-query').select()")
                try await page.type("@ana")
                try await page.waitUntil("document.querySelector('#search-results a')?.textContent === 'Ana Lima'", "Ana in the results")
                #expect(try await Self.results(page) == ["/users/ana/"])
            }
        }

        @Test("typing #hik on the default People tab finds #hiking, not \"No matches.\", and the address keeps the query")
        func typedHashtag() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("search/"))
                try await page.waitUntil("document.getElementById('search-status').textContent !== ''", "the index to load")
                try await page.click("#search-query")
                try await page.type("#hik")
                try await page.waitUntil("document.getElementById('search-status').textContent === '1 match.'", "one match")
                #expect(try await Self.results(page) == ["/tags/hiking/"])
                #expect(try await page.location == site.url("search/?q=%23hik"))
            }
        }

        @Test("plain text searches the selected tab")
        func plainTextUsesTab() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("search/?q=hik"))
                // People by default: "Cai Hikes".
                #expect(try await Self.results(page) == ["/users/cai/"])
                try await page.click("label[for=kind-tags]")
                try await page.waitUntil("document.querySelector('#search-results a')?.textContent === '#hiking'", "#hiking after the Hashtags tab")
                #expect(try await Self.results(page) == ["/tags/hiking/"])
                try await page.click("label[for=kind-locations]")
                try await page.waitUntil("document.getElementById('search-status').textContent === 'No matches.'", "no place named hik")
                #expect(try await Self.results(page) == [])
            }
        }

        @Test("a tab picked by hand is kept in the address, so a reload searches it again")
        func tabInAddress() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("search/?q=hik"))
                #expect(try await Self.results(page) == ["/users/cai/"])
                try await page.click("label[for=kind-tags]")
                try await page.waitUntil("document.querySelector('#search-results a')?.textContent === '#hiking'", "#hiking after the Hashtags tab")
                #expect(try await page.location == site.url("search/?q=hik&in=tags"))
                try await page.navigate(site.url("search/?q=hik&in=tags"))
                #expect(try await Self.results(page) == ["/tags/hiking/"])
                #expect(try await page.bool("document.getElementById('kind-tags').checked"))
                try await page.click("label[for=kind-users]")
                try await page.waitUntil("document.querySelector('#search-results a')?.textContent !== '#hiking'", "people again")
                #expect(try await page.location == site.url("search/?q=hik"))
            }
        }

        @Test("?q=#hiking typed as it reads, its # starting the address's fragment, searches that hashtag")
        func literalHash() async throws {
            try await withServedSite(BrowserSite.archive, now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("search/"))
                _ = try await page.evaluate("location.assign(\(BrowserPage.literal(site.url("search/?q=#hiking"))))")
                try await page.waitUntil("location.href === \(BrowserPage.literal(site.url("search/?q=%23hiking")))", "the address written as it should have been")
                #expect(try await Self.results(page) == ["/tags/hiking/"])
            }
        }
    }
}
