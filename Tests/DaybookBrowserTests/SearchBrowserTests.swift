import DaybookTestSupport
import Foundation
import Testing

/// A site whose words exercise every matching rule of CONTRACT §10: diacritics, a word and its
/// longer forms, a phrase, Japanese, a comment, a journal response, a draft and a future post.
enum SearchSite {
    static let now = "2026-11-21T12:00:00Z"

    static let archive = """
        -- site.yml --
        title: Search
        baseURL: https://example.org/
        timeZone: UTC
        pageSize: 3
        -- content/users.json --
        [
          {"id": "ana", "name": "Ana Lima", "bio": "Loves lighthouses."},
          {"id": "ben", "name": "Ben"},
          {"id": "kenji", "name": "Kenji"}
        ]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "The old lighthouse at São Jorge #coast", "location": {"name": "Cabo da Roca"}},
          {"id": "p2", "author": "ben", "createdAt": "2026-11-19T08:00:00Z", "caption": "Lighthouses of the north"},
          {"id": "p3", "author": "ben", "createdAt": "2026-11-18T08:00:00Z", "caption": "Light on the water #coast"},
          {"id": "p4", "author": "kenji", "createdAt": "2026-11-17T08:00:00Z", "caption": "東京都の夜景", "location": {"name": "Tokyo"}},
          {"id": "p5", "author": "ana", "createdAt": "2025-06-01T08:00:00Z", "caption": "Red tram in the light"},
          {"id": "pd", "author": "ana", "createdAt": "2026-11-10T08:00:00Z", "caption": "Secretword draft", "draft": true},
          {"id": "pf", "author": "ana", "createdAt": "2026-12-24T08:00:00Z", "caption": "Futureword post"}
        ]
        -- content/comments.json --
        [
          {"id": "c1", "postId": "p1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "What a lighthouse!"},
          {"id": "c2", "postId": "p3", "author": "ana", "createdAt": "2026-11-18T09:00:00Z", "text": "Beautiful water"}
        ]
        -- content/prompts.json --
        [{"id": "q1", "title": "Who did you see?", "body": "Write about the *harbour*."}]
        -- content/sent-prompts.json --
        [{"id": "s1", "promptId": "q1", "sentAt": "2026-11-19T07:00:00Z"}]
        -- content/responses.json --
        [{"id": "r1", "promptId": "q1", "createdAt": "2026-11-19T09:00:00Z", "text": "My grandmother, at the harbour."}]
        """
}

extension BrowserTests {
    /// CONTRACT §9 and §10: search in the browser, every matching rule, the address and the page.
    @Suite("Search")
    struct Search {
        /// The links in `#search-results`, as paths with their fragments, once the search ran.
        static func results(_ page: BrowserPage) async throws -> [String] {
            // "Searching…" in the page's own language, from the words it gives search.js.
            try await page.waitUntil(
                "(s => s !== '' && s !== (JSON.parse(document.querySelector('.search').dataset.words || '{}').searching || 'Searching…'))(document.getElementById('search-status').textContent)",
                "the search to run")
            return try await page.strings("[...document.querySelectorAll('#search-results a')].map(a => { const u = new URL(a.href); return u.pathname + u.hash; })")
        }

        /// `text` as `URLSearchParams` writes it (the page rewrites its address so).
        static func formEncoded(_ text: String) -> String {
            text.utf8.map { byte -> String in
                let scalar = Unicode.Scalar(byte)
                if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "*-._".unicodeScalars.contains(scalar) {
                    return String(Character(scalar))
                }
                return byte == 0x20 ? "+" : String(format: "%%%02X", byte)
            }.joined()
        }

