import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 41, CONTRACT §12: what a link-preview reader and a search engine read of each page.
@Suite("Link previews, structured data and robots.txt")
struct LinkPreviewTests {
    static let now = "2026-11-21T12:00:00Z"
    static let archive = """
        -- site.yml --
        title: Shared
        baseURL: https://s.example/blog/
        description: Photos of small hours.
        language: pt-BR
        images:
          widths: [600, 1300]
        -- content/users.json --
        [{"id": "ana", "name": "Ana", "bio": "Walks **early**."}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "updatedAt": "2026-11-20T09:00:00Z",
           "caption": "Fog on the river </script> at dawn", "image": "images/a.png", "imageAlt": "Fog over water"},
          {"id": "p2", "author": "ana", "createdAt": "2026-11-19T08:00:00Z", "caption": "Behind a veil", "image": "images/b.png", "sensitive": true}
        ]
        -- content/comments.json --
        [{"id": "c1", "postId": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "text": "Cold"}]
        -- content/prompts.json --
        [{"id": "q1", "title": "What did you see?", "body": "Look *out*."}, {"id": "q2", "title": "Unanswered"}]
        -- content/sent-prompts.json --
        [{"id": "s1", "promptId": "q1", "sentAt": "2026-11-19T07:00:00Z"}, {"id": "s2", "promptId": "q2", "sentAt": "2026-11-18T07:00:00Z"}]
        -- content/responses.json --
        [{"id": "r1", "promptId": "q1", "createdAt": "2026-11-19T09:00:00Z", "text": "A heron, *still*.", "updatedAt": "2026-11-20T09:00:00Z"}]
        """

