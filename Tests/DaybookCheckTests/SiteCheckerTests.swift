import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 5: each kind of breakage is reported exactly once, at the right place.
@Suite("daybook check")
struct SiteCheckerTests {
    /// A small, sound output folder under the base URL https://example.org/blog/, written by hand
    /// so each expected line and column can be read off the text.
    static let clean = """
        -- index.html --
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Home</title></head>
        <body><main id="main">
        <a href="/blog/caf%C3%A9/">café</a> <a href="posts/p1/#c1">comment</a> <a href="#main">top</a>
        <img src="/blog/images/a.png" alt="A" srcset="images/a.png 1x, /blog/images/a.png 2x">
        <a href="https://elsewhere.example/">out</a> <a href="mailto:a@b.c">mail</a>
        </main></body></html>
        -- café/index.html --
        <!doctype html>
        <html lang="en"><head><title>Café</title><link rel="alternate" type="application/atom+xml" href="/blog/feed.xml"></head>
        <body><p><a href="../">home</a> <a href="/blog/posts/p1">post</a></p></body></html>
        -- posts/p1/index.html --
        <!doctype html>
        <html lang="en"><head><title>Post</title></head>
        <body><article id="c1">Hi</article><a href="../../caf%C3%A9/">back</a></body></html>
        -- 404.html --
        <!doctype html>
        <html lang="en"><head><title>Not found</title></head><body><a href="/blog/">home</a></body></html>
        -- images/a.png --
        png
        -- feed.xml --
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
        <title>T</title><id>https://example.org/blog/</id><updated>2026-11-21T08:00:00Z</updated>
        <link rel="self" href="https://example.org/blog/feed.xml"/>
        <author><name>A</name></author>
        <entry><title>E</title><id>https://example.org/blog/posts/p1/</id><updated>2026-11-21T08:00:00Z</updated></entry>
        </feed>
        -- sitemap.xml --
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>https://example.org/blog/</loc></url>
        <url><loc>https://example.org/blog/caf%C3%A9/</loc></url>
        <url><loc>https://example.org/blog/posts/p1/</loc></url>
        </urlset>
        """

    func check(_ archive: String, replacing edits: [String: String?] = [:]) async -> CheckReport {
        var files: [String: [UInt8]] = [:]
        for (path, text) in SiteFixture.parse(archive) { files[path] = Array(text.utf8) }
        for (path, text) in edits { files[path] = text.map { Array($0.utf8) } }
        return await SiteChecker().check(MemorySource(files: files))
    }

    func messages(_ edits: [String: String?]) async -> [String] {
        await check(Self.clean, replacing: edits).diagnostics.map(\.description)
    }

    @Test("a sound site checks clean, counting links and listing external ones")
    func clean() async {
        let report = await check(Self.clean)
        #expect(report.diagnostics.map(\.description) == [])
        #expect(report.pages == 4)
        #expect(report.internalLinks == 11)
        #expect(report.externalLinks == ["https://elsewhere.example/"])
        #expect(report.feeds == 1)
        #expect(report.sitemapURLs == 3)
        #expect(report.summary.hasPrefix("checked 4 pages · 11 internal links · 1 external (not fetched) · 1 feed · sitemap of 3 URLs · 0 errors · "))
    }

