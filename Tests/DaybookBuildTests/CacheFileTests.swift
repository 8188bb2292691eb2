@testable import DaybookBuild
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
        CacheFile.save(Array("payload".utf8), site: site.directory, name: "x")
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20) == Array("payload".utf8))
        let raw = try #require(site.read(".daybook-cache/x"))
        #expect(raw.hasPrefix("daybook-cache ") && raw.hasSuffix("\npayload"))
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 10) == nil)
        try site.write(".daybook-cache/x", "daybook-cache another build\npayload")
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20) == nil)
    }

    @Test("a .daybook-cache that is a symbolic link is neither read nor written through")
    func link() throws {
        let site = try SiteFixture("")
        let elsewhere = try SiteFixture("")
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: ".daybook-cache"), withDestinationURL: elsewhere.directory)
        CacheFile.save(Array("payload".utf8), site: site.directory, name: "x")
        #expect(elsewhere.read("x") == nil)
        // A file put there by hand, with the right identity, is still not read through the link.
        try elsewhere.write("x", String(decoding: CacheFile.identity, as: UTF8.self) + "payload")
        #expect(CacheFile.read(site: site.directory, name: "x", maxBytes: 1 << 20) == nil)
    }
}
