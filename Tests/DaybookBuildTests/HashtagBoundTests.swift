import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 10, item 10: output in proportion to content. One post with thousands of hashtags used
/// to make a tag page per hashtag, each repeating the whole caption (789 MB for 4,000).
@Suite("Hashtags per post")
struct HashtagBoundTests {
    static func archive(hashtags: Int, siteYML: String = "title: Tags") -> String {
        let caption = (1...hashtags).map { "#tag\($0)" }.joined(separator: " ")
        return """
            -- site.yml --
            baseURL: https://example.org/
            \(siteYML)
            -- content/users.json --
            [{"id": "ana", "name": "Ana"}]
            -- content/posts.json --
            [
              {"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "Many tags \(caption)"}
            ]
            """
    }

    static func outputBytes(_ site: SiteFixture) -> Int { site.tree("output").values.reduce(0) { $0 + $1.count } }

    /// The bound is on what is written, not on the clock: in CI, beside the browser tests, this
    /// 0.2 s build waited 70 s for a thread and failed a 60 s bound (stop 45's run).
    @Test("3,000 hashtags on one post: 30 tag pages, a warning at the post, a few MB")
    func thousands() async throws {
        let site = try SiteFixture(Self.archive(hashtags: 3_000))
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z")))
        #expect(result.errorCount == 0)
        #expect(result.diagnostics.map(\.description) == [
            "content/posts.json:2:10: warning: post 'p1' has 3,000 hashtags; only the first 30 put it on tag pages; remove some, or raise 'hashtags.perPost' in site.yml"
        ])
        let tagPages = site.tree("output").keys.filter { $0.hasPrefix("tags/") && !$0.hasPrefix("tags/page/") && $0 != "tags/index.html" }
        #expect(tagPages.count == 30)
        #expect(site.read("output/tags/tag30/index.html") != nil)
        #expect(site.read("output/tags/tag31/index.html") == nil)
        let bytes = Self.outputBytes(site)
        #expect(bytes < 5_000_000, "output is \(bytes) bytes")
        print("3,000 hashtags: \(bytes) bytes of output")

        // A card shows an excerpt; the post's own page shows the whole caption.
        let tagPage = try #require(site.read("output/tags/tag1/index.html"))
        #expect(tagPage.contains("…</p>"))
        #expect(tagPage.count < 20_000, "a tag page is \(tagPage.count) bytes")
        let postPage = try #require(site.read("output/posts/p1/index.html"))
        #expect(postPage.contains("#tag3000"))
    }

    @Test("hashtags.perPost in site.yml sets the bound")
    func configured() async throws {
        let site = try SiteFixture(Self.archive(hashtags: 8, siteYML: "hashtags:\n  perPost: 5"))
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z")))
        #expect(result.diagnostics.map(\.description) == [
            "content/posts.json:2:10: warning: post 'p1' has 8 hashtags; only the first 5 put it on tag pages; remove some, or raise 'hashtags.perPost' in site.yml"
        ])
        let tagPages = site.tree("output").keys.filter { $0.hasPrefix("tags/") && !$0.hasPrefix("tags/page/") && $0 != "tags/index.html" }.sorted()
        #expect(tagPages == (1...5).map { "tags/tag\($0)/index.html" }.sorted())
    }
}
