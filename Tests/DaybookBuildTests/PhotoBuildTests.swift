import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// CONTRACT §7 through a whole build: upright sizes, srcset candidates, privacy, the cache,
/// sensitive posts, the report link and feeds.
@Suite("Photos in a build")
struct PhotoBuildTests {
    /// A 64×48 JPEG stored sideways with EXIF orientation 6 (so 48×64 upright), a Make tag and a
    /// GPS position, made with Pillow.
    static let rotatedJPEG = [UInt8](Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/4QCqRXhpZgAATU0AKgAAAAgAAwEPAAIAAAAKAAAAMgESAAMAAAABAAYAAIglAAQAAAABAAAAPAAAAABUZXN0TWFrZXIAAAQAAQACAAAAAk4AAAAAAgAFAAAAAwAAAHIAAwACAAAAAlcAAAAABAAFAAAAAwAAAIoAAAAAAAAAJgAAAAEAAAAqAAAAAQAAAB4AAAABAAAACQAAAAEAAAAIAAAAAQAAABgAAAAB/9sAQwANCQoLCggNCwoLDg4NDxMgFRMSEhMnHB4XIC4pMTAuKS0sMzpKPjM2RjcsLUBXQUZMTlJTUjI+WmFaUGBKUVJP/9sAQwEODg4TERMmFRUmTzUtNU9PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P/8AAEQgAMABAAwEiAAIRAQMRAf/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAECdwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkjM1LwFWJy0QoWJDThJfEXGBkaJicoKSo1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoKDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAAwDAQACEQMRAD8Ao0UUV5R9eRXP+rH1qtVm5/1Y+tVq9/Lv4HzPks4/3l+iCiiiu88sKKKKAL1FFFfIn6CRXP8Aqx9arVZuf9WPrVavfy7+B8z5LOP95fogooorvPLCiiigC9RRRXyJ+gkVz/qx9arVZuf9WPrVavfy7+B8z5LOP95fogooorvPLCiiigD/2Q==")!)

    static let archive = """
        -- site.yml --
        baseURL: https://example.org/blog/
        images:
          widths: [16, 32, 100]
        report: "https://example.org/report?page={url}&x=1"
        -- content/users.json --
        [{"id": "u", "name": "U"}]
        -- content/posts.json --
        [{"id": "phone", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/phone.jpg", "imageAlt": "Up"},
         {"id": "hidden", "author": "u", "createdAt": "2026-11-19T08:00:00Z", "image": "images/hidden.png", "sensitive": "Gore"},
         {"id": "plain", "author": "u", "createdAt": "2026-11-18T08:00:00Z", "image": "images/plain.png", "sensitive": true}]
        """

    static func site() throws -> SiteFixture {
        let site = try SiteFixture(archive)
        try site.write("content/images/phone.jpg", bytes: rotatedJPEG)
        try site.write("content/images/hidden.png", bytes: TestPNG.make(width: 40, height: 30))
        try site.write("content/images/plain.png", bytes: TestPNG.make(width: 20, height: 20))
        return site
    }

    static func build(_ site: SiteFixture, output: String = "output") async -> BuildResult {
        await SiteBuilder().build(BuildOptions(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: output), now: Fixed.at(IndexSite.now)))
    }

    /// The page with every `<template>` element's contents cut out: what a browser fetches from.
    static func outsideTemplates(_ html: String) -> String {
        html.replacing(/<template[^>]*>.*?<\/template>/.dotMatchesNewlines(), with: "")
    }

    @Test("an orientation-6 JPEG gets its upright size, photo-portrait and exactly the srcset candidates, each that wide")
    func upright() async throws {
        let site = try Self.site()
        let result = await Self.build(site)
        #expect(result.diagnostics.map(\.description) == [])
        let post = site.read("output/posts/phone/index.html") ?? ""
        let img: String = """
            <figure class="photo photo-portrait"><img src="/blog/images/phone.48.webp" \
            srcset="/blog/images/phone.16.webp 16w, /blog/images/phone.32.webp 32w, /blog/images/phone.48.webp 48w" \
            sizes="(max-width: 40rem) 100vw, 40rem" alt="Up" width="48" height="64" class="photo-portrait" style="background-color:#
            """
        #expect(post.contains(img))
        let output = site.tree("output")
        for (width, height) in [(16, 21), (32, 43), (48, 64)] {
            let copy = try #require(output["images/phone.\(width).webp"], "no copy \(width) wide")
            #expect(ImageSize(reading: [UInt8](copy)) == ImageSize(width: width, height: height))
        }
        #expect(output["images/phone.100.webp"] == nil)  // never wider than the source
    }

