@testable import DaybookBuild
import DaybookIncremental
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// The caches in `<site>/.daybook-cache/` only ever save work: one written by another executable,
/// too large, or behind a symbolic link is no cache, and nothing is written through a link.
@Suite("Cache files")
struct CacheFileTests {
    /// The bytes of the cache file `name` after its identity line, as `MemoFile.open` reads it;
    /// `nil` when it reads as no cache.
    static func read(_ site: SiteFixture, _ name: String, maxBytes: Int = 1 << 24) -> [UInt8]? {
        MemoFile.open(site: site.directory, name: name, maxBytes: maxBytes).flatMap { file in file.read(0, file.count).map(Array.init) }
    }

    @Test("a saved file reads back without its identity line; another identity, or over the bound, reads as none")
    func identity() throws {
        let site = try SiteFixture("")
        CacheFile.save(site: site.directory, name: "x") { write in write(Array("payload".utf8)[...]) }
        #expect(Self.read(site, "x") == Array("payload".utf8))
        let raw = try #require(site.read(".daybook-cache/x"))
        #expect(raw.hasPrefix("daybook-cache ") && raw.hasSuffix("\npayload"))
        #expect(Self.read(site, "x", maxBytes: 10) == nil)
        try site.write(".daybook-cache/x", "daybook-cache another build\npayload")
        #expect(Self.read(site, "x") == nil)
    }

    @Test("pieces of every size, small ones gathered and ones past the write buffer, read back in order")
    func pieces() throws {
        let site = try SiteFixture("")
        let sizes = [3, 0, GatheredWrites.bufferBytes - 5, 7, GatheredWrites.bufferBytes * 2 + 1, 1, GatheredWrites.bufferBytes, 2]
        let pieces = sizes.enumerated().map { index, size in [UInt8](repeating: UInt8(index + 1), count: size) }
        CacheFile.save(site: site.directory, name: "x") { write in pieces.forEach { write($0[...]) } }
        #expect(Self.read(site, "x") == pieces.flatMap { $0 })
    }

    @Test("a cache is read by position after its identity line: every value of the memo reads")
    func slices() throws {
        let site = try SiteFixture("")
        var table = MemoTable()
        let step = MemoStep("test")
        for id in 0..<3 { table.store(step, UInt64(id), version: 1, value: Array("value \(id)".utf8)) }
        #expect(CacheFile.save(site: site.directory, name: "memo") { table.prepared().whole($0) } == nil)
        let file = try #require(MemoFile.open(site: site.directory, name: "memo", maxBytes: 1 << 20))
        let size = try Data(contentsOf: site.directory.appending(path: ".daybook-cache/memo")).count
        #expect(file.count == size - CacheFile.identity.count)
        let read = MemoTable(storage: file)
        #expect((0..<3).map { read.value(step, UInt64($0), version: 1).map { String(decoding: $0, as: UTF8.self) } } == ["value 0", "value 1", "value 2"])
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
        #expect(Self.read(site, "x") == Array("new".utf8))
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
        #expect(Self.read(site, "x") == nil)
    }
}
