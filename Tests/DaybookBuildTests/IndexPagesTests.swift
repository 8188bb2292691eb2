import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 3: every page of CONTRACT §4, with exact membership, order and counts across page boundaries.
@Suite("Index pages, feeds and sitemap")
struct IndexPagesTests {
    /// One build shared by the read-only tests below.
    static let built = BuiltSite(IndexSite.archive, now: IndexSite.now)

    func read(_ path: String) async throws -> String {
        try await Self.built.get().read("output/\(path)") ?? ""
    }

    func ids(_ path: String) async throws -> [String] { HTMLProbe.dataIDs(try await read(path)) }

    @Test("/tags/: most used first, ties by name, across pages")
    func tagsIndex() async throws {
        // sea: p1 p2 p4 p5 (4) · sky: p2 p3 (2) · café: p3 p4 (2) · 日本: p5 (1). The future post's tag has no page.
        #expect(try await ids("tags/index.html") == ["sea", "café"])
        #expect(try await ids("tags/page/2/index.html") == ["sky", "日本"])
        #expect(try await read("tags/page/3/index.html") == "")
        #expect(try await read("tags/future/index.html") == "")
        #expect(try await read("tags/index.html").contains("4 posts"))
    }

    @Test("a tag's pages list its posts in timeline order, paginated")
    func tagPages() async throws {
        #expect(try await ids("tags/sea/index.html") == ["p1", "p2"])
        #expect(try await ids("tags/sea/page/2/index.html") == ["p4", "p5"])
        #expect(try await ids("tags/café/index.html") == ["p3", "p4"])
        #expect(try await ids("tags/日本/index.html") == ["p5"])
    }

    @Test("/users/: by name, ties by id, unnamed by id; each profile lists the user's posts")
    func users() async throws {
        // Names: al, bea (id), cy, Dan, Zoë.
        #expect(try await ids("users/index.html") == ["al", "bea"])
        #expect(try await ids("users/page/2/index.html") == ["Cy", "dan"])
        #expect(try await ids("users/page/3/index.html") == ["zoe"])
        #expect(try await ids("users/zoe/index.html") == ["p1", "p3"])
        #expect(try await ids("users/zoe/page/2/index.html") == ["p4", "p6"])
        #expect(try await ids("users/cy/index.html") == [])
        let al = try await read("users/al/index.html")
        #expect(al.contains("Followed by</span> <a href=\"/blog/users/zoe/\">Zoë</a>"))
    }

    @Test("/locations/: one place per slug under its first-sorting name, most used first")
    func locations() async throws {
        #expect(try await ids("locations/index.html") == ["LISBON", "Porto"])
        #expect(try await ids("locations/page/2/index.html") == ["Évora"])
        #expect(try await ids("locations/lisbon/index.html") == ["p1", "p2"])
        #expect(try await ids("locations/lisbon/page/2/index.html") == ["p4"])
        // Each post keeps its own spelling, linked to the one page.
        let p4 = try await read("posts/p4/index.html")
        #expect(p4.contains("<a href=\"/blog/locations/lisbon/\">lisbon</a>"))
    }

    @Test("hashtags and mentions link where their page exists, and stay text otherwise")
    func links() async throws {
        let p1 = try await read("posts/p1/index.html")
        #expect(p1.contains("<a class=\"hashtag\" href=\"/blog/tags/sea/\">#Sea</a> at dawn with <a class=\"mention\" href=\"/blog/users/al/\">@al</a>."))
        let p5 = try await read("posts/p5/index.html")
        #expect(p5.contains("<a class=\"hashtag\" href=\"/blog/tags/日本/\">#日本</a> @nobody"))
        let p2 = try await read("posts/p2/index.html")
        #expect(p2.contains("<a class=\"hashtag\" href=\"/blog/tags/sky/\">#sky</a> is nice, #unused is not a page, hi <a class=\"mention\" href=\"/blog/users/zoe/\">@zoe</a>"))
    }

    @Test("every internal link and fragment of the site resolves, under the baseURL's path")
    func allLinksResolve() async throws {
        #expect(try LinkResolver(root: try await Self.built.get().directory.appending(path: "output"), prefix: "/blog/").brokenLinks() == [])
    }

