@testable import DaybookBuild
import DaybookContent
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// `serve` patches its last read with the paths its watcher named, and must then hold what a
/// whole read would; whatever a patch cannot take as a walk would, it gives up on.
@Suite("Reads patched with the paths that changed")
struct SiteReadTests {
    let site: SiteFixture
    let reader: SiteReader
    init() throws {
        site = try SiteFixture("""
            -- site.yml --
            title: Patched
            -- content/posts.json --
            [{"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "first"}]
            -- content/posts/p2.md --
            ---
            id: p2
            author: ana
            createdAt: 2026-11-20T11:00:00Z
            ---
            -- content/posts/p3.md --
            ---
            id: p3
            author: ana
            createdAt: 2026-11-20T12:00:00Z
            ---
            -- content/images/a.jpg --
            jpeg
            -- Templates/item-tag.mustache --
            <a>{{name}}</a>
            """)
        reader = SiteReader(siteDirectory: site.directory)
    }

    /// A whole read as `serve` makes it: with a memo of files read, so every source comes with its key.
    func whole() -> SiteRead { reader.readSite(reusing: SiteReader.SourceFiles(), keys: nil).read }

    func text(_ read: SiteRead, _ path: String) -> String? { read.snapshot.sources[path].map { String(decoding: $0, as: UTF8.self) } }

    @Test("edited, new and deleted sources and assets, site.yml and a template: the patch equals a whole read")
    func patched() throws {
        let last = whole()
        #expect(last.patchable)
        try site.write("content/posts.json", "[]")
        try site.write("content/posts/p4.md", "---\nid: p4\nauthor: ana\ncreatedAt: 2026-11-20T13:00:00Z\n---\n")
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/posts/p3.md"))
        try site.write("content/images/b.jpg", "jpeg")
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/images/a.jpg"))
        try site.write("site.yml", "title: Renamed\n")
        try site.write("Templates/item-tag.mustache", "<b>{{name}}</b>\n")
        let changed = [
            "Templates/item-tag.mustache", "content/images/a.jpg", "content/images/b.jpg", "content/posts.json", "content/posts/p3.md",
            "content/posts/p4.md", "site.yml",
        ]
        let patch = try #require(reader.reread(last, changed: changed))
        let fresh = whole()
        #expect(patch.snapshot.sources == fresh.snapshot.sources)
        #expect(patch.snapshot.contentKeys == fresh.snapshot.contentKeys)
        #expect(patch.snapshot.assets == ["content/images/b.jpg"])
        #expect(patch.snapshot.assets == fresh.snapshot.assets)
        #expect(text(patch, "site.yml") == "title: Renamed\n")
        #expect(patch.snapshot.sources["content/posts/p3.md"] == nil)
        #expect(patch.theme.templates["item-tag"]?.source == "<b>{{name}}</b>\n")
        #expect(patch.patchable)
    }

    @Test("only the named paths are read again")
    func onlyNamed() throws {
        let last = whole()
        try site.write("content/posts.json", "[]")
        try site.write("content/posts/p2.md", "---\nid: p2\nauthor: ana\ncreatedAt: 2026-11-20T11:30:00Z\n---\n")
        let patch = try #require(reader.reread(last, changed: ["content/posts.json"]))
        #expect(text(patch, "content/posts.json") == "[]")
        #expect(patch.snapshot.sources["content/posts/p2.md"] == last.snapshot.sources["content/posts/p2.md"])
    }

    @Test("a named folder, link, unreadable file or folder moved away, or a site that holds a link: read whole")
    func givesUp() throws {
        let last = whole()
        try FileManager.default.createDirectory(at: site.directory.appending(path: "content/posts/later"), withIntermediateDirectories: false)
        #expect(reader.reread(last, changed: ["content/posts/later"]) == nil)
        try FileManager.default.createSymbolicLink(atPath: site.directory.appending(path: "content/posts/p5.md").path, withDestinationPath: "/etc/hostname")
        #expect(reader.reread(last, changed: ["content/posts/p5.md"]) == nil)
        #expect(!whole().patchable)
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/posts/p5.md"))
        try FileManager.default.moveItem(at: site.directory.appending(path: "content/images"), to: site.directory.appending(path: "moved"))
        #expect(reader.reread(last, changed: ["content/images"]) == nil)
        #expect(reader.reread(last, changed: ["content"]) == nil)
        try site.write("content/posts/p2.md", "x")
        chmod(site.directory.appending(path: "content/posts/p2.md").path, 0)
        defer { chmod(site.directory.appending(path: "content/posts/p2.md").path, 0o644) }
        // As root every file reads; elsewhere the unreadable one makes the patch give up.
        if getuid() != 0 { #expect(reader.reread(last, changed: ["content/posts/p2.md"]) == nil) }
    }

    @Test("a named file whose folder became a link out of the site since the last read: read whole, the file outside never read")
    func folderSwappedForALink() throws {
        let last = whole()
        let outside = site.directory.deletingLastPathComponent().appending(path: "outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("---\nid: p2\nauthor: ana\ncreatedAt: 2026-11-20T11:00:00Z\n---\nSecret.\n".utf8).write(to: outside.appending(path: "p2.md"))
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/posts"))
        try FileManager.default.createSymbolicLink(at: site.directory.appending(path: "content/posts"), withDestinationURL: outside)
        #expect(reader.reread(last, changed: ["content/posts/p2.md"]) == nil)
    }

    @Test("a read that found a problem is not patched")
    func problem() throws {
        try FileManager.default.createSymbolicLink(
            atPath: site.directory.appending(path: "content/posts/out.md").path, withDestinationPath: "/etc/hostname")
        let last = whole()
        #expect(!last.diagnostics.isEmpty || !last.snapshot.outsideLinks.isEmpty)
        #expect(!last.patchable)
        #expect(reader.reread(last, changed: ["content/posts.json"]) == nil)
    }
}
