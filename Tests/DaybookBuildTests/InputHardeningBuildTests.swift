@testable import DaybookBuild
import DaybookCheck
import DaybookContent
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// Issue 10, the input side, on disk: links out of the site and link loops, missing images, control
/// characters, and files under `content/` that no item names. A build that succeeds gives an output
/// that `check` passes.
@Suite("Input hardening, built")
struct InputHardeningBuildTests {
    static let now = "2026-11-21T12:00:00Z"
    static let png = TestPNG.make(width: 4, height: 3)

    /// Builds with an absolute `baseURL` (added to `site.yml`), so that the only warnings are the ones a test is about.
    func build(_ site: SiteFixture) async -> BuildResult {
        let config = site.read("site.yml") ?? ""
        if !config.contains("baseURL") { try? site.write("site.yml", "baseURL: https://daybook.example/\n" + config) }
        return await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(Self.now)))
    }

    func check(_ site: SiteFixture) async -> [String] {
        await SiteChecker().check(FolderSource(directory: site.directory.appending(path: "output"))).diagnostics.map(\.description)
    }

    func link(_ site: SiteFixture, _ path: String, to target: String) throws {
        let url = site.directory.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    /// Every file below the output folder, as one string, to look for leaked bytes.
    func outputBytes(_ site: SiteFixture) -> [UInt8] {
        site.tree("output").sorted { $0.key < $1.key }.flatMap { Array($0.value) }
    }

    @Test("a named image and a content file that are links out of the site are errors, and are never read")
    func linksOut() async throws {
        let secret = FileManager.default.temporaryDirectory.appending(path: "daybook-secret-\(UUID().uuidString)")
        try Data("SECRET-BYTES".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/x.png"}]
            """)
        try link(site, "content/images/x.png", to: secret.path)
        try link(site, "content/posts/q.json", to: secret.path)
        try link(site, "content/images/unnamed.png", to: secret.path)
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [
            "content/images/unnamed.png: error: 'content/images/unnamed.png' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself",
            "content/posts.json:1:75: error: image 'content/images/x.png' leads outside the site folder through the symbolic link 'content/images/x.png'; it is not read: put the file itself there",
            "content/posts/q.json: error: 'content/posts/q.json' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself",
        ])
        #expect(!result.succeeded)
        #expect(site.tree("output").isEmpty)
    }

    @Test("content/ and Templates/ that are themselves links out of the site are errors, and nothing below them is read")
    func foldersOut() async throws {
        let outside = FileManager.default.temporaryDirectory.appending(path: "daybook-outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        let elsewhere = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts/p.md --
            ---
            id: p
            author: u
            createdAt: 2026-11-20T08:00:00Z
            ---
            SECRET-CAPTION
            -- Templates/page.mustache --
            SECRET-TEMPLATE
            """)
        try FileManager.default.copyItem(at: elsewhere.directory, to: outside)
        let site = try SiteFixture("""
            -- site.yml --
            title: Linked
            """)
        try link(site, "content", to: outside.appending(path: "content").path)
        try link(site, "Templates", to: outside.appending(path: "Templates").path)
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [
            "Templates: error: 'Templates' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself",
            "content: error: 'content' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself",
        ])
        #expect(!result.succeeded)
        #expect(site.tree("output").isEmpty)
    }

    @Test("a link inside the site is followed")
    func linkInside() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/x.png"}]
            """)
        try FileManager.default.createDirectory(at: site.directory.appending(path: "photos"), withIntermediateDirectories: true)
        try Data(Self.png).write(to: site.directory.appending(path: "photos/x.png"))
        try link(site, "content/images", to: "../photos")
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [])
        #expect(site.tree("output")["images/x.png"] == Data(Self.png))
    }

    @Test("links to the site folder, a hidden folder or an output folder are errors, and nothing is read or published through them")
    func linksBackIntoTheSite() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- .hidden/secret.txt --
            kept out
            -- old/.daybook-manifest --
            daybook-manifest 1
            -- old/page.html --
            an old output
            -- Templates/partials/note.txt --
            a theme file
            """)
        try link(site, "content/site", to: "..")
        try link(site, "content/hidden", to: "../.hidden")
        try link(site, "content/old", to: "../old")
        try link(site, "Templates/up", to: "..")
        let first = await build(site)
        #expect(first.diagnostics.map(\.description) == [
            "Templates/up: error: 'Templates/up' is a symbolic link to the site folder, a folder that holds it, a hidden folder or an output folder; it is not read, lest the build publish its own files again: link to the folder you mean instead",
            "content/hidden: error: 'content/hidden' is a symbolic link to the site folder, a folder that holds it, a hidden folder or an output folder; it is not read, lest the build publish its own files again: link to the folder you mean instead",
            "content/old: error: 'content/old' is a symbolic link to the site folder, a folder that holds it, a hidden folder or an output folder; it is not read, lest the build publish its own files again: link to the folder you mean instead",
            "content/site: error: 'content/site' is a symbolic link to the site folder, a folder that holds it, a hidden folder or an output folder; it is not read, lest the build publish its own files again: link to the folder you mean instead",
        ])
        #expect(site.tree("output").isEmpty)
        for name in ["content/site", "content/hidden", "content/old", "Templates/up"] {
            try FileManager.default.removeItem(at: site.directory.appending(path: name))
        }
        #expect(await build(site).diagnostics.isEmpty)
    }

    @Test("an output folder copied into content/ (a real folder holding a build record) is an error, and nothing in it is published")
    func outputFolderInContent() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- content/old/.daybook-manifest --
            daybook-manifest 1
            -- content/old/page.html --
            an old output
            -- content/photos/kept.txt --
            kept
            """)
        let first = await build(site)
        #expect(first.diagnostics.map(\.description) == [
            "content/old: error: 'content/old' holds a build record (.daybook-manifest): it is an output folder, which the build does not publish again; move it out of content/"
        ])
        #expect(site.tree("output").isEmpty)
        // Without the record it is a folder of files like any other.
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/old/.daybook-manifest"))
        #expect(await build(site).diagnostics.isEmpty)
        #expect(site.tree("output")["old/page.html"] == Data("an old output\n".utf8))
        #expect(site.tree("output")["photos/kept.txt"] == Data("kept\n".utf8))
    }

    @Test("folders nested past the walk's bound are an error at content/, and nothing past it is read")
    func nestedPastTheBound() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            """)
        let deep = (0..<70).map { _ in "d" }.joined(separator: "/")
        try site.write("content/" + deep + "/note.txt", "far down")
        try site.write("content/d/near.txt", "near")
        let reader = SiteReader(siteDirectory: site.directory)
        let walk = reader.siteFiles(under: "content")
        #expect(walk.isCut)
        #expect(walk.files == ["content/d/near.txt", "content/users.json"])
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [
            "content: error: content/ holds more than 1,000,000 names, or folders more than 64 deep; the build does not read past them: move what the site does not publish out of content/"
        ])
        #expect(site.tree("output").isEmpty)
    }

    @Test("link loops are walked once, not round and round, and a link to / is reported")
    func linkLoops() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            """)
        try FileManager.default.createDirectory(at: site.directory.appending(path: "content/images"), withIntermediateDirectories: true)
        try link(site, "content/images/a", to: ".")
        try link(site, "content/images/b", to: "..")
        try link(site, "content/images/c/d", to: "../..")
        try link(site, "content/root", to: "/")
        try Data(Self.png).write(to: site.directory.appending(path: "content/images/one.png"))
        // The loops are walked once, not round and round: the walk ends within its bounds, not cut
        // by them. (Asserted on the walk, not on the clock: on a loaded machine a timed build
        // waited 32 s for a thread and failed.)
        let walk = SiteReader(siteDirectory: site.directory).siteFiles(under: "content")
        #expect(!walk.isCut)
        #expect(walk.files == ["content/images/one.png", "content/users.json"])
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [
            "content/root: error: 'content/root' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself"
        ])
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/root"))
        let again = await build(site)
        #expect(again.diagnostics.isEmpty)
        #expect(site.tree("output").keys.filter { $0.hasPrefix("images/") }.sorted() == ["images/one.3x3.webp", "images/one.4.webp", "images/one.png"])
    }

    @Test("a missing image is left out, with a warning at the field, and check passes the output")
    func missingImage() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u", "avatar": "images/gone.png"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z",
              "image": "images/lost.png"}]
            """)
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [
            "content/posts.json:2:12: warning: image 'content/images/lost.png' does not exist; the post is shown without it",
            "content/users.json:1:24: warning: avatar 'content/images/gone.png' does not exist; the user is shown without it",
        ])
        #expect(result.succeeded)
        #expect(!(site.read("output/posts/p/index.html") ?? "").contains("<img"))
        #expect(await check(site) == [])
    }

    @Test("an image named by a hidden path or an editor's backup, which the build never reads, is left out with a warning that says so, though the file is there")
    func passedOverImage() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u", "avatar": "images/a.png~"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z",
              "image": "images/.hidden.png"}]
            -- content/images/.hidden.png --
            x
            -- content/images/a.png~ --
            x
            """)
        let result = await build(site)
        let why = "is hidden or an editor's backup (a name starting with '.', or ending in '~', '.swp' or '.swx'), which the build never reads; rename it"
        #expect(result.diagnostics.map(\.description) == [
            "content/posts.json:2:12: warning: image 'content/images/.hidden.png' \(why); the post is shown without it",
            "content/users.json:1:24: warning: avatar 'content/images/a.png~' \(why); the user is shown without it",
        ])
        #expect(result.succeeded)
    }

    @Test("control characters from content never reach the output, and check passes it")
    func controlCharacters() async throws {
        let bad = #"\u0000\u0001\u001b[31m"#
        let site = try SiteFixture("""
            -- site.yml --
            title: "Site\\e\\0"
            -- content/users.json --
            [{"id": "u", "name": "U\(bad)", "bio": "bio \(bad) *b*"}]
            -- content/prompts.json --
            [{"id": "q", "title": "T\(bad)", "date": "2026-11-21", "body": "B\(bad)"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "caption": "c\(bad) #tag",
              "imageAlt": "a\(bad)", "image": "https://example.org/a.png", "location": {"name": "L\(bad)"}}]
            -- content/comments.json --
            [{"id": "c", "postId": "p", "author": "u", "createdAt": "2026-11-20T09:00:00Z", "text": "t\(bad)"}]
            """)
        let result = await build(site)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(result.succeeded)
        let bytes = outputBytes(site)
        #expect(!bytes.isEmpty)
        #expect(!bytes.contains(0x00))
        #expect(!bytes.contains(0x01))
        #expect(!bytes.contains(0x1B))
        let problems = await check(site)
        #expect(problems == [], "\(problems)")
    }

    @Test("files under content/ that no item names are published at the same relative path")
    func unnamedAssets() async throws {
        let site = try SiteFixture("""
            -- content/users.json --
            [{"id": "u"}]
            -- content/files/notes.txt --
            notes
            """)
        try FileManager.default.createDirectory(at: site.directory.appending(path: "content/images/2026"), withIntermediateDirectories: true)
        try Data(Self.png).write(to: site.directory.appending(path: "content/images/2026/unnamed.png"))
        let result = await build(site)
        #expect(result.diagnostics.isEmpty)
        let output = site.tree("output")
        #expect(output["images/2026/unnamed.png"] == Data(Self.png))
        #expect(output["files/notes.txt"] == Data("notes\n".utf8))
    }

    @Test("unsafe image paths fail the build, and nothing is written for them")
    func unsafeImagePaths() async throws {
        let site = try SiteFixture(#"""
            -- content/users.json --
            [{"id": "u", "avatar": "\\\\evil.example\\p.png"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "/evil.example/pixel.png"}]
            """#)
        let result = await build(site)
        #expect(result.diagnostics.map(\.description) == [
            "content/posts.json:1:75: error: 'image' must be a path under content/ such as images/photo.jpg, or an http(s) URL; '/evil.example/pixel.png' is neither",
            #"content/users.json:1:24: error: 'avatar' must be a path under content/ such as images/photo.jpg, or an http(s) URL; '\\evil.example\p.png' is neither"#,
        ])
        #expect(site.tree("output").isEmpty)
    }

    @Test("a source file over the size bound is not read: one error at the file, the others read as usual")
    func sourceTooLarge() throws {
        let site = try SiteFixture("""
            -- site.yml --
            title: Big
            -- content/posts.json --
            [{"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "a caption long enough to pass the bound"}]
            -- content/users.json --
            []
            """)
        var reader = SiteReader(siteDirectory: site.directory)
        reader.maxSourceBytes = 64
        let (snapshot, diagnostics) = reader.readContent()
        #expect(diagnostics.map(\.description) == [
            "content/posts.json: error: the file is 123 bytes, over the limit of 64 for one source file; split it"
        ])
        #expect(snapshot.sources.keys.sorted() == ["content/users.json", "site.yml"])
    }

    @Test("a theme file and a photo over the size bound are not read: one error each, naming the size and the bound")
    func themeAndPhotoTooLarge() throws {
        let site = try PhotoBuildTests.site()
        try site.write("Templates/partials/big.mustache", String(repeating: "x", count: 100))
        try site.write("Templates/small.css", "a{}")
        var reader = SiteReader(siteDirectory: site.directory)
        reader.maxSourceBytes = 64
        let (theme, diagnostics) = reader.readTheme()
        #expect(diagnostics.map(\.description) == [
            "Templates/partials/big.mustache: error: the file is 100 bytes, over the limit of 64 for one theme file; make it smaller"
        ])
        #expect(theme.assets.keys.sorted() == ["small.css"])
        #expect(theme.templates.isEmpty)

        let config = ContentLoader.load(SiteReader(siteDirectory: site.directory).readContent().0).config
        let publisher = PhotoPublisher(siteDirectory: site.directory, config: config, namedBy: { [:] }, racyWindow: 0)
        let sizes = try PhotoQuickPathTests.paths.map {
            try #require(FileStatus(path: site.directory.appending(path: "content/" + $0).path, followingLinks: false)).size
        }
        // The smallest photo exactly at the bound is read; the others are over it.
        let bound = try #require(sizes.min())
        reader.maxSourceBytes = Int(bound)
        let published = publisher.publish(PhotoQuickPathTests.paths, read: { [reader] in reader.readAsset($0) })
        let over = zip(PhotoQuickPathTests.paths, sizes).filter { $0.1 > bound }
        try #require(over.count == 2, "the fixture needs photos of distinct sizes: \(sizes)")
        #expect(published.diagnostics.map(\.description) == over.map {
            "content/\($0.0): error: the image is \(Int($0.1).grouped) bytes, over the limit of \(Int(bound).grouped) for one file; make it smaller"
        })
    }
}