    static func built(_ archive: String = archive) async throws -> SiteFixture {
        let site = try SiteFixture(archive)
        try site.write("content/images/a.png", bytes: TestPNG.make(width: 1400, height: 700))
        try site.write("content/images/b.png", bytes: TestPNG.make(width: 1400, height: 700))
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(now)))
        #expect(result.succeeded, "\(result.diagnostics)")
        return site
    }

    /// Each `<meta property|name="…" content="…">` of a page's head, and its canonical link.
    static func meta(_ html: String) -> [String: String] {
        let head = html.components(separatedBy: "</head>")[0]
        var found: [String: String] = [:]
        for tag in head.components(separatedBy: "<meta ").dropFirst() {
            let attributes = tag.prefix { $0 != ">" }
            func value(_ name: String) -> String? {
                attributes.components(separatedBy: "\(name)=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
            }
            if let key = value("property") ?? value("name"), let content = value("content") { found[key] = content }
        }
        found["canonical"] = head.components(separatedBy: "<link rel=\"canonical\" href=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
        return found
    }

    /// The page's JSON-LD, parsed.
    static func linkedData(_ html: String) throws -> [String: Any]? {
        guard let script = html.components(separatedBy: "<script type=\"application/ld+json\">").dropFirst().first?.components(separatedBy: "</script>").first
        else { return nil }
        return try JSONSerialization.jsonObject(with: Data(script.utf8)) as? [String: Any]
    }

    @Test("a post page, read as a link preview reads it: its photo (a copy of at least 1,200 px), caption and author, in Open Graph and JSON-LD")
    func post() async throws {
        let site = try await Self.built()
        let html = try #require(site.read("output/posts/p1/index.html"))
        let meta = Self.meta(html)
        #expect(meta["canonical"] == "https://s.example/blog/posts/p1/")
        #expect(meta["og:url"] == "https://s.example/blog/posts/p1/")
        #expect(meta["og:type"] == "article")
        #expect(meta["og:title"] == "Foto de Ana · Shared")
        #expect(meta["og:site_name"] == "Shared")
        #expect(meta["og:locale"] == "pt_BR")
        #expect(meta["description"] == "Fog on the river &lt;/script&gt; at dawn")
        #expect(meta["og:description"] == meta["description"])
        let image = try #require(meta["og:image"])
        #expect(image.hasPrefix("https://s.example/blog/images/a.1300."), "\(image)")
        #expect(meta["og:image:width"] == "1300")
        #expect(meta["og:image:height"] == "650")
        #expect(meta["og:image:alt"] == "Fog over water")
        #expect(meta["twitter:card"] == "summary_large_image")
        #expect(site.read("output/" + image.dropFirst("https://s.example/blog/".count)) != nil || FileManager.default.fileExists(
            atPath: site.directory.appending(path: "output/" + image.dropFirst("https://s.example/blog/".count)).path), "the copy is published")

        let parsed = try Self.linkedData(html)
        let data = try #require(parsed)
        #expect(data["@context"] as? String == "https://schema.org")
        #expect(data["@type"] as? String == "SocialMediaPosting")
        #expect(data["url"] as? String == "https://s.example/blog/posts/p1/")
        #expect(data["articleBody"] as? String == "Fog on the river </script> at dawn", "the script is not closed by the caption")
        #expect(data["datePublished"] as? String == "2026-11-20T08:00:00Z")
        #expect(data["dateModified"] as? String == "2026-11-20T09:00:00Z")
        #expect(data["commentCount"] as? Int == 1)
        let author = try #require(data["author"] as? [String: Any])
        #expect(author["@type"] as? String == "Person")
        #expect(author["name"] as? String == "Ana")
        #expect(author["url"] as? String == "https://s.example/blog/users/ana/")
        #expect((data["image"] as? [String: Any])?["url"] as? String == image)
        #expect(!html.contains("<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"SocialMediaPosting\",\"@id\":\"https://s.example/blog/posts/p1/\",\"url\":\"https://s.example/blog/posts/p1/\",\"headline\":\"Foto de Ana\",\"articleBody\":\"Fog on the river </script>"))
    }

    @Test("with images.widths all under 1,200 px, a photo that wide is shared by a 1,200 px copy of its own, published, and outside the srcset")
    func shareCopy() async throws {
        let site = try await Self.built(Self.archive.replacing("widths: [600, 1300]", with: "widths: [480, 960]"))
        let html = try #require(site.read("output/posts/p1/index.html"))
        let meta = Self.meta(html)
        #expect(meta["og:image"] == "https://s.example/blog/images/a.1200.webp")
        #expect(meta["og:image:width"] == "1200")
        #expect(meta["og:image:height"] == "600")
        #expect(FileManager.default.fileExists(atPath: site.directory.appending(path: "output/images/a.1200.webp").path))
        #expect(html.contains("images/a.480.webp 480w, /blog/images/a.960.webp 960w\""), "the srcset keeps images.widths")
        #expect(!html.components(separatedBy: "</head>")[1].contains("a.1200"))
        // A sensitive post's photo gets its copy too (the photo is the same file for every
        // post), but no page names it.
        #expect(!(site.read("output/posts/p2/index.html") ?? "").contains("b.1200"))
    }

    @Test("a sensitive post's photo is named nowhere in its head, nor in its JSON-LD")
    func sensitive() async throws {
        let site = try await Self.built()
        let html = try #require(site.read("output/posts/p2/index.html"))
        let head = html.components(separatedBy: "</head>")[0]
        #expect(!head.contains("images/b"))
        #expect(Self.meta(html)["og:image"] == nil)
        #expect(Self.meta(html)["twitter:card"] == nil)
        #expect(try Self.linkedData(html)?["image"] == nil)
        #expect(try Self.linkedData(html)?["@type"] as? String == "SocialMediaPosting")
    }

    @Test("a profile is a ProfilePage whose mainEntity is the person; other pages describe themselves; home by the site's description")
    func otherPages() async throws {
        let site = try await Self.built()
        let profile = try #require(site.read("output/users/ana/index.html"))
        #expect(Self.meta(profile)["og:type"] == "profile")
        #expect(Self.meta(profile)["description"] == "Walks early.")
        let parsedProfile = try Self.linkedData(profile)
        let data = try #require(parsedProfile)
        #expect(data["@type"] as? String == "ProfilePage")
        let person = try #require(data["mainEntity"] as? [String: Any])
        #expect(person["@type"] as? String == "Person")
        #expect(person["name"] as? String == "Ana")
        #expect(person["url"] as? String == "https://s.example/blog/users/ana/")
        let home = try #require(site.read("output/index.html"))
        #expect(Self.meta(home)["description"] == "Photos of small hours.")
        #expect(Self.meta(home)["canonical"] == "https://s.example/blog/")
        #expect(Self.meta(home)["og:type"] == "website")
        #expect(try Self.linkedData(home) == nil)
        for path in ["timeline/", "journal/", "tags/", "search/"] {
            let page = try #require(site.read("output/\(path)index.html"))
            #expect(Self.meta(page)["canonical"] == "https://s.example/blog/\(path)", "\(path)")
            #expect((Self.meta(page)["description"]?.count ?? 0) > 0, "\(path)")
        }
    }

    @Test("an answered journal entry is a BlogPosting of its responses; an unanswered one has no JSON-LD")
    func entry() async throws {
        let site = try await Self.built()
        let html = try #require(site.read("output/journal/q1/index.html"))
        #expect(Self.meta(html)["description"] == "Look out.")
        let parsed = try Self.linkedData(html)
        let data = try #require(parsed)
        #expect(data["@type"] as? String == "BlogPosting")
        #expect(data["headline"] as? String == "What did you see?")
        #expect(data["url"] as? String == "https://s.example/blog/journal/q1/")
        #expect(data["articleBody"] as? String == "A heron, still.")
        #expect(data["datePublished"] as? String == "2026-11-19T09:00:00Z")
        #expect(data["dateModified"] as? String == "2026-11-20T09:00:00Z")
        #expect(data["inLanguage"] as? String == "pt-BR")
        #expect(try Self.linkedData(try #require(site.read("output/journal/q2/index.html"))) == nil)
    }

    @Test("a new host in baseURL moves every page's canonical URL in the next build, home, search and 404 included")
    func newHost() async throws {
        let site = try await Self.built()
        let moved = Self.archive.replacingOccurrences(of: "baseURL: https://s.example/blog/", with: "baseURL: https://t.example/blog/")
        try site.write("site.yml", moved.components(separatedBy: "-- site.yml --\n")[1].components(separatedBy: "-- content/")[0])
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(Self.now)))
        #expect(result.succeeded)
        for (file, address) in [("index.html", ""), ("search/index.html", "search/"), ("404.html", "404.html"), ("posts/p1/index.html", "posts/p1/")] {
            let html = try #require(site.read("output/" + file))
            #expect(Self.meta(html)["canonical"] == "https://t.example/blog/" + address, "\(file)")
        }
    }

    @Test("descriptions are plain text of at most 200 characters, cut at a word")
    func longDescription() async throws {
        let long = String(repeating: "word ", count: 80)
        let site = try await Self.built(Self.archive.replacingOccurrences(of: "Behind a veil", with: long))
        let page = try #require(site.read("output/posts/p2/index.html"))
        let description = try #require(Self.meta(page)["description"])
        #expect(description.count <= 200)
        #expect(description.hasSuffix("word…"))
    }

    @Test("robots.txt allows every page and names the sitemap; a site's own content/robots.txt is published instead; no head tags without an absolute baseURL")
    func robots() async throws {
        let site = try await Self.built()
        #expect(site.read("output/robots.txt") == "User-agent: *\nAllow: /\n\nSitemap: https://s.example/blog/sitemap.xml\n")
        let own = try SiteFixture(Self.archive + "\n-- content/robots.txt --\nUser-agent: *\nDisallow: /drafts/\n")
        try own.write("content/images/a.png", bytes: TestPNG.make(width: 1400, height: 700))
        try own.write("content/images/b.png", bytes: TestPNG.make(width: 1400, height: 700))
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: own.directory, now: Fixed.at(Self.now)))
        #expect(result.succeeded, "\(result.diagnostics)")
        #expect(own.read("output/robots.txt") == "User-agent: *\nDisallow: /drafts/\n")
        let relative = try await Self.built(Self.archive.replacingOccurrences(of: "baseURL: https://s.example/blog/", with: "baseURL: /blog/"))
        let html = try #require(relative.read("output/posts/p1/index.html"))
        #expect(!html.contains("og:") && !html.contains("rel=\"canonical\"") && !html.contains("ld+json"))
        #expect(relative.read("output/robots.txt") == "User-agent: *\nAllow: /\n")
    }
}