        /// Searches `query` from the address and returns the results.
        static func search(_ query: String, _ site: LoopbackSite, _ page: BrowserPage, filters: String = "") async throws -> [String] {
            let address = query.isEmpty ? "search/?" + filters.dropFirst() : "search/?q=\(formEncoded(query))\(filters)"
            do {
                try await page.navigate(site.url(address))
                return try await results(page)
            } catch {
                let state = try await page.evaluate("location.href + ' | ' + document.readyState + ' | ' + document.getElementById('search-status')?.textContent")
                throw BrowserError("\(error); the page: \(state ?? "")")
            }
        }

        @Test("case and diacritics, every word, the last word as a prefix, phrases, -word, Japanese, and where each result links", arguments: SiteLanguage.both)
        func matching(language: SiteLanguage) async throws {
            try await withServedSite(language.site(SearchSite.archive), now: SearchSite.now) { site, page in
                // Case and diacritics are ignored, both ways.
                #expect(try await Self.search("SAO jorge", site, page) == ["/posts/p1/"])
                #expect(try await Self.search("são", site, page) == ["/posts/p1/"])
                // Every word must match; a post and its comments are separate results.
                #expect(try await Self.search("lighthouse coast", site, page) == ["/posts/p1/"])
                #expect(Set(try await Self.search("water", site, page)) == ["/posts/p3/", "/posts/p3/#comment-c2"])
                // The last word begins longer words (the person by her bio, posts, a comment); then
                // what is one edit away ("light", in p3 and p5).
                let begun = try await Self.search("lighth", site, page)
                #expect(Set(begun) == ["/users/ana/", "/posts/p1/", "/posts/p2/", "/posts/p1/#comment-c1"], "\(begun)")
                try await page.click("#search-more")
                try await page.waitUntil("document.querySelectorAll('#search-results a').length === 6", "the next results")
                #expect(Set(try await Self.results(page).dropFirst(4)) == ["/posts/p3/", "/posts/p5/"])
                // A phrase: next to each other, in order.
                #expect(try await Self.search("\"old lighthouse\"", site, page) == ["/posts/p1/"])
                #expect(try await Self.search("\"lighthouse old\" ", site, page) == [])
                // -word leaves out the results holding it (then come "lighthouses", one edit away).
                let without = try await Self.search("lighthouse -old ", site, page)
                #expect(without.first == "/posts/p1/#comment-c1" && !without.contains("/posts/p1/"), "\(without)")
                // Japanese: two or more characters, in that order.
                #expect(try await Self.search("東京", site, page) == ["/posts/p4/"])
                // Only the characters asked for are marked, not the whole run.
                #expect(try await page.strings("[...document.querySelectorAll('#search-results mark')].map(m => m.textContent)") == ["東京"])
                #expect(try await Self.search("京都", site, page) == ["/posts/p4/"])
                #expect(try await Self.search("都東", site, page) == [])
                // Journal responses and prompt bodies find the entry; a place's name its page and its posts.
                #expect(try await Self.search("grandmother", site, page) == ["/journal/q1/"])
                #expect(try await Self.search("harbour ", site, page) == ["/journal/q1/"])
                #expect(try await Self.search("roca ", site, page) == ["/locations/cabo-da-roca/", "/posts/p1/"])
                // A person's name and id.
                let lima = try await Self.search("lima ", site, page)
                #expect(lima.first == "/users/ana/" && Set(lima) == ["/users/ana/", "/posts/p1/", "/posts/p5/"], "\(lima)")
            }
        }

