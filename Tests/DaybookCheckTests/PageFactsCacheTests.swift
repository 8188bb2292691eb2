@testable import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Testing

/// Issue 14: page facts cached by the page's bytes. A check from the cache must report what a
/// check from scratch reports, and links must be resolved against the files as they are now.
@Suite("Page facts cache")
struct PageFactsCacheTests {
    static func files(_ edits: [String: String?] = [:]) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for (path, text) in SiteFixture.parse(SiteCheckerTests.clean) { files[path] = Array(text.utf8) }
        for (path, text) in edits { files[path] = text.map { Array($0.utf8) } }
        return files
    }

    /// Checks `files` with the cache, as `daybook check` does between runs: through its archive.
    static func check(_ files: [String: [UInt8]], cache: inout PageFactsCache?) async -> CheckReport {
        var saved: [UInt8] = []
        return await check(files, cache: &cache, saved: &saved)
    }

    static func check(_ files: [String: [UInt8]], cache: inout PageFactsCache?, saved: inout [UInt8]) async -> CheckReport {
        let report = await SiteChecker().check(MemorySource(files: files), cache: &cache)
        saved = cache?.archive ?? []
        cache = PageFactsCache(archive: saved)
        return report
    }

    static let broken: [String: String?] = [
        "posts/p1/index.html": """
            <!doctype html>
            <html lang="en"><head><title>Post</title><title>Two</title></head>
            <body><article id="c1">Hi</article><p id="c1"><img src="/blog/images/b.png"><a href="/blog/#nowhere">x</a></body></html>
            """
    ]

    @Test("a cached check equals a fresh one, clean or broken, and a rerun parses nothing")
    func equal() async throws {
        var cache: PageFactsCache? = PageFactsCache()
        let first = await Self.check(Self.files(), cache: &cache)
        let second = await Self.check(Self.files(), cache: &cache)
        #expect(first.diagnostics.isEmpty && second.diagnostics.isEmpty && second.internalLinks == first.internalLinks)
        #expect(try #require(cache).changed == false)

        let fresh = await SiteChecker().check(MemorySource(files: Self.files(Self.broken)))
        let cached = await Self.check(Self.files(Self.broken), cache: &cache)
        let again = await Self.check(Self.files(Self.broken), cache: &cache)
        #expect(fresh.diagnostics.count == 5)
        #expect(cached.diagnostics == fresh.diagnostics)
        #expect(again.diagnostics == fresh.diagnostics)
    }

    @Test("the archive's length is told before its first byte, whether carried over or made anew")
    func reservedLength() async throws {
        var cache: PageFactsCache? = PageFactsCache()
        // A first check, an edit (most entries carried over), and a rerun.
        for files in [Self.files(), Self.files(Self.broken), Self.files(Self.broken)] {
            _ = await SiteChecker().check(MemorySource(files: files), cache: &cache)
            var told: [Int] = []
            var streamed: [UInt8] = []
            try #require(cache).writeArchive(reserving: { told.append($0) }) {
                #expect(told.count == 1, "the length comes first")
                streamed += $0
            }
            #expect(told == [streamed.count])
            #expect(streamed == cache?.archive)
            cache = PageFactsCache(archive: streamed)
            #expect(try #require(cache).readEveryEntry() > 3)
        }
    }

    @Test("after a small edit the archive keeps the old entries and appends; it reads back as a fresh check")
    func appended() async throws {
        var pages: [String: String?] = [:]
        for n in 1...30 {
            pages["extra/\(n)/index.html"] = "<!doctype html>\n<html lang=\"en\"><head><title>P\(n)</title></head><body><a id=\"a\(n)\" href=\"/blog/extra/\(n % 30 + 1)/#a\(n % 30 + 1)\">next</a></body></html>\n"
        }
        var cache: PageFactsCache? = PageFactsCache()
        var first: [UInt8] = []
        _ = await Self.check(Self.files(pages), cache: &cache, saved: &first)
        pages["extra/7/index.html"] = "<!doctype html>\n<html lang=\"en\"><head><title>Seven</title></head><body><a href=\"/blog/extra/99/\">gone</a><a href=\"#nope\">x</a></body></html>\n"
        var second: [UInt8] = []
        let edited = await Self.check(Self.files(pages), cache: &cache, saved: &second)
        let fresh = await SiteChecker().check(MemorySource(files: Self.files(pages)))
        let reread = await Self.check(Self.files(pages), cache: &cache)
        #expect(edited.diagnostics == fresh.diagnostics)
        #expect(reread.diagnostics == fresh.diagnostics)
        #expect(fresh.diagnostics.map(\.description).filter { $0.hasPrefix("extra/7/") } == [
            "extra/7/index.html:1:1: error: the page is not in sitemap.xml",
            "extra/7/index.html:2:64: error: link to /blog/extra/99/ does not resolve",
            "extra/7/index.html:2:98: error: link to #nope: extra/7/index.html has no element with id 'nope'",
        ])
        // Appended, not rebuilt: the old archive's bytes up to its last entry are kept (its strings
        // "P7" and "/blog/extra/8/#a8" stay in the table although no page uses them now).
        #expect(String(decoding: second, as: UTF8.self).contains("/blog/extra/8/#a8"))
        #expect(second.count > first.count)
    }

    @Test("an unchanged page's links are resolved against today's files: a target that went is reported")
    func resolvedEachRun() async throws {
        var cache: PageFactsCache? = PageFactsCache()
        _ = await Self.check(Self.files(), cache: &cache)
        let report = await Self.check(Self.files(["images/a.png": nil]), cache: &cache)
        #expect(report.diagnostics.map(\.description) == [
            "index.html:5:10: error: link to /blog/images/a.png does not resolve",
            "index.html:5:46: error: link to /blog/images/a.png does not resolve",
            "index.html:5:46: error: link to images/a.png does not resolve",
        ])
    }

    @Test("feeds and the sitemap come from the cache as they were checked, and sitemap URLs are resolved against today's files")
    func xmlFromCache() async throws {
        let thinFeed = """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><id>x</id><updated>yesterday</updated>
            <link rel="self" href="https://example.org/blog/feed.xml"/>
            <entry><title>E</title></entry>
            </feed>
            """
        let edits: [String: String?] = ["feed.xml": thinFeed, "cut.xml": "<?xml version=\"1.0\"?>\n<feed><title>T"]
        var cache: PageFactsCache? = PageFactsCache()
        let first = await Self.check(Self.files(edits), cache: &cache)
        let second = await Self.check(Self.files(edits), cache: &cache)
        #expect(try #require(cache).changed == false)
        #expect(first.diagnostics.count == 5)
        #expect(second.diagnostics == first.diagnostics)
        #expect(second.feeds == first.feeds && second.sitemapURLs == 3)
        // The sitemap's bytes are the same, so its summary comes from the cache; the page it lists is gone.
        var gone = edits
        gone["posts/p1/index.html"] = String?.none
        let fresh = await SiteChecker().check(MemorySource(files: Self.files(gone)))
        let cached = await Self.check(Self.files(gone), cache: &cache)
        #expect(cached.diagnostics == fresh.diagnostics)
        #expect(cached.diagnostics.map(\.description).contains("sitemap.xml:5:6: error: sitemap URL https://example.org/blog/posts/p1/ has no page in the folder"))
    }

    @Test("a damaged archive is an empty cache, and a damaged entry is parsed again")
    func damaged() async throws {
        var cache: PageFactsCache? = PageFactsCache()
        _ = await Self.check(Self.files(Self.broken), cache: &cache)
        let archive = try #require(cache).archive
        let fresh = await SiteChecker().check(MemorySource(files: Self.files(Self.broken)))
        for cut in [0, 5, 3, archive.count / 2, archive.count - 1] {
            var damaged: PageFactsCache? = PageFactsCache(archive: Array(archive.prefix(cut)))
            let report = await SiteChecker().check(MemorySource(files: Self.files(Self.broken)), cache: &damaged)
            #expect(report.diagnostics == fresh.diagnostics, "cut at \(cut)")
        }
        // Flipped bytes may turn a cached string into another; they must never crash or hang.
        for offset in stride(from: 0, to: archive.count, by: 7) {
            var flipped = archive
            flipped[offset] ^= 0xA5
            var damaged: PageFactsCache? = PageFactsCache(archive: flipped)
            _ = await SiteChecker().check(MemorySource(files: Self.files(Self.broken)), cache: &damaged)
        }
    }
}
