@testable import DaybookBuild
import DaybookContent
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// The caches in `<site>/.daybook-cache/` only ever save work: one written by another executable,
/// too large, or behind a symbolic link is no cache, and nothing is written through a link.
@Suite("Cache files")
struct CacheFileTests {
    @Test("a saved file reads back without its identity line; another identity, or over the bound, reads as none")
    func identity() throws {
        let site = try SiteFixture("")
        CacheFile.save(site: site.directory, name: "x") { write in write(Array("payload".utf8)[...]) }
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20).map(Array.init) == Array("payload".utf8))
        let raw = try #require(site.read(".daybook-cache/x"))
        #expect(raw.hasPrefix("daybook-cache ") && raw.hasSuffix("\npayload"))
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 10) == nil)
        try site.write(".daybook-cache/x", "daybook-cache another build\npayload")
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20) == nil)
    }

    @Test("pieces of every size, small ones gathered and ones past the write buffer, read back in order")
    func pieces() throws {
        let site = try SiteFixture("")
        let sizes = [3, 0, CacheFile.bufferBytes - 5, 7, CacheFile.bufferBytes * 2 + 1, 1, CacheFile.bufferBytes, 2]
        let pieces = sizes.enumerated().map { index, size in [UInt8](repeating: UInt8(index + 1), count: size) }
        CacheFile.save(site: site.directory, name: "x") { write in pieces.forEach { write($0[...]) } }
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 24).map(Array.init) == pieces.flatMap { $0 })
    }

    @Test("an archive read back is used in place, after the identity line: every entry still decodes")
    func slices() throws {
        let site = try SiteFixture(IndexSite.archive)
        var snapshot = ContentSnapshot()
        for path in ["content/posts.json", "content/users.json", "content/comments.json"] {
            snapshot.sources[path] = Array(try #require(site.read(path)).utf8)
        }
        let cache = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        RecordCacheFile.save(cache, site: site.directory)
        let bytes = try #require(CacheFile.read(site: site.directory, name: RecordCacheFile.name, maxBytes: 1 << 20))
        #expect(bytes.startIndex == CacheFile.identity.count)
        #expect(RecordCache(archive: bytes).decodeEveryEntry() == 3)
        #expect(RecordCacheFile.read(site: site.directory, maxBytes: 1 << 20).decodeEveryEntry() == 3)
    }

    /// Loads three posts with these captions through the records archive on disk, as a build does.
    static func load(_ captions: [String], site: SiteFixture) throws -> LoadedSite {
        var snapshot = ContentSnapshot()
        snapshot.sources["content/users.json"] = Array(#"[{"id": "u"}]"#.utf8)
        for (index, caption) in captions.enumerated() {
            snapshot.sources["content/posts/p\(index).md"] = Array("---\nid: p\(index)\nauthor: u\ncreatedAt: 2026-01-0\(index + 1)T00:00:00Z\n---\n\(caption)\n".utf8)
        }
        let loaded = ContentLoader.load(snapshot, cache: RecordCacheFile.read(site: site.directory, maxBytes: 1 << 20))
        RecordCacheFile.save(try #require(loaded.cache), site: site.directory)
        return loaded
    }

    @Test("an edit adds its file's entry to the records archive; an archive that changed, is cut short or mostly stale is written anew")
    func appended() throws {
        let site = try SiteFixture("")
        let path = ".daybook-cache/" + RecordCacheFile.name
        func bytes() throws -> [UInt8] { Array(try #require(FileManager.default.contents(atPath: site.directory.appending(path: path).path))) }
        _ = try Self.load(["one", "two", "three"], site: site)
        let first = try bytes()

        // One post edited: the archive is the old one and that post's entry after it.
        let edited = try Self.load(["one", "two, edited", "three"], site: site)
        let second = try bytes()
        #expect(second.count > first.count && Array(second.prefix(first.count)) == first)
        let entry = second.count - first.count
        #expect(edited.content.posts.map { $0.caption } == ["one", "two, edited", "three"])
        // Read back, the last entry of each file wins: nothing is decoded anew, and the records are the edit's.
        let again = try Self.load(["one", "two, edited", "three"], site: site)
        #expect(try #require(again.cache).added.isEmpty)
        #expect(again.content.posts.map { $0.caption } == edited.content.posts.map { $0.caption })
        #expect(try bytes() == second)

        // Edits pile up stale entries until they would be half the archive; then it is written anew.
        var sizes: [Int] = []
        for round in 1...4 {
            _ = try Self.load(["one", "two, edited \(round)", "three"], site: site)
            sizes.append(try bytes().count)
        }
        #expect(sizes.first == second.count + entry + 2)  // "two, edited 1" is two bytes longer
        #expect(sizes.contains { $0 < second.count }, "sizes \(sizes), first \(first.count)")

        // Cut short (a build killed while adding): read as no archive, and written whole.
        let whole = try bytes()
        try Data(whole.dropLast(3)).write(to: site.directory.appending(path: path))
        let afterCut = try Self.load(["one", "two, edited 4", "three"], site: site)
        let rewritten = try #require(afterCut.cache)
        #expect(rewritten.added.count == 4)  // users.json and the three posts, all decoded again
        #expect(try bytes().count == CacheFile.identity.count + rewritten.liveBytes)

        // Written by another build since it was read: not added to, written anew.
        let stale = RecordCacheFile.read(site: site.directory, maxBytes: 1 << 20)
        _ = try Self.load(["one", "two", "three, edited"], site: site)
        var snapshot = ContentSnapshot()
        snapshot.sources["content/users.json"] = Array(#"[{"id": "u"}]"#.utf8)
        snapshot.sources["content/posts/p0.md"] = Array("---\nid: p0\nauthor: u\ncreatedAt: 2026-01-01T00:00:00Z\n---\nzero\n".utf8)
        let late = try #require(ContentLoader.load(snapshot, cache: stale).cache)
        RecordCacheFile.save(late, site: site.directory)
        #expect(RecordCacheFile.read(site: site.directory, maxBytes: 1 << 20).decodeEveryEntry(path: "content/posts/p0.md") == 2)
    }

    @Test("a save removes the temporaries killed saves of that cache left, and only those")
    func leftovers() throws {
        let site = try SiteFixture("""
            -- .daybook-cache/x.tmp-4242 --
            cut short
            -- .daybook-cache/x.tmp-1 --
            cut short
            -- .daybook-cache/y.tmp-4242 --
            another cache's
            -- .daybook-cache/x --
            old
            """)
        CacheFile.save(site: site.directory, name: "x") { write in write(Array("new".utf8)[...]) }
        let names = try FileManager.default.contentsOfDirectory(atPath: site.directory.appending(path: ".daybook-cache").path).sorted()
        #expect(names == ["x", "y.tmp-4242"])
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20).map(Array.init) == Array("new".utf8))
    }

    @Test("a .daybook-cache that is a symbolic link is neither read nor written through")
    func link() throws {
        let site = try SiteFixture("")
        let elsewhere = try SiteFixture("")
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: ".daybook-cache"), withDestinationURL: elsewhere.directory)
        CacheFile.save(site: site.directory, name: "x") { write in write(Array("payload".utf8)[...]) }
        #expect(elsewhere.read("x") == nil)
        // A file put there by hand, with the right identity, is still not read through the link.
        try elsewhere.write("x", String(decoding: CacheFile.identity, as: UTF8.self) + "payload")
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20) == nil)
    }
}