        @Test("a word one edit away finds the word, after the exact matches; the matched words are marked", arguments: SiteLanguage.both)
        func typos(language: SiteLanguage) async throws {
            try await withServedSite(language.site(SearchSite.archive), now: SearchSite.now) { site, page in
                // Each kind of edit, at the start, in the middle and at the end.
                for typo in ["lighthuose", "lighthose", "lighthousse", "ligthhouse", "righthouse", "ighthouse", "lighthousf"] {
                    let found = try await Self.search(typo + " ", site, page)
                    #expect(found.contains("/posts/p1/"), "\(typo): \(found)")
                }
                // Four letters: no typo matching.
                #expect(try await Self.search("wter ", site, page) == [])
                // Exact matches first: "lighthouses" (ana's bio, p2) before "lighthouse" one edit away (p1, c1).
                let tiers = try await Self.search("lighthouses ", site, page)
                #expect(Set(tiers.prefix(2)) == ["/users/ana/", "/posts/p2/"] && Set(tiers.dropFirst(2)) == ["/posts/p1/", "/posts/p1/#comment-c1"], "\(tiers)")
                _ = try await Self.search("lighthuose ", site, page)
                #expect(try await page.strings("[...document.querySelectorAll('#search-results mark')].map(m => m.textContent)").contains("lighthouse"))
                _ = try await Self.search("sao ", site, page)
                #expect(try await page.strings("[...document.querySelectorAll('#search-results mark')].map(m => m.textContent)") == ["São"])
            }
        }