    @Test("no image in the output carries the source's EXIF tags or GPS position; the original keeps only its orientation")
    func privacy() async throws {
        let site = try Self.site()
        _ = await Self.build(site)
        let images = site.tree("output").filter { $0.key.hasPrefix("images/") }
        #expect(images.count == 14)  // phone: 16, 32, 48, thumbnail, original; hidden: 16, 32, 40, …; plain: 16, 20, …
        for (path, data) in images {
            #expect(data.range(of: Data("TestMaker".utf8)) == nil, "\(path) keeps the camera's Make")
            #expect(data.range(of: Data("XMP".utf8)) == nil, "\(path) has XMP")
        }
        let original = [UInt8](try #require(images["images/phone.jpg"]))
        #expect(original != Self.rotatedJPEG)
        #expect(ImageSize(reading: original) == ImageSize(width: 64, height: 48))  // same pixels, still stored sideways
        // The only EXIF left is one orientation entry: far smaller than the source's APP1.
        let limit = Self.rotatedJPEG.count - 60
        #expect(original.count < limit)
    }

    @Test("a second build into an empty output folder encodes nothing: images 0 encoded, 3 reused")
    func cacheReuse() async throws {
        let site = try Self.site()
        let first = await Self.build(site)
        #expect(BuildSummary.line(first).contains(" · images 3 encoded, 0 reused · "))
        let second = await Self.build(site, output: "output-2")
        #expect(second.imagesEncoded == 0)
        #expect(BuildSummary.line(second).contains(" · images 0 encoded, 3 reused · "))
        #expect(site.tree("output-2") .filter { $0.key.hasPrefix("images/") }.count == 14)
        #expect(FileManager.default.fileExists(atPath: site.directory.appending(path: ".daybook-cache/images").path))
    }

    @Test("a sensitive photo sits in a closed details with its reason, and nothing outside a template loads it")
    func sensitive() async throws {
        let site = try Self.site()
        _ = await Self.build(site)
        for page in ["posts/hidden/index.html", "timeline/index.html", "users/u/index.html"] {
            let html = try #require(site.read("output/" + page))
            let outside = Self.outsideTemplates(html)
            #expect(!outside.contains("src=\"/blog/images/hidden."), "\(page) loads the sensitive photo")
            #expect(!outside.contains("src=\"/blog/images/plain."), "\(page) loads the sensitive photo")
            #expect(!html.contains("<details data-sensitive class=\"sensitive\" open"))
        }
        let post = site.read("output/posts/hidden/index.html") ?? ""
        #expect(post.contains(
            "<details data-sensitive class=\"sensitive\"><summary><span class=\"sensitive-label\">Gore</span> <span class=\"sensitive-action\">Show photo</span></summary><template data-sensitive-photo><figure class=\"photo\"><img src=\"/blog/images/hidden.40.webp\""))
        #expect(post.contains("<noscript><p class=\"sensitive-link\"><a href=\"/blog/images/hidden.40.webp\">Open the photo</a></p></noscript></details>"))
        let plain = site.read("output/posts/plain/index.html") ?? ""
        #expect(plain.contains("<summary><span class=\"sensitive-label\">Sensitive photo</span>"))
        let grid = site.read("output/users/u/index.html") ?? ""
        #expect(grid.contains("<span class=\"grid-tile grid-sensitive\">Gore</span>"))
    }

    @Test("feeds leave the photos of sensitive posts out")
    func feeds() async throws {
        let site = try Self.site()
        _ = await Self.build(site)
        let feed = site.read("output/timeline/feed.xml") ?? ""
        #expect(feed.contains("images/phone.48.webp"))
        #expect(!feed.contains("images/hidden"))
        #expect(!feed.contains("images/plain"))
    }

    @Test("every post page links report with its absolute URL percent-encoded")
    func report() async throws {
        let site = try Self.site()
        _ = await Self.build(site)
        for id in ["phone", "hidden", "plain"] {
            let post = site.read("output/posts/\(id)/index.html") ?? ""
            #expect(post.contains(
                "<a data-report href=\"https://example.org/report?page=https%3A%2F%2Fexample.org%2Fblog%2Fposts%2F\(id)%2F&amp;x=1\">Report</a>"))
        }
    }

    @Test("the profile is a grid of square thumbnails, each a preview link to its post")
    func grid() async throws {
        let site = try Self.site()
        _ = await Self.build(site)
        let grid = site.read("output/users/u/index.html") ?? ""
        #expect(grid.contains("<ol class=\"items items-grid\">"))
        #expect(grid.contains("<a data-preview class=\"grid-link\" href=\"/blog/posts/phone/\" data-large=\"/blog/images/phone.48.webp\""))
        #expect(grid.contains("<img src=\"/blog/images/phone.48x48.webp\" alt=\"Up\" width=\"48\" height=\"48\""))
    }

    @Test("bad image or report settings are errors, each at its value")
    func errors() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            images:
              format: gif
              originals: 1
            report: "javascript:alert(1)"
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "bad", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/bad.png"}]
            """)
        let result = await Self.build(site)
        let messages = result.diagnostics.map(\.description)
        #expect(messages.contains("site.yml:2:11: error: 'images.format' must be webp or jpeg, found a string"))
        #expect(messages.contains("site.yml:3:14: error: 'images.originals' must be true or false, found 1"))
        #expect(messages.contains { $0.hasPrefix("site.yml:4:9: error: 'report' must be a mailto: or https: URL") })
        #expect(result.report == nil)
    }

    @Test("an undecodable photo is an error at its field")
    func photoErrors() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "bad", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/bad.png"}]
            """)
        try site.write("content/images/bad.png", bytes: TestPNG.make(width: 8, height: 8).prefix(40))
        let result = await Self.build(site)
        let messages = result.diagnostics.map(\.description)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.hasPrefix("content/posts.json:1:77: error: 'content/images/bad.png' cannot be decoded") })
        #expect(result.report == nil)
    }

    @Test("two photos that differ only by extension name their copies by their whole names, so neither takes the other's")
    func twins() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/twin.jpg"}]
            """)
        try site.write("content/images/twin.png", bytes: TestPNG.make(width: 8, height: 8))
        // PNG bytes under a .jpg name: the format comes from the bytes, the copy names from the name.
        try site.write("content/images/twin.jpg", bytes: TestPNG.make(width: 6, height: 6))
        try site.write("content/images/single.png", bytes: TestPNG.make(width: 4, height: 4))
        let result = await Self.build(site)
        #expect(result.diagnostics.isEmpty)
        #expect(site.tree("output").keys.filter { $0.hasPrefix("images/") }.sorted() == [
            "images/single.4.webp", "images/single.4x4.webp", "images/single.png",
            "images/twin.jpg", "images/twin.jpg.6.webp", "images/twin.jpg.6x6.webp",
            "images/twin.png", "images/twin.png.8.webp", "images/twin.png.8x8.webp",
        ])
        #expect(site.read("output/posts/p/index.html")?.contains("src=\"/images/twin.jpg.6.webp\"") == true)
    }

    @Test("an image field naming a URL under the site's own address names the file below it: published with its copies, or reported missing as a path is; check passes")
    func ownAddress() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/blog/
            -- content/users.json --
            [{"id": "u", "avatar": "https://example.org/blog/images/none.png"}]
            -- content/posts.json --
            [{"id": "p1", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "https://example.org/blog/images/a%20b.png?v=2"},
             {"id": "p2", "author": "u", "createdAt": "2026-11-20T09:00:00Z", "image": "https://example.org/elsewhere.png"}]
            """)
        try site.write("content/images/a b.png", bytes: TestPNG.make(width: 600, height: 400))
        let result = await Self.build(site)
        #expect(result.diagnostics.map(\.description) == [
            "content/users.json:1:24: warning: avatar 'https://example.org/blog/images/none.png' (the site's own address for 'content/images/none.png') does not exist; the user is shown without it",
        ])
        let p1 = site.read("output/posts/p1/index.html") ?? ""
        #expect(p1.contains("srcset=\"/blog/images/a%20b.480.webp 480w, /blog/images/a%20b.600.webp 600w\""))
        #expect(site.read("output/posts/p2/index.html")?.contains("src=\"https://example.org/elsewhere.png\"") == true)
        let report = await SiteChecker().check(FolderSource(directory: site.directory.appending(path: "output")))
        #expect(report.diagnostics.map(\.description) == [])
    }

    @Test("a file a field names as an image that holds no image the build knows is an error at the field; one no field names is no error")
    func notAnImage() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            -- content/users.json --
            [
              {
                "id": "u",
                "name": "U",
                "avatar": "images/face.png"
              }
            ]
            -- content/posts/p.md --
            ---
            id: p
            author: u
            createdAt: 2026-11-20T08:00:00Z
            image: images/note.jpg
            ---
            A caption.
            -- content/images/face.png --
            not a PNG
            -- content/images/note.jpg --
            a note
            -- content/images/loose.jpg --
            named by nothing
            """)
        try Data().write(to: site.directory.appending(path: "content/images/face.png"))
        let result = await Self.build(site)
        let unknown = "is not a JPEG, PNG, WebP, HEIC, GIF or SVG image; export it as JPEG, PNG or WebP"
        #expect(result.diagnostics.map(\.description) == [
            "content/posts/p.md:5:8: error: 'content/images/note.jpg' \(unknown)",
            "content/users.json:5:15: error: 'content/images/face.png' \(unknown)",
        ])
        #expect(result.report == nil)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))
    }
}
