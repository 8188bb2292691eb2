import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

@Suite("Site builder")
struct SiteBuilderTests {
    func build(_ site: SiteFixture, now: String = MiniSite.now, strict: Bool = false) async -> BuildResult {
        await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(now), strict: strict))
    }

    @Test("the mini site builds every page of CONTRACT §4")
    func pages() async throws {
        let site = try SiteFixture(MiniSite.archive)
        let result = await build(site)
        #expect(result.errorCount == 0)
        #expect(result.diagnostics.map(\.description) == [
            "content/comments.json:5:10: warning: comment 'c4' is on post 'nope', which does not exist; it is left out",
            "content/sent-prompts.json:5:10: warning: sent prompt 's4' names prompt 'lost', which does not exist; it is shown as a placeholder",
            "site.yml: warning: baseURL '/' has no scheme and host, so the feeds and the sitemap cannot give absolute URLs; set it to the site's address, such as 'baseURL: https://example.org/'",
        ])
        let files = site.tree("output").keys.sorted()
        #expect(files == [
            ".daybook-manifest", "404.html", "images/a.png", "index.html",
            "journal/feed.xml", "journal/index.html", "journal/lost/index.html", "journal/older/index.html",
            "journal/page/2/index.html", "journal/today/index.html", "journal/twice/index.html", "load-more.js",
            "locations/index.html", "locations/porto/index.html",
            "posts/p1/index.html", "posts/p2/index.html", "posts/p3/index.html", "posts/p4/index.html", "preview.js", "robots.txt",
            "search.js", "search/d/0.json", "search/index.html", "search/l/0.json", "search/p/0.json", "search/p/1.json", "search/p/2.json",
            "search/p/3.json", "sensitive.js", "sitemap.xml", "style.css",
            "tags/index.html", "tags/lisbon/index.html",
            "timeline/feed.xml", "timeline/index.html", "timeline/page/2/index.html",
            "users/ana/comments.xml", "users/ana/feed.xml", "users/ana/index.html", "users/ben/comments.xml", "users/ben/feed.xml",
            "users/ben/index.html", "users/cai/comments.xml", "users/cai/feed.xml", "users/cai/index.html", "users/index.html",
            "users/page/2/index.html",
        ])
        #expect(result.pageCount == 24)
    }

    @Test("a site.yml that does not read gives its error at the repeated key, and no warning about the default baseURL it fell back on")
    func unreadableConfig() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            title: A
            title: B
            -- content/users.json --
            [{"id": "u"}]
            """)
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == ["site.yml:3:1: error: duplicate key 'title' (first at line 2)"])
        #expect(!result.succeeded)
    }

    @Test("items in folders below a collection's folder are read as items, a draft among them left out, and none is published as a file, nor an editor's backup")
    func nestedItems() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts/2026/11/p9.md --
            ---
            id: p9
            author: u
            createdAt: 2026-11-20T08:00:00Z
            ---
            Nine
            -- content/posts/2026/p8.json --
            {"id": "p8", "author": "u", "createdAt": "2026-11-19T08:00:00Z", "caption": "Eight"}
            -- content/posts/2026/secret.md --
            ---
            id: secret
            author: u
            createdAt: 2026-11-18T08:00:00Z
            draft: true
            ---
            Not yet
            -- content/posts/2026/secret.md~ --
            an editor's backup of the draft
            -- content/notes.txt~ --
            a backup
            -- content/notes.txt.swp --
            a swap file
            -- content/notes.txt --
            published
            """)
        let result = await build(site)
        #expect(result.succeeded)
        #expect(result.diagnostics.isEmpty)
        #expect(HTMLProbe.dataIDs(site.read("output/timeline/index.html") ?? "") == ["p9", "p8"])
        #expect(site.tree("output").keys.filter { $0.hasPrefix("posts/") }.sorted() == ["posts/p8/index.html", "posts/p9/index.html"])
        #expect(site.tree("output").keys.filter { $0.hasPrefix("notes") } == ["notes.txt"])
    }

    @Test("journal and timeline pages list exactly their ids, in order, with prev/next links")
    func order() async throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = await build(site)
        let journal1 = try #require(site.read("output/journal/index.html"))
        let journal2 = try #require(site.read("output/journal/page/2/index.html"))
        #expect(HTMLProbe.dataIDs(journal1) == ["today", "twice"])
        #expect(HTMLProbe.dataIDs(journal2) == ["older", "lost"])
        #expect(HTMLProbe.count("data-today", in: journal1) == 1)
        #expect(HTMLProbe.count("data-skeleton", in: journal2) == 1)
        #expect(journal1.contains("<a rel=\"next\" href=\"/journal/page/2/\">"))
        #expect(journal2.contains("<a rel=\"prev\" href=\"/journal/\">"))
        #expect(!journal1.contains("rel=\"prev\""))

        let timeline1 = try #require(site.read("output/timeline/index.html"))
        let timeline2 = try #require(site.read("output/timeline/page/2/index.html"))
        #expect(HTMLProbe.dataIDs(timeline1) + HTMLProbe.dataIDs(timeline2) == ["p3", "p1", "p2", "p4"])
    }

    @Test("a post page shows its visible comments oldest first")
    func comments() async throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = await build(site)
        let post = try #require(site.read("output/posts/p1/index.html"))
        #expect(HTMLProbe.attributeValues("id", in: post).filter { $0.hasPrefix("comment-") } == ["comment-c1", "comment-c2"])
        #expect(post.contains("<img src=\"/images/a.png\" alt=\"A river\">"))
    }

    @Test("a second build with no change writes nothing")
    func secondBuild() async throws {
        let site = try SiteFixture(MiniSite.archive)
        let first = await build(site)
        let before = site.tree("output")
        let second = await build(site)
        #expect(first.report?.written == 46)
        #expect(second.report == WriteReport(written: 0, unchanged: 46, removed: 0))
        #expect(site.tree("output") == before)
    }

    @Test("a post deleted from the content loses its page; a file placed by hand survives")
    func removal() async throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = await build(site)
        try site.write("output/notes.txt", "mine")
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/posts/p4.md"))
        let result = await build(site)
        #expect(result.report?.removed == 1)
        #expect(site.read("output/posts/p4/index.html") == nil)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/posts/p4").path))
        #expect(site.read("output/notes.txt") == "mine")
        #expect(HTMLProbe.dataIDs(site.read("output/timeline/page/2/index.html") ?? "") == ["p2"])
    }

    @Test("a prompt deleted while its sending remains becomes a placeholder entry")
    func promptDeleted() async throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = await build(site)
        try site.write("content/prompts.json", """
            [{"id": "today", "title": "Today's question", "date": "2026-11-21"}, {"id": "twice", "title": "Asked twice"}]
            """)
        _ = await build(site)
        let entry = try #require(site.read("output/journal/older/index.html"))
        #expect(entry.contains("data-skeleton"))
        #expect(!entry.contains("First paragraph."))
    }

    @Test("a content error leaves the output folder byte for byte as it was")
    func contentErrorKeepsOutput() async throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = await build(site)
        let before = site.tree("output")
        try site.write("content/posts/p5.json", #"{"id": "p5", "author": "ana", "createdAt": "tomorrow"}"#)
        let result = await build(site)
        #expect(!result.succeeded)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "content/posts/p5.json:1:44: error: 'createdAt' must be an RFC 3339 date-time such as 2026-11-21T08:00:00Z or 2026-11-21T09:00:00+01:00, found 'tomorrow'"
        ])
        #expect(site.tree("output") == before)
    }

    @Test("a template error is reported at its line and column and leaves the output as it was")
    func templateErrorKeepsOutput() async throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = await build(site)
        let before = site.tree("output")
        try site.write("Templates/item-comment.mustache", "<p>\n{{#author}}{{name}}{{/writer}}\n")
        let result = await build(site)
        #expect(!result.succeeded)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "Templates/item-comment.mustache:2:23: error: template error: a section is closed with a different name than it was opened with"
        ])
        #expect(site.tree("output") == before)
    }

    @Test("--strict turns warnings into a failed build")
    func strict() async throws {
        let site = try SiteFixture(MiniSite.archive)
        let result = await build(site, strict: true)
        #expect(!result.succeeded)
        #expect(site.read("output/index.html") == nil)
    }

    @Test("a site's own template overrides the default theme's, file by file")
    func override() async throws {
        let site = try SiteFixture(MiniSite.archive + "\n-- Templates/404.mustache --\n<h1>Lost, friend?</h1>\n")
        _ = await build(site)
        #expect(site.read("output/404.html")?.contains("<h1>Lost, friend?</h1>") == true)
        #expect(site.read("output/index.html")?.contains("Today&#39;s question") == true)
    }

    @Test("a site's template using swift-mustache's transforms renders through swift-mustache, every page alike")
    func transforms() async throws {
        let template = "<h1>{{uppercased(heading)}}</h1><p>{{#sections}}{{#first()}}first {{/first()}}{{style}}{{/sections}}</p>"
        let site = try SiteFixture(MiniSite.archive + "\n-- Templates/404.mustache --\n\(template)\n")
        let result = await build(site)
        #expect(result.succeeded)
        #expect(site.read("output/404.html")?.contains("<h1>PAGE NOT FOUND</h1><p></p>") == true)
        #expect(site.read("output/index.html")?.contains("Today&#39;s question") == true)
    }

    @Test("the same content and now give byte-identical output in two folders")
    func deterministic() async throws {
        let a = try SiteFixture(MiniSite.archive)
        let b = try SiteFixture(MiniSite.archive)
        _ = await build(a)
        _ = await build(b)
        #expect(a.tree("output") == b.tree("output"))
    }
}
