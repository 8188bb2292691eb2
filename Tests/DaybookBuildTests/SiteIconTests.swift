import DaybookBuild
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// Issue 41: `icon` in site.yml gives every page `<link rel="icon">` and an `apple-touch-icon`,
/// square PNGs made by the photo pipeline; without it nothing is linked.
@Suite("Site icon")
struct SiteIconTests {
    static let archive = """
        -- site.yml --
        title: Iconic
        baseURL: https://i.example/blog/
        icon: images/me.png
        -- content/users.json --
        [{"id": "ana", "name": "Ana"}]
        -- content/posts.json --
        [{"id": "p1", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "Hello"}]
        """

    static func build(_ site: SiteFixture, output: String = "output") async -> BuildResult {
        await SiteBuilder().build(BuildOptions(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: output), now: Fixed.at("2026-11-21T12:00:00Z")))
    }

    /// The icon links of a page's head, as written.
    static func iconLinks(_ html: String) -> [String] {
        html.components(separatedBy: "</head>")[0].split(separator: "\n").map(String.init)
            .filter { $0.contains("rel=\"icon\"") || $0.contains("apple-touch-icon") }
    }

    static let expectedLinks = [
        #"<link rel="icon" type="image/png" sizes="32x32" href="/blog/images/me.32x32.png">"#,
        #"<link rel="apple-touch-icon" type="image/png" href="/blog/images/me.180x180.png">"#,
        #"<link rel="icon" type="image/png" sizes="192x192" href="/blog/images/me.192x192.png">"#,
    ]

    @Test("every page links the three icons; each is a square PNG of its size with no metadata; a second build reuses them")
    func icons() async throws {
        let site = try SiteFixture(Self.archive)
        try site.write("content/images/me.png", bytes: TestPNG.make(width: 400, height: 300))
        let result = await Self.build(site)
        #expect(result.succeeded)
        #expect(result.diagnostics.map(\.description) == [])
        for page in ["output/index.html", "output/posts/p1/index.html", "output/timeline/index.html", "output/404.html", "output/search/index.html"] {
            #expect(Self.iconLinks(try #require(site.read(page))) == Self.expectedLinks, "\(page)")
        }
        for side in [32, 180, 192] {
            let bytes = try #require(FileManager.default.contents(atPath: site.directory.appending(path: "output/images/me.\(side)x\(side).png").path))
            #expect(ImageSize(reading: Array(bytes)) == ImageSize(width: side, height: side))
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            for chunk in ["eXIf", "tEXt", "iTXt", "zTXt", "tIME"] { #expect(!bytes.contains(Data(chunk.utf8)), "\(side): \(chunk)") }
        }
        #expect(BuildSummary.line(result).contains(" · images 2 encoded, 0 reused · "), "the icon and the photo itself")
        let again = await Self.build(site, output: "output-2")
        #expect(BuildSummary.line(again).contains(" · images 0 encoded, 2 reused · "))
        let iconPaths: Set = ["images/me.32x32.png", "images/me.180x180.png", "images/me.192x192.png"]
        let icons = site.tree("output").filter { iconPaths.contains($0.key) }
        #expect(icons.count == 3)
        #expect(site.tree("output-2").filter { icons[$0.key] != nil } == icons, "the same bytes, from the cache")
    }

    @Test("without icon no page links an icon and no icon file is made")
    func none() async throws {
        let site = try SiteFixture(Self.archive.replacing("icon: images/me.png\n", with: ""))
        try site.write("content/images/me.png", bytes: TestPNG.make(width: 400, height: 300))
        #expect(await Self.build(site).succeeded)
        #expect(Self.iconLinks(try #require(site.read("output/index.html"))) == [])
        #expect(site.tree("output").keys.filter { $0.hasSuffix("x32.png") || $0.hasSuffix("x180.png") } == [])
    }

    @Test("a small icon is scaled up with a warning")
    func smallAndWide() async throws {
        let site = try SiteFixture(Self.archive)
        try site.write("content/images/me.png", bytes: TestPNG.make(width: 64, height: 48))
        let result = await Self.build(site)
        #expect(result.diagnostics.map(\.description) == [
            "site.yml:3:7: warning: icon 'content/images/me.png' is 64×48 px, so its 192 px icon is scaled up and looks soft on a phone; give an image at least 192 px square"
        ])
        let bytes = try #require(FileManager.default.contents(atPath: site.directory.appending(path: "output/images/me.192x192.png").path))
        #expect(ImageSize(reading: Array(bytes)) == ImageSize(width: 192, height: 192))
    }

    @Test("what icon may not be: an error or a warning at its value, and no page links an icon", arguments: [
        ("https://cdn.example/me.png", "site.yml:3:7: error: 'icon' must be the path of an image under content/ such as images/icon.png, from which the build makes the site's icons; 'https://cdn.example/me.png' is not"),
        ("../secret.png", "site.yml:3:7: error: 'icon' must be the path of an image under content/ such as images/icon.png, from which the build makes the site's icons; '../secret.png' is not"),
        ("images/gone.png", "site.yml:3:7: warning: icon 'content/images/gone.png' does not exist; the site is shown without it"),
        ("images/spin.gif", "site.yml:3:7: error: icon 'content/images/spin.gif' is a GIF image, from which Daybook cannot make the PNG icons browsers and phones ask for; give 'icon' a JPEG, PNG or WebP image, at least 192 px square"),
        ("notes.txt", "site.yml:3:7: error: icon 'content/notes.txt' is not a JPEG, PNG, WebP, HEIC, GIF or SVG image; export it as JPEG, PNG or WebP"),
    ])
    func refused(icon: String, message: String) async throws {
        let site = try SiteFixture(Self.archive.replacing("icon: images/me.png", with: "icon: \(icon)"))
        try site.write("content/images/spin.gif", bytes: Array("GIF89a".utf8) + [2, 0, 1, 0, 0, 0, 0, 0x3B])
        try site.write("content/notes.txt", "not an image")
        let result = await Self.build(site)
        #expect(result.diagnostics.map(\.description) == [message])
        if result.succeeded {
            #expect(Self.iconLinks(try #require(site.read("output/index.html"))) == [])
        } else {
            #expect(site.read("output/index.html") == nil, "a failed build writes nothing")
        }
    }

    @Test("a content file already at an icon's path is a clash, reported before anything is written")
    func clash() async throws {
        let site = try SiteFixture(Self.archive)
        try site.write("content/images/me.png", bytes: TestPNG.make(width: 400, height: 300))
        try site.write("content/images/me.32x32.png", bytes: TestPNG.make(width: 32, height: 32))
        let result = await Self.build(site)
        #expect(!result.succeeded)
        #expect(result.diagnostics.map(\.description).contains(
            "content/images/me.32x32.png: error: two outputs would be written to 'images/me.32x32.png'; rename the image or theme file"))
    }
}