        @Test("#tag and @id: the hashtag or the person first, then their posts; §9's address forms", arguments: SiteLanguage.both)
        func hashtagsAndPeople(language: SiteLanguage) async throws {
            try await withServedSite(language.site(SearchSite.archive), now: SearchSite.now) { site, page in
                #expect(try await Self.search("#coast", site, page) == ["/tags/coast/", "/posts/p1/", "/posts/p3/"])
                #expect(try await page.string("document.querySelector('#search-results .search-result-title').textContent") == "#coast")
                #expect(try await page.string("document.getElementById('search-query').value") == "#coast")
                #expect(try await Self.search("@ben", site, page) == ["/users/ben/", "/posts/p2/", "/posts/p3/"])
                // Typed, debounced, with the address kept.
                try await page.navigate(site.url("search/"))
                try await page.click("#search-query")
                try await page.type("#coa")
                try await page.waitUntil("document.querySelectorAll('#search-results a').length > 0", "results as typed")
                #expect(try await page.location == site.url("search/?q=%23coa"))
                // `?q=#coast` typed as it reads: its # starts the address's fragment.
                _ = try await page.evaluate("location.assign(\(BrowserPage.literal(site.url("search/?q=#coast"))))")
                try await page.waitUntil("location.href === \(BrowserPage.literal(site.url("search/?q=%23coast")))", "the address written as it should have been")
                #expect(try await Self.results(page) == ["/tags/coast/", "/posts/p1/", "/posts/p3/"])
            }
        }

        @Test("filters in the address and in the controls: person, hashtag, place and year, together", arguments: SiteLanguage.both)
        func filters(language: SiteLanguage) async throws {
            try await withServedSite(language.site(SearchSite.archive), now: SearchSite.now) { site, page in
                #expect(try await Self.search("light ", site, page, filters: "&user=ben") == ["/posts/p3/"])
                #expect(try await page.string("document.getElementById('search-user').value") == "ben")
                #expect(try await Self.search("light ", site, page, filters: "&year=2025") == ["/posts/p5/"])
                #expect(Set(try await Self.search("water ", site, page, filters: "&tag=coast")) == ["/posts/p3/", "/posts/p3/#comment-c2"])
                #expect(try await Self.search("", site, page, filters: "&place=cabo-da-roca") == ["/posts/p1/#comment-c1", "/posts/p1/"])
                #expect(try await Self.search("light ", site, page, filters: "&user=ben&year=2025") == [])
                // Set in the page: the address follows.
                try await page.navigate(site.url("search/?q=light"))
                _ = try await Self.results(page)
                try await page.click("#search-year")
                try await page.type("2025")
                try await page.waitUntil("location.search.includes('year=2025')", "the year in the address")
                try await page.waitUntil("document.querySelectorAll('#search-results a').length === 1", "one result")
                #expect(try await Self.results(page) == ["/posts/p5/"])
            }
        }

        @Test("a result in another language than the site's says so: lang on its text, dir where its direction differs")
        func itemLanguage() async throws {
            let archive = """
                -- site.yml --
                title: Languages
                baseURL: https://example.org/
                -- content/users.json --
                [{"id": "ana", "name": "Ana"}, {"id": "noor", "name": "نور", "lang": "ar"}]
                -- content/posts.json --
                [{"id": "p1", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "Harbour at dawn"},
                 {"id": "p2", "author": "ana", "createdAt": "2026-11-19T08:00:00Z", "caption": "Porto ao amanhecer harbour", "lang": "pt"}]
                -- content/comments.json --
                [{"id": "c1", "postId": "p1", "author": "noor", "createdAt": "2026-11-20T09:00:00Z", "text": "ميناء harbour جميل", "lang": "ar"}]
                """
            try await withServedSite(archive, now: SearchSite.now) { site, page in
                #expect(Set(try await Self.search("harbour", site, page)) == ["/posts/p1/", "/posts/p1/#comment-c1", "/posts/p2/"])
                // Each result's address, with its snippet's and its title's lang and dir ("-" for none).
                let shown = """
                    [...document.querySelectorAll('#search-results a')].map(a => { const u = new URL(a.href);
                      const s = a.querySelector('.search-result-snippet'), t = a.querySelector('.search-result-title');
                      return u.pathname + u.hash + ' ' + (s.lang || '-') + ' ' + (s.dir || '-') + ' ' + (t.lang || '-'); })
                    """
                #expect(Set(try await page.strings(shown)) == ["/posts/p1/ - - -", "/posts/p1/#comment-c1 ar rtl -", "/posts/p2/ pt - -"])
                _ = try await Self.search("نور", site, page)
                #expect(try await page.strings("[...document.querySelectorAll('#search-results .search-result-title')].map(e => e.lang + ' ' + e.dir)") == ["ar rtl"])
            }
        }

        @Test("more results four at a time, focus on the first new one; results announced", arguments: SiteLanguage.both)
        func moreResults(language: SiteLanguage) async throws {
            var posts: [String] = []
            for index in 0..<12 {
                posts.append(#"{"id": "m\#(index)", "author": "ana", "createdAt": "2026-11-0\#(index % 9 + 1)T08:00:00Z", "caption": "Harbour view \#(index)"}"#)
            }
            let archive = """
                -- site.yml --
                title: More
                baseURL: https://example.org/
                -- content/users.json --
                [{"id": "ana", "name": "Ana"}]
                -- content/posts.json --
                [\(posts.joined(separator: ",\n"))]
                """
            try await withServedSite(language.site(archive), now: SearchSite.now) { site, page in
                #expect(try await Self.search("harbour ", site, page).count == 4)
                #expect(try await page.string("document.getElementById('search-status').getAttribute('aria-live')") == "polite")
                #expect(try await page.string("document.getElementById('search-status').textContent") == language.count("showingResults", 4))
                #expect(try await page.string("document.querySelector('#search-results').textContent").contains(language.text("post")))
                try await page.click("#search-more")
                try await page.waitUntil("document.querySelectorAll('#search-results a').length === 8", "eight results")
                #expect(try await page.string("document.activeElement.getAttribute('href')") == (try await page.string("document.querySelectorAll('#search-results a')[4].getAttribute('href')")))
                try await page.click("#search-more")
                try await page.waitUntil("document.querySelectorAll('#search-results a').length === 12", "all twelve")
                // The later tiers (prefix, near words) run first, finding nothing more.
                try await page.waitUntil(
                    "document.getElementById('search-status').textContent === \(BrowserPage.literal(language.count("resultCount", 12)))", "the count")
                #expect(try await page.bool("document.getElementById('search-more').hidden"))
            }
        }

        /// A site of 70 posts by two people, every one with `harbour`: a big word (in more than 32
        /// results), whose postings file holds its 32 best results and whose whole list is in a
        /// big file.
        static let bigWordArchive: String = {
            var posts: [String] = []
            for index in 0..<70 {
                let day = String(format: "2026-%02d-%02dT08:00:00Z", index / 28 + 1, index % 28 + 1)
                let extra = index == 3 ? " lighthouse" : index % 10 == 0 ? " harbour" : ""
                posts.append(#"{"id": "h\#(index)", "author": "\#(index % 2 == 0 ? "ana" : "ben")", "createdAt": "\#(day)", "caption": "Harbour view \#(index)\#(extra) #harbour"}"#)
            }
            return """
                -- site.yml --
                title: Big word
                baseURL: https://example.org/
                -- content/users.json --
                [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]
                -- content/posts.json --
                [\(posts.joined(separator: ",\n"))]
                """
        }()

        /// Clicks "More results" once, and waits until `shown` results are.
        static func showMore(_ shown: Int, _ page: BrowserPage) async throws {
            try await page.click("#search-more")
            do {
                try await page.waitUntil("document.querySelectorAll('#search-results a').length === \(shown)", "\(shown) results")
            } catch {
                let state = try await page.evaluate("document.querySelectorAll('#search-results a').length + ' shown: ' + document.getElementById('search-status').textContent")
                throw BrowserError("\(error); \(state ?? "")")
            }
        }

        /// Clicks "More results" until all `total` are shown, four at a time.
        static func showAll(_ total: Int, from shown: Int, _ page: BrowserPage, language: SiteLanguage = .english) async throws {
            for count in stride(from: shown + 4, to: total + 4, by: 4) { try await showMore(min(total, count), page) }
            try await page.waitUntil(
                "document.getElementById('search-status').textContent === \(BrowserPage.literal(language.count("resultCount", total)))", "all \(total)")
        }

        @Test("a word in more results than a postings file holds: its best first without its big file, then every result in order; with another word, filters and as a #tag", arguments: SiteLanguage.both)
        func bigWord(language: SiteLanguage) async throws {
            try await withServedSite(language.site(Self.bigWordArchive), now: SearchSite.now) { site, page in
                // The hashtag first, then the posts that hold the word three times (newest first), then the rest (twice: the caption and its hashtag), newest first.
                let thrice = stride(from: 60, through: 0, by: -10).map { "/posts/h\($0)/" }
                let rest = (0..<70).reversed().filter { $0 % 10 != 0 }.map { "/posts/h\($0)/" }
                #expect(try await Self.search("harbour ", site, page) == ["/tags/harbour/"] + thrice.prefix(3))
                let fetched = "performance.getEntriesByType('resource').map(e => new URL(e.name).pathname).filter(p => p.includes('/search/'))"
                #expect(try await page.strings(fetched).allSatisfy { !$0.contains("/search/b/") })
                // Eight clicks reach past the 32 best: the whole list is read, in order, no result thrice.
                for shown in stride(from: 8, through: 40, by: 4) { try await Self.showMore(shown, page) }
                #expect(try await page.strings(fetched).contains { $0.contains("/search/b/") })
                try await Self.showAll(71, from: 40, page, language: language)
                #expect(try await Self.results(page) == ["/tags/harbour/"] + thrice + rest)
                // With another word, and with a filter: the whole list, intersected.
                #expect(try await Self.search("harbour lighthouse", site, page) == ["/posts/h3/"])
                #expect(try await Self.search("harbour ", site, page, filters: "&user=ben").prefix(4) == ["/posts/h69/", "/posts/h67/", "/posts/h65/", "/posts/h63/"])
                // A #tag: the hashtag, then its newest posts; more reaches the oldest.
                #expect(try await Self.search("#harbour ", site, page) == ["/tags/harbour/", "/posts/h69/", "/posts/h68/", "/posts/h67/"])
                try await Self.showAll(71, from: 4, page, language: language)
                #expect(try await Self.results(page) == ["/tags/harbour/"] + (0..<70).reversed().map { "/posts/h\($0)/" })
            }
        }
    }
}
