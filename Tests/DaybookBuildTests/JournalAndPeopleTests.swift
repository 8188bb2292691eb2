import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 12: responses, drafts, edits, per-person feeds, comment anchors and times, post navigation.
@Suite("Responses, drafts, edits and per-person feeds")
struct JournalAndPeopleTests {
    static let site = BuiltSite(JournalSite.archive, now: JournalSite.now)

    func build(_ site: SiteFixture, future: Bool = false, drafts: Bool = false) async -> BuildResult {
        await SiteBuilder().build(
            BuildOptions(siteDirectory: site.directory, now: Fixed.at(JournalSite.now), includeFuture: future, includeDrafts: drafts))
    }

    /// The text of every `<tag>` element, in document order.
    func texts(_ tag: String, in xml: String) -> [String] {
        xml.components(separatedBy: "<\(tag)>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test("warnings: a response to a missing prompt, to a prompt with no entry, and an edit before creation; none for what a draft takes")
    func warnings() async throws {
        let site = try SiteFixture(JournalSite.archive)
        let result = await build(site)
        #expect(result.succeeded)
        #expect(result.diagnostics.map(\.description) == [
            "content/responses.json:8:10: warning: response 'rx' answers prompt 'missing', which does not exist; it is not shown",
            "content/responses.json:9:10: warning: response 'ru' answers prompt 'unsent', which has no journal entry (it is not today's and was not sent by now); it is not shown",
            "content/responses/r3.md:5:12: warning: 'updatedAt' 2026-11-19T09:00:00Z is before 'createdAt' 2026-11-20T09:00:00Z; it is ignored: give the date of the last edit, or remove it",
        ])
    }

    @Test("an entry page shows its prompt's responses oldest first, ties by id; future and draft responses are left out")
    func responsesOnEntryPage() async throws {
        let site = try await Self.site.get()
        let a = try #require(site.read("output/journal/a/index.html"))
        #expect(HTMLProbe.attributeValues("data-response", in: a) == ["r0", "r1", "r2"])
        #expect(a.contains("<p>Second, <em>same time</em></p>"))
        #expect(a.contains("edited <time datetime=\"2026-11-21T09:00:00Z\">November 21, 2026</time>"))
        #expect(HTMLProbe.attributeValues("data-response", in: site.read("output/journal/b/index.html") ?? "") == ["r3"])
    }

    @Test("a journal list item with shown responses carries data-responses and an excerpt of the latest")
    func responsesInList() async throws {
        let site = try await Self.site.get()
        let list = try #require(site.read("output/journal/index.html"))
        #expect(HTMLProbe.dataIDs(list) == ["b", "a"])
        #expect(HTMLProbe.attributeValues("data-responses", in: list) == ["1", "3"])
        #expect(list.contains("<p class=\"entry-response-label\">Latest of 3 responses</p><p>Second, <em>same time</em></p>"))
    }

    @Test("the journal feed carries the responses and dates each entry by the latest edit or response")
    func journalFeed() async throws {
        let site = try await Self.site.get()
        let feed = try #require(site.read("output/journal/feed.xml"))
        // Feed, b (sent 20 Nov 08:00, response r3 at 09:00, whose earlier updatedAt is ignored), a (r1's edit).
        #expect(texts("updated", in: feed) == ["2026-11-21T09:00:00Z", "2026-11-20T09:00:00Z", "2026-11-21T09:00:00Z"])
        #expect(feed.contains("First by id"))
        #expect(feed.contains("From &lt;em&gt;Markdown&lt;/em&gt;."))
        #expect(!feed.contains("From the future"))
    }

    @Test("--future shows responses after now; --drafts shows drafts, a draft prompt with its sendings and responses, a draft post with its comments")
    func futureAndDrafts() async throws {
        let future = try SiteFixture(JournalSite.archive)
        _ = await build(future, future: true)
        #expect(HTMLProbe.attributeValues("data-response", in: future.read("output/journal/a/index.html") ?? "") == ["r0", "r1", "r2", "rf"])

        let drafts = try SiteFixture(JournalSite.archive)
        let result = await build(drafts, drafts: true)
        #expect(result.succeeded)
        #expect(HTMLProbe.dataIDs(drafts.read("output/journal/index.html") ?? "") == ["b", "a", "hidden"])
        #expect(HTMLProbe.attributeValues("data-response", in: drafts.read("output/journal/b/index.html") ?? "") == ["r3", "rd"])
        #expect(HTMLProbe.attributeValues("data-response", in: drafts.read("output/journal/hidden/index.html") ?? "") == ["rh"])
        #expect(HTMLProbe.dataIDs(drafts.read("output/timeline/index.html") ?? "") == ["pd", "b1", "p3", "p2", "p1"])
        #expect(drafts.read("output/posts/pd/index.html")?.contains("id=\"comment-cd\"") == true)
        #expect(drafts.read("output/posts/p1/index.html")?.contains("id=\"comment-c4\"") == true)
    }

    @Test("without --drafts, drafts are left out of the whole site, with what they take, and no placeholder")
    func draftsLeftOut() async throws {
        let site = try await Self.site.get()
        #expect(site.read("output/journal/hidden/index.html") == nil)
        #expect(site.read("output/posts/pd/index.html") == nil)
        let all = site.tree("output").values.map { String(decoding: $0, as: UTF8.self) }.joined()
        for absent in ["data-skeleton", "Draft prompt", "a draft post", "on a draft post", "a draft comment", "A draft", "posts/pd/"] {
            #expect(!all.contains(absent), "\(absent)")
        }
        #expect(HTMLProbe.dataIDs(site.read("output/users/ana/index.html") ?? "") == ["p3", "p2", "p1"])
        #expect(site.read("output/posts/p1/index.html")?.contains("1 comment<") == true)
    }

