@testable import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// CONTRACT §10's promises that hold of the files themselves: privacy, size, how many files an
/// edit rewrites, and the page without JavaScript. What a query finds is held in the browser
/// (`BrowserTests.Search`).
@Suite("Search index, built")
struct SearchIndexBuildTests {
    static let now = "2026-11-21T12:00:00Z"

    static let archive = """
        -- site.yml --
        title: Search
        baseURL: https://example.org/
        timeZone: UTC
        pageSize: 2
        -- content/users.json --
        [{"id": "ana", "name": "Ana Lima", "bio": "Loves *lighthouses*."}, {"id": "ben", "name": "Ben"}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "The old lighthouse #coast", "location": {"name": "Cabo da Roca"}},
          {"id": "p2", "author": "ben", "createdAt": "2026-11-19T08:00:00Z", "caption": "Tram 28 at dawn"},
          {"id": "pd", "author": "ana", "createdAt": "2026-11-10T08:00:00Z", "caption": "Secretdraft words #hiddentag", "draft": true},
          {"id": "pf", "author": "ana", "createdAt": "2026-12-24T08:00:00Z", "caption": "Futurepost words", "location": {"name": "Nowhereville"}}
        ]
        -- content/comments.json --
        [
          {"id": "c1", "postId": "p1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "What a lighthouse!"},
          {"id": "c2", "postId": "pd", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Commentondraft"},
          {"id": "c3", "postId": "p2", "author": "ben", "createdAt": "2026-11-30T09:00:00Z", "text": "Futurecomment"}
        ]
        -- content/prompts.json --
        [{"id": "q1", "title": "Who did you see?", "body": "Write about the [harbour](https://example.com/secreturl)."}]
        -- content/sent-prompts.json --
        [{"id": "s1", "promptId": "q1", "sentAt": "2026-11-19T07:00:00Z"}]
        -- content/responses.json --
        [{"id": "r1", "promptId": "q1", "createdAt": "2026-11-19T09:00:00Z", "text": "My grandmother."}, {"id": "r2", "promptId": "q1", "createdAt": "2026-11-19T09:00:00Z", "text": "Draftresponse", "draft": true}]
        """

    /// Every file under `output/search/` but the page, as text.
    static func searchFiles(_ site: SiteFixture) -> [String: String] {
        site.tree("output/search").filter { $0.key.hasSuffix(".json") }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    func build(_ site: SiteFixture, drafts: Bool = false, future: Bool = false) async throws -> BuildResult {
        let result = await SiteBuilder().build(
            BuildOptions(siteDirectory: site.directory, now: Fixed.at(Self.now), includeFuture: future, includeDrafts: drafts))
        try #require(result.succeeded, "\(result.diagnostics)")
        return result
    }

    @Test("nothing the pages do not show: drafts, future items, comments on hidden posts, link targets; with --drafts and --future, they are found")
    func privacy() async throws {
        let site = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        _ = try await build(site)
        let hidden = ["secretdraft", "hiddentag", "futurepost", "nowhereville", "commentondraft", "futurecomment", "draftresponse", "secreturl", "\"pd\"", "\"pf\""]
        let files = Self.searchFiles(site)
        #expect(!files.isEmpty)
        for word in hidden {
            #expect(files.allSatisfy { !$0.value.lowercased().contains(word) }, "\(word) in \(files.filter { $0.value.lowercased().contains(word) }.keys.sorted())")
        }
        #expect(files.values.contains { $0.contains("grandmother") })
        #expect(files.values.contains { $0.contains("\"harbour\"") })

        let shown = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: shown.directory) }
        _ = try await build(shown, drafts: true, future: true)
        let all = Self.searchFiles(shown).values.joined().lowercased()
        for word in hidden where word != "secreturl" { #expect(all.contains(word), "\(word) with --drafts --future") }
        #expect(!all.contains("secreturl"))
    }