    /// Reads an XML document's elements of one name, with their text, in order.
    final class Collector: NSObject, XMLParserDelegate {
        let names: Set<String>
        var found: [(String, String)] = []
        var stack: [String] = []
        var text = ""
        init(_ names: Set<String>) { self.names = names }
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(name)
            text = ""
            if name == "link", let href = attributes["href"], names.contains("link@" + (attributes["rel"] ?? "")) {
                found.append(("link@" + (attributes["rel"] ?? ""), href))
            }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let path = stack.joined(separator: "/")
            if names.contains(path) { found.append((path, text)) }
            stack.removeLast()
        }
    }

    func parse(_ path: String, _ names: Set<String>) async throws -> [(String, String)] {
        let data = try #require(FileManager.default.contents(atPath: try await Self.built.get().directory.appending(path: "output/\(path)").path))
        let parser = XMLParser(data: data)
        let collector = Collector(names)
        parser.delegate = collector
        #expect(parser.parse(), "\(path) is not well-formed XML: \(String(describing: parser.parserError))")
        return collector.found
    }

    @Test("the timeline feed holds the first feedSize posts in order, with content dates")
    func timelineFeed() async throws {
        let found = try await parse("timeline/feed.xml", ["feed/entry/id", "feed/entry/updated", "feed/updated", "feed/id"])
        #expect(found.filter { $0.0 == "feed/entry/id" }.map(\.1) == [
            "https://example.org/blog/posts/p1/", "https://example.org/blog/posts/p2/", "https://example.org/blog/posts/p3/",
        ])
        #expect(found.filter { $0.0 == "feed/entry/updated" }.map(\.1) == ["2026-11-21T01:00:00Z", "2026-11-20T01:00:00Z", "2026-11-19T01:00:00Z"])
        #expect(found.first { $0.0 == "feed/updated" }?.1 == "2026-11-21T01:00:00Z")
        #expect(found.first { $0.0 == "feed/id" }?.1 == "https://example.org/blog/timeline/")
    }

    @Test("the journal feed skips placeholders and dates entries by their sending")
    func journalFeed() async throws {
        let found = try await parse("journal/feed.xml", ["feed/entry/title", "feed/entry/updated", "feed/entry/id"])
        #expect(found.filter { $0.0 == "feed/entry/title" }.map(\.1) == ["Two & <three>", "One", "Three"])
        #expect(found.filter { $0.0 == "feed/entry/updated" }.map(\.1) == ["2026-11-20T08:00:00Z", "2026-11-19T08:00:00Z", "2026-11-18T08:00:00Z"])
        let page = try await read("journal/index.html")
        #expect(page.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Indexes: journal\" href=\"/blog/journal/feed.xml\">"))
    }

    @Test("the sitemap lists exactly the pages written, by their pretty URLs, 404 aside")
    func sitemap() async throws {
        let locs = try await parse("sitemap.xml", ["urlset/url/loc"]).map(\.1)
        let pages = try await Self.built.get().tree("output").keys.filter { $0.hasSuffix(".html") && $0 != "404.html" }
        let expected = pages.map { "https://example.org/blog/" + String($0.dropLast("index.html".count)) }
        #expect(locs.count == pages.count)
        #expect(Set(locs.map { $0.removingPercentEncoding ?? $0 }) == Set(expected))
        #expect(locs.contains("https://example.org/blog/tags/caf%C3%A9/"))
    }

    @Test("search's cards list people, hashtags and places first, with their post counts and URLs, in index order")
    func searchCards() async throws {
        let data = try #require(FileManager.default.contents(atPath: try await Self.built.get().directory.appending(path: "output/search/d/0.json").path))
        let cards = try #require(try JSONSerialization.jsonObject(with: data) as? [[Any]])
        let kinds = cards.map { $0[0] as? String ?? "" }
        let groups = cards.filter { ["u", "t", "l"].contains($0[0] as? String) }
        #expect(groups.filter { $0[0] as? String == "t" }.map { $0[2] as? String } == ["sea", "café", "sky", "日本"])
        #expect(groups.filter { $0[0] as? String == "l" }.map { "\($0[2]) \($0[1]) \($0[4])" } == ["LISBON lisbon 3", "Porto porto 1", "Évora évora 1"])
        #expect(groups.filter { $0[0] as? String == "u" }.map { $0[4] as? Int } == [1, 1, 0, 0, 4])
        #expect(Array(kinds.prefix(groups.count)) == groups.map { $0[0] as? String ?? "" })
    }

    @Test("images get the width and height of their file, and a missing image is a warning at its field")
    func imageSizes() async throws {
        let png = TestPNG.make(width: 300, height: 500)
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "tall", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/tall.png"},
             {"id": "lost", "author": "u", "createdAt": "2026-11-19T08:00:00Z", "image": "images/lost.png"}]
            """)
        try site.write("content/images/tall.png", bytes: png)
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now)))
        #expect(result.diagnostics.map(\.description) == ["content/posts.json:2:78: warning: image 'content/images/lost.png' does not exist; the post is shown without it"])
        let post = site.read("output/posts/tall/index.html") ?? ""
        #expect(post.contains(
            "<figure class=\"photo photo-portrait\"><img src=\"/images/tall.300.webp\" srcset=\"/images/tall.300.webp 300w\" sizes=\"(max-width: 40rem) 100vw, 40rem\" alt=\"Photo by u\" width=\"300\" height=\"500\" class=\"photo-portrait\" style=\"background-color:#c8783c\"></figure>"))
        #expect(FileManager.default.fileExists(atPath: site.directory.appending(path: "output/images/tall.png").path))
    }
}