    @Test("edits: a post page says edited with the date; feeds and the sitemap date by the last change")
    func edits() async throws {
        let site = try await Self.site.get()
        let p2 = try #require(site.read("output/posts/p2/index.html"))
        #expect(p2.contains("<p class=\"edited\">Edited <time datetime=\"2026-11-20T10:00:00Z\">November 20, 2026</time></p>"))
        #expect(site.read("output/posts/p3/index.html")?.contains("Edited") == false)
        let feed = try #require(site.read("output/users/ana/feed.xml"))
        // Feed, p3, p2 (its edit, not its creation).
        #expect(texts("updated", in: feed) == ["2026-11-20T10:00:00Z", "2026-11-20T10:00:00Z", "2026-11-20T10:00:00Z"])
        let sitemap = try #require(site.read("output/sitemap.xml"))
        #expect(sitemap.contains("<loc>https://j.example/posts/p2/</loc><lastmod>2026-11-20T11:00:00Z</lastmod>"))
        #expect(sitemap.contains("<loc>https://j.example/posts/p1/</loc><lastmod>2026-11-18T11:05:00Z</lastmod>"))
        #expect(sitemap.contains("<loc>https://j.example/journal/a/</loc><lastmod>2026-11-21T09:00:00Z</lastmod>"))
        #expect(sitemap.contains("<loc>https://j.example/timeline/</loc></url>"))
        #expect(!sitemap.contains(".xml"))
    }

    @Test("an empty feed is dated by the build's now")
    func emptyFeed() async throws {
        let site = try await Self.site.get()
        let feed = try #require(site.read("output/users/cai/feed.xml"))
        #expect(texts("updated", in: feed) == ["2026-11-21T12:00:00Z"])
        #expect(!feed.contains("<entry>"))
    }

    @Test("per-person feeds: their posts in timeline order, and the newest comments on their posts, linked to the comment")
    func personFeeds() async throws {
        let site = try await Self.site.get()
        let posts = try #require(site.read("output/users/ana/feed.xml"))
        #expect(texts("title", in: posts) == ["J: Ana", "Post by Ana", "Post by Ana"])
        #expect(posts.contains("<link rel=\"self\" type=\"application/atom+xml\" href=\"https://j.example/users/ana/feed.xml\"/>"))
        let comments = try #require(site.read("output/users/ana/comments.xml"))
        #expect(texts("title", in: comments) == ["J: comments on Ana&apos;s posts", "Ben on Post by Ana", "Ben on Post by Ana"])
        #expect(HTMLProbe.attributeValues("href", in: comments).filter { $0.contains("#") } == [
            "https://j.example/posts/p2/#comment-c2", "https://j.example/posts/p3/#comment-c3",
        ])
        #expect(texts("updated", in: comments) == ["2026-11-20T11:00:00Z", "2026-11-20T11:00:00Z", "2026-11-20T11:00:00Z"])
        let profile = try #require(site.read("output/users/ana/index.html"))
        #expect(profile.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Ana: posts\" href=\"/users/ana/feed.xml\">"))
        #expect(profile.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Ana: comments on their posts\" href=\"/users/ana/comments.xml\">"))
    }

    @Test("each comment has an anchor and shows its time")
    func commentAnchorAndTime() async throws {
        let site = try await Self.site.get()
        let p1 = try #require(site.read("output/posts/p1/index.html"))
        #expect(p1.contains("<article class=\"comment\" id=\"comment-c1\">"))
        #expect(p1.contains("<time datetime=\"2026-11-18T11:05:00Z\">November 18, 2026 · 11:05\u{202F}AM</time>"))
    }

    @Test("a post page links its author's newer and older post, absent at either end")
    func postNavigation() async throws {
        let site = try await Self.site.get()
        func nav(_ id: String) -> [String] {
            let html = site.read("output/posts/\(id)/index.html") ?? ""
            return HTMLProbe.attributeValues("data-nav", in: html).map { kind in
                let marker = "data-nav=\"\(kind)\" href=\""
                let after = html.components(separatedBy: marker)[1]
                return "\(kind) \(after.prefix { $0 != "\"" })"
            }
        }
        #expect(nav("p3") == ["older /posts/p2/"])
        #expect(nav("p2") == ["newer /posts/p3/", "older /posts/p1/"])
        #expect(nav("p1") == ["newer /posts/p2/"])
        #expect(nav("b1") == [])
    }

    @Test("a post without a photo is titled Post by, with one Photo by, on pages and in feeds")
    func postTitles() async throws {
        let site = try await Self.site.get()
        #expect(site.read("output/posts/p1/index.html")?.contains("<title>Photo by Ana · J</title>") == true)
        #expect(site.read("output/posts/p2/index.html")?.contains("<title>Post by Ana · J</title>") == true)
        #expect(texts("title", in: site.read("output/timeline/feed.xml") ?? "") == ["J: timeline", "Post by Ben", "Post by Ana"])
    }

    @Test("the checker passes the site, its per-person feeds included")
    func checks() async throws {
        let site = try await Self.site.get()
        let report = await SiteChecker().check(FolderSource(directory: site.directory.appending(path: "output")))
        #expect(report.diagnostics.map(\.description) == [])
        #expect(report.feeds == 8)
    }

    @Test("draft must be true or false")
    func draftType() async throws {
        let site = try SiteFixture("""
            -- content/prompts.json --
            [{"id": "a", "title": "A", "draft": "yes"}]
            """)
        let result = await build(site)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "content/prompts.json:1:37: error: 'draft' must be true or false, found a string"
        ])
    }
}