    @Test("each result links to its page: a comment to its element on the post's page, an entry to its page")
    func cards() async throws {
        let site = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        _ = try await build(site)
        let cards = Self.searchFiles(site).filter { $0.key.hasPrefix("d/") }.values.joined()
        // Each card's kind and slug, from which search.js makes its address (`/posts/p1/#comment-c1`).
        for card in [#"["u","ana","Ana Lima""#, #"["t","coast","coast""#, #"["l","cabo-da-roca","Cabo da Roca""#, #"["p","p1","Ana Lima · Cabo da Roca""#,
            #"["c","p1#c1","Ben","What a lighthouse!""#, #"["e","q1","Who did you see?","Write about the harbour. · My grandmother.""#]
        {
            #expect(cards.contains(card), "\(card)")
        }
        let page = try #require(site.read("output/search/index.html"))
        #expect(page.contains(#"data-configuration="{&quot;lexicon&quot;:"#))
    }

    @Test("the page's summary (worked out without the index) agrees with the cards: the people, hashtags and places first, each year a run of posts and their comments")
    func summaryAgrees() async throws {
        let site = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        _ = try await build(site, drafts: true, future: true)
        let page = try #require(site.read("output/search/index.html"))
        let attribute = try #require(page.firstRange(of: #"data-configuration=""#).map { page[$0.upperBound...].prefix { $0 != "\"" } })
        let configuration = try #require(
            try JSONSerialization.jsonObject(with: Data(attribute.replacing("&quot;", with: "\"").utf8)) as? [String: Any])
        var cards: [[Any]] = []
        for number in 0... {
            guard let data = FileManager.default.contents(atPath: site.directory.appending(path: "output/search/d/\(number).json").path) else { break }
            cards += try #require(try JSONSerialization.jsonObject(with: data) as? [[Any]])
        }
        let kinds = cards.map { $0[0] as? String ?? "" }
        #expect(configuration["results"] as? Int == cards.count)
        #expect(configuration["people"] as? Int == kinds.prefix { $0 == "u" }.count)
        #expect(configuration["tags"] as? Int == kinds.count { $0 == "t" })
        #expect(configuration["places"] as? Int == kinds.count { $0 == "l" })
        var years: [String: [Int]] = [:]
        var year = ""
        for (number, card) in cards.enumerated() {
            if card[0] as? String == "p" {
                year = String(CalendarDay(daysSince1970: card[4] as? Int ?? 0).year)
                years[year] = [years[year]?[0] ?? number, number]
            } else if card[0] as? String == "c" {
                years[year]?[1] = number
            }
        }
        #expect(years.count == 1 && years["2026"] != nil)
        #expect(configuration["years"] as? [String: [Int]] == years)
    }

    @Test("without JavaScript: a form with an input named q, and links to the indexes")
    func withoutJavaScript() async throws {
        let site = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        _ = try await build(site)
        let page = try #require(site.read("output/search/index.html"))
        #expect(page.contains(#"<form class="search-form" role="search" method="get">"#))
        #expect(page.contains(#"<input type="search" id="search-query" name="q""#))
        #expect(HTMLProbe.attributeValues("href", in: page).filter { ["/users/", "/tags/", "/locations/"].contains($0) }.count >= 3)
        #expect(page.contains(#"id="search-results""#) && page.contains(#"aria-live="polite""#))
    }