    @Test("a deleted target page: each link to it is reported where it stands, and the sitemap entry too")
    func deletedPage() async {
        do {
            let found = await messages(["posts/p1/index.html": nil])
            #expect(found == [
            "café/index.html:3:41: error: link to /blog/posts/p1 does not resolve",
            "index.html:4:45: error: link to posts/p1/#c1 does not resolve",
            "sitemap.xml:5:6: error: sitemap URL https://example.org/blog/posts/p1/ has no page in the folder",
        ])
        }
    }

    @Test("a wrong fragment")
    func wrongFragment() async {
        let page = SiteFixture.parse(Self.clean).first { $0.0 == "posts/p1/index.html" }!.1.replacing(#"id="c1""#, with: #"id="c2""#)
        do {
            let found = await messages(["posts/p1/index.html": page])
            #expect(found == [
            "index.html:4:45: error: link to posts/p1/#c1: posts/p1/index.html has no element with id 'c1'"
        ])
        }
    }

    @Test("a missing image is reported for src and each srcset candidate")
    func missingImage() async {
        do {
            let found = await messages(["images/a.png": nil])
            #expect(found == [
            "index.html:5:10: error: link to /blog/images/a.png does not resolve",
            "index.html:5:46: error: link to /blog/images/a.png does not resolve",
            "index.html:5:46: error: link to images/a.png does not resolve",
        ])
        }
    }

    @Test("a canonical URL or a link preview's og:image, og:url or twitter:image naming a missing file is an error, said as such (issue 41)")
    func linkPreviewURLs() async {
        let head = """
            <!doctype html>
            <html lang="en"><head><title>Post</title><link href="https://example.org/blog/posts/p2/" rel="canonical">
            <meta content="https://example.org/blog/images/gone.webp" property="og:image"><meta property="og:url" content="https://example.org/blog/posts/p1/">
            <meta name="twitter:image" content="/blog/images/a.png"><meta property="og:image:alt" content="/blog/nowhere/">
            <meta property="og:image" content="https://photos.example/x.jpg"><link rel="alternate" href="https://example.org/blog/feed.xml"></head>
            <body><article id="c1">Hi</article><a href="../../caf%C3%A9/">back</a></body></html>
            """
        let found = await messages(["posts/p1/index.html": head])
        #expect(found == [
            "posts/p1/index.html:2:53: error: the canonical URL https://example.org/blog/posts/p2/ names no file of the output",
            "posts/p1/index.html:3:15: error: og:image https://example.org/blog/images/gone.webp names no file of the output",
        ])
        // Every other URL there resolves or leaves the site; once the image is gone, twitter:image is flagged too.
        let withoutImage = await messages(["posts/p1/index.html": head, "images/a.png": nil])
        #expect(withoutImage.filter { $0.hasPrefix("posts/") }.suffix(1) == [
            "posts/p1/index.html:4:36: error: twitter:image /blog/images/a.png names no file of the output"
        ])
    }

    @Test("srcset candidates part at commas and ASCII whitespace only, as HTML parses them")
    func srcsetWhitespace() async {
        // Tabs and line breaks separate a URL from its descriptor; U+3000 is part of the URL.
        let page = SiteFixture.parse(Self.clean).first { $0.0 == "index.html" }!.1.replacing(
            #"srcset="images/a.png 1x, /blog/images/a.png 2x""#, with: "srcset=\"images/a.png\t1x,\n/blog/images/a.png\u{3000}2x\"")
        let found = await messages(["index.html": page])
        #expect(found == ["index.html:5:46: error: link to /blog/images/a.png\u{3000}2x does not resolve"])
    }

    @Test("files under a name starting with a dot are not pages of the site; a dot inside a name is")
    func hiddenFiles() async {
        let broken = "<!doctype html>\n<html lang=\"en\"><head><title>X</title></head><body><a href=\"/blog/nowhere/\">x</a></body></html>\n"
        let report = await check(Self.clean, replacing: [
            ".hidden/index.html": broken, "posts/.draft.html": broken, "v1.2/index.html": broken,
        ])
        #expect(report.diagnostics.map(\.description) == [
            "v1.2/index.html:1:1: error: the page is not in sitemap.xml",
            "v1.2/index.html:2:60: error: link to /blog/nowhere/ does not resolve",
        ])
        #expect(report.pages == 5)
    }

    @Test("what a valid site may hold is no error: an HTML file that is not a page, an SVG's title, #top, a text fragment, <a name>, a byte order mark")
    func validButUnusual() async {
        let page = """
            \u{FEFF}<!doctype html>
            <html lang="en"><head><title>Post</title></head>
            <body><svg viewBox="0 0 1 1"><title>An icon</title></svg><a name="old"></a><a id="same" name="same"></a><article id="c1">Hi</article>
            <a href="#top">top</a> <a href="#TOP">top</a> <a href="#:~:text=Hi">quote</a> <a href="#c1:~:text=Hi">quote</a>
            <a href="#old">old anchor</a> <a href="#same">same</a> <a href="/blog/about.html">about</a> <a href="/blog/google1234.html">verify</a>
            </body></html>

            """
        let report = await check(Self.clean, replacing: [
            "posts/p1/index.html": page,
            // Copied from content/ as they are: files, not pages (no title, not in the sitemap).
            "about.html": "<!doctype html>\n<html><head><title>About</title></head><body><p>Hi</p></body></html>\n",
            "google1234.html": "google-site-verification: google1234.html\n",
        ])
        #expect(report.diagnostics.map(\.description) == [])
        #expect(report.pages == 4)
    }

    @Test("an empty href or src is an error (CONTRACT §5), whitespace only too")
    func emptyAttributes() async {
        let page = """
            <!doctype html>
            <html lang="en"><head><title>Post</title></head>
            <body><article id="c1">Hi</article><a href="">x</a> <img src=" " alt="y"></body></html>

            """
        #expect(await messages(["posts/p1/index.html": page]) == [
            "posts/p1/index.html:3:44: error: empty href attribute: it names the page itself; give the address, or leave the attribute out",
            "posts/p1/index.html:3:62: error: empty src attribute: it names the page itself; give the address, or leave the attribute out",
        ])
    }

    /// A site whose one file cannot be read, as a link or an oversized file in a folder is not.
    struct Unreadable: CheckSource {
        var inner: MemorySource
        var path: String
        var paths: [String] { inner.paths }
        func bytes(of path: String) -> [UInt8]? { path == self.path ? nil : inner.bytes(of: path) }
    }

    @Test("a sitemap or feed that cannot be read is an error, not passed over")
    func unreadableXML() async {
        var files: [String: [UInt8]] = [:]
        for (path, text) in SiteFixture.parse(Self.clean) { files[path] = Array(text.utf8) }
        for path in ["sitemap.xml", "feed.xml"] {
            let report = await SiteChecker().check(Unreadable(inner: MemorySource(files: files), path: path))
            #expect(report.diagnostics.map(\.description) == [
                "\(path): error: cannot read the file: it is a symbolic link, not a regular file, or too large to check"
            ])
        }
    }

    @Test("a feed's links resolve as a page's do, fragments too")
    func feedLinks() async {
        let feed = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>T</title><id>https://example.org/blog/</id><updated>2026-11-21T08:00:00Z</updated>
            <link rel="self" href="https://example.org/blog/feed.xml"/><link rel="alternate" href="/blog/"/>
            <author><name>A</name></author>
            <entry><title>E</title><id>https://example.org/blog/posts/p1/</id><updated>2026-11-21T08:00:00Z</updated>
            <link rel="alternate" href="https://example.org/blog/posts/p1/#c1"/></entry>
            <entry><title>F</title><id>https://example.org/blog/posts/p2/</id><updated>2026-11-21T08:00:00Z</updated>
            <link rel="alternate" href="https://example.org/blog/posts/p2/"/></entry>
            <entry><title>G</title><id>https://example.org/blog/posts/p1/#c9</id><updated>2026-11-21T08:00:00Z</updated>
            <link rel="alternate" href="https://example.org/blog/posts/p1/#c9"/></entry>
            </feed>

            """
        #expect(await messages(["feed.xml": feed]) == [
            "feed.xml:9:1: error: link to https://example.org/blog/posts/p2/ does not resolve",
            "feed.xml:11:1: error: link to https://example.org/blog/posts/p1/#c9: posts/p1/index.html has no element with id 'c9'",
        ])
    }

    @Test("a page without a title, an empty title, two titles")
    func titles() async {
        let noTitle = "<!doctype html>\n<html lang=\"en\"><head></head><body><a href=\"/blog/\">home</a></body></html>\n"
        do {
            let found = await messages(["404.html": noTitle])
            #expect(found == ["404.html:1:1: error: the page has no <title>"])
        }
        let empty = "<!doctype html>\n<html><head><title> </title></head><body></body></html>\n"
        do {
            let found = await messages(["404.html": empty])
            #expect(found == ["404.html:2:13: error: the <title> is empty"])
        }
        let two = "<!doctype html>\n<html><head><title>A</title>\n<title>B</title></head><body></body></html>\n"
        do {
            let found = await messages(["404.html": two])
            #expect(found == ["404.html:3:1: error: the page has 2 <title> elements"])
        }
    }

    @Test("a duplicate id, an image without alt, and an HTML5 parse error")
    func pageProblems() async {
        let page = """
            <!doctype html>
            <html><head><title>P</title></head>
            <body><article id="c1">Hi</article><p id="c1"><img src="/blog/images/a.png"></p>
            <a href="/blog/" href="/blog/">x</a></body></html>

            """
        do {
            let found = await messages(["posts/p1/index.html": page])
            #expect(found == [
            "posts/p1/index.html:3:42: error: duplicate id 'c1' (first at line 3)",
            "posts/p1/index.html:3:47: error: <img> without alt text",
            "posts/p1/index.html:4:18: error: HTML parse error: duplicate attribute",
        ])
        }
    }

    @Test("a broken feed: not well-formed, or missing required elements")
    func brokenFeed() async {
                let unclosed = await messages(["feed.xml": "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>T</title>\n</feed"])
        #expect(unclosed.first?.hasPrefix("feed.xml:4:") == true)
        #expect(unclosed.first?.contains("error: XML is not well-formed") == true)
        let thin = """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><id>x</id><updated>yesterday</updated>
            <link rel="self" href="https://example.org/blog/feed.xml"/>
            <entry><title>E</title></entry>
            </feed>
            """
        do {
            let found = await messages(["feed.xml": thin])
            #expect(found == [
            "feed.xml:2:69: error: <updated> 'yesterday' is not an RFC 3339 date-time",
            "feed.xml:4:1: error: Atom entry 1 has no <id>",
            "feed.xml:4:1: error: Atom entry 1 has no <updated>",
            "feed.xml:4:1: error: Atom entry 1 has no author, and the feed has none",
        ])
        }
    }

    @Test("a feed on one line: each entry is checked by what it holds, not by the lines it spans")
    func oneLineFeed() async {
        let entry = "<entry><title>E</title><id>x</id><updated>2026-11-21T08:00:00Z</updated></entry>"
        let head = "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title><id>x</id><updated>2026-11-21T08:00:00Z</updated><author><name>A</name></author>"
        #expect(await messages(["feed.xml": head + entry + entry + "</feed>"]) == [])
        let missing = await messages(["feed.xml": head + entry + "<entry><title>E</title></entry>" + entry + "</feed>"])
        #expect(missing == [
            "feed.xml:1:240: error: Atom entry 2 has no <id>",
            "feed.xml:1:240: error: Atom entry 2 has no <updated>",
        ])
    }

    @Test("a sitemap entry without a page, and a page missing from the sitemap")
    func sitemap() async {
        let sitemap = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <url><loc>https://example.org/blog/</loc></url>
            <url><loc>https://example.org/blog/caf%C3%A9/</loc></url>
            <url><loc>https://example.org/blog/gone/</loc></url>
            </urlset>
            """
        do {
            let found = await messages(["sitemap.xml": sitemap])
            #expect(found == [
            "posts/p1/index.html:1:1: error: the page is not in sitemap.xml",
            "sitemap.xml:5:6: error: sitemap URL https://example.org/blog/gone/ has no page in the folder",
        ])
        }
    }

    @Test("a sitemap index is followed to its parts")
    func sitemapIndex() async {
        let index = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <sitemap><loc>https://example.org/blog/sitemap-1.xml</loc></sitemap>
            <sitemap><loc>https://example.org/blog/sitemap-2.xml</loc></sitemap>
            </sitemapindex>
            """
        let part1 = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <url><loc>https://example.org/blog/</loc></url>
            <url><loc>https://example.org/blog/caf%C3%A9/</loc></url>
            </urlset>
            """
        let part2 = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <url><loc>https://example.org/blog/posts/p1/</loc></url>
            </urlset>
            """
        let report = await check(Self.clean, replacing: ["sitemap.xml": index, "sitemap-1.xml": part1, "sitemap-2.xml": part2])
        #expect(report.diagnostics.map(\.description) == [])
        #expect(report.sitemapURLs == 3)
        do {
            let found = await messages(["sitemap.xml": index, "sitemap-1.xml": part1, "sitemap-2.xml": nil])
            #expect(found == [
                "posts/p1/index.html:1:1: error: the page is not in sitemap.xml",
                "sitemap.xml:4:10: error: sitemap index entry https://example.org/blog/sitemap-2.xml is not a sitemap in the folder",
            ])
        }
    }

    @Test("percent-encoded Unicode links: one that resolves and one that does not")
    func unicodeLinks() async {
        let home = SiteFixture.parse(Self.clean).first { $0.0 == "index.html" }!.1
            .replacing(##"<a href="#main">top</a>"##, with: ##"<a href="/blog/caf%C3%A9/">ok</a> <a href="/blog/caf%C3%A8/">no</a> <a href="/blog/café/">raw</a>"##)
        do {
            let found = await messages(["index.html": home])
            #expect(found == ["index.html:4:114: error: link to /blog/caf%C3%A8/ does not resolve"])
        }
    }

    @Test("links that leave the base path or the site are errors")
    func leavingTheSite() async {
        let page = "<!doctype html>\n<html><head><title>P</title></head><body><a href=\"/other/\">o</a> <a href=\"../../../x\">x</a></body></html>\n"
        do {
            let found = await messages(["posts/p1/index.html": page])
            #expect(found == [
            "index.html:4:45: error: link to posts/p1/#c1: posts/p1/index.html has no element with id 'c1'",
            "posts/p1/index.html:2:50: error: link to /other/ leaves the site's base path /blog/",
            "posts/p1/index.html:2:74: error: link to ../../../x leaves the site",
        ])
        }
    }
}