    @Test("size: at most one file per 50 pages and 20, none over 512 KiB, on a site of 3,000 posts and 9,000 comments")
    func size() async throws {
        var posts: [String] = []
        var comments: [String] = []
        let words = ["river", "light", "harbour", "tram", "bridge", "morning", "coffee", "garden", "lisbon", "tiles", "rain", "window"]
        var generator = SeededGenerator(seed: 7)
        func sentence(_ count: Int) -> String { (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ") }
        for index in 0..<3_000 {
            posts.append(#"{"id": "p\#(index)", "author": "u\#(index % 40)", "createdAt": "2026-0\#(index % 9 + 1)-1\#(index % 9)T08:00:00Z", "caption": "\#(sentence(12)) #t\#(index % 60)"}"#)
            for reply in 0..<3 {
                comments.append(#"{"id": "c\#(index)-\#(reply)", "postId": "p\#(index)", "author": "u\#(reply)", "createdAt": "2026-10-01T08:00:00Z", "text": "\#(sentence(8))"}"#)
            }
        }
        let users = (0..<40).map { #"{"id": "u\#($0)", "name": "User \#($0)"}"# }
        let site = try SiteFixture("""
            -- site.yml --
            title: Big
            baseURL: https://example.org/
            -- content/users.json --
            [\(users.joined(separator: ","))]
            -- content/posts.json --
            [\(posts.joined(separator: ",\n"))]
            -- content/comments.json --
            [\(comments.joined(separator: ",\n"))]
            """)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        let result = try await build(site)
        let files = site.tree("output/search").filter { $0.key.hasSuffix(".json") }
        #expect(files.count <= result.pageCount / 50 + 20, "\(files.count) files for \(result.pageCount) pages")
        #expect(files.allSatisfy { $0.value.count <= 512 * 1024 }, "\(files.filter { $0.value.count > 512 * 1024 }.keys.sorted())")
        // A first one-word query of any of these words (each in thousands of results): its
        // postings file holds its best results and count alone, the whole list is in a big file,
        // and with the cards of the first four it fetches ≤ 256 KiB (the lexicon files of near
        // words are a few hundred bytes here).
        let page = try #require(site.read("output/search/index.html"))
        let configuration = try #require(page.firstMatch(of: /data-configuration="([^"]*)"/)).1.replacing("&quot;", with: "\"")
        let layout = try #require(JSONSerialization.jsonObject(with: Data(configuration.utf8)) as? [String: Any])
        let (postingFiles, cardsPerFile) = (try #require(layout["postings"] as? Int), try #require(layout["cardsPerFile"] as? Int))
        for word in words {
            let path = "p/\(SearchText.hash(word) % UInt32(postingFiles)).json"
            let postings = try #require(files[path])
            let entry = try #require((JSONSerialization.jsonObject(with: Data(postings)) as? [String: Any])?[word] as? [String: Any], "\(word)")
            let top = try #require(entry["top"] as? [Int]).filter { $0 >= 0 }
            #expect(top.count == 32 && (entry["n"] as? Int ?? 0) > 3_000, "\(word): \(entry)")
            let cards = Set(top.prefix(4).map { "d/\($0 / cardsPerFile).json" })
            let bytes = postings.count + cards.reduce(0) { $0 + (files[$1]?.count ?? 0) }
            #expect(bytes <= 256 * 1024, "\(word): \(bytes) bytes")
            #expect(files.keys.contains { $0.hasPrefix("b/") && String(decoding: files[$0] ?? Data(), as: UTF8.self).contains("\"\(word)\":[") })
        }

        // One caption edited: at most 10 search files rewritten.
        let before = site.tree("output/search")
        let edited = try #require(site.read("content/posts.json")).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.contains(#""id": "p1500""#) ? String($0).replacing(#""caption": ""#, with: #""caption": "zanzibar "#) : String($0) }
            .joined(separator: "\n")
        try site.write("content/posts.json", edited)
        let rebuilt = try await build(site)
        let after = site.tree("output/search")
        let changed = after.keys.filter { after[$0] != before[$0] }.sorted()
        #expect(!changed.isEmpty && changed.count <= 10, "\(changed)")
        #expect(rebuilt.report?.writtenPaths.filter { $0.hasPrefix("search/") }.count == changed.count)
    }

    @Test("through the memo in .daybook-cache: after a caption edit, a new post, a deleted post and a damaged memo, the search files are a fresh build's")
    func memoOnDisk() async throws {
        let site = try SiteFixture(Self.archive)
        _ = try await build(site)
        let memo = ".daybook-cache/memo"
        #expect(FileManager.default.fileExists(atPath: site.directory.appending(path: memo).path))
        func fresh() async throws -> [String: String] {
            let copy = try SiteFixture("")
            for (path, bytes) in site.tree("") where !path.hasPrefix("output/") && !path.hasPrefix(".daybook-cache/") {
                try copy.write(path, bytes: bytes)
            }
            _ = try await build(copy)
            return Self.searchFiles(copy)
        }
        // A caption edit: patched.
        try site.write("content/posts.json", try #require(site.read("content/posts.json")).replacing("The old lighthouse", with: "The red lighthouse"))
        _ = try await build(site)
        #expect(Self.searchFiles(site) == (try await fresh()))
        #expect(Self.searchFiles(site).values.contains { $0.contains("\"red\"") })
        // A new post: every later result moves, and the kept cards move with them.
        try site.write(
            "content/posts.json",
            try #require(site.read("content/posts.json")).replacing(
                "[\n", with: #"[\#n  {"id": "p0", "author": "ben", "createdAt": "2026-11-18T08:00:00Z", "caption": "Ferry to Cacilhas"},\#n"#))
        let added = try await build(site)
        #expect(Self.searchFiles(site) == (try await fresh()))
        #expect(Self.searchFiles(site).values.contains { $0.contains("\"cacilhas\"") })
        #expect(added.searchCardsMoved > 0)
        // A deleted post: its results go, the rest move up, read back from the last cards file.
        try site.write(
            "content/posts.json",
            try #require(site.read("content/posts.json")).replacing(#"  {"id": "p2", "author": "ben", "createdAt": "2026-11-19T08:00:00Z", "caption": "Tram 28 at dawn"},\#n"#, with: ""))
        let deleted = try await build(site)
        #expect(Self.searchFiles(site) == (try await fresh()))
        #expect(!Self.searchFiles(site).values.contains { $0.contains("tram") })
        #expect(deleted.searchCardsMoved > 0)
        // The memo cut short, then another edit: the files are made from nothing, as they should be.
        let bytes = try Data(contentsOf: site.directory.appending(path: memo))
        try site.write(memo, bytes: bytes.prefix(bytes.count / 2))
        try site.write("content/posts.json", try #require(site.read("content/posts.json")).replacing("Ferry to", with: "Boat to"))
        _ = try await build(site)
        #expect(Self.searchFiles(site) == (try await fresh()))
        #expect(Self.searchFiles(site).values.contains { $0.contains("\"boat\"") })
    }
}
