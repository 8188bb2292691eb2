@testable import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 39: `daybook check` after an edit takes the verdict on each file whose bytes, whose
/// folder's files and whose links' target ids are as they were, instead of resolving its links
/// again. Each test plants a mark in one cached verdict: the mark is reported while the verdict
/// is taken, and goes when the verdict is reached again.
@Suite("Check verdicts in the facts cache")
struct FileVerdictTests {
    static let base = "https://example.org/blog/"
    static let mark = "planted in the cached verdict"

    /// The clean fixture with `edits`, checked once with a cache; the cache as the run left it.
    static func checked(_ edits: [String: String?] = [:]) async -> (files: [String: [UInt8]], cache: PageFactsCache?) {
        let files = PageFactsCacheTests.files(edits)
        var cache: PageFactsCache? = PageFactsCache()
        _ = await SiteChecker().check(MemorySource(files: files), cache: &cache)
        return (files, cache)
    }

    /// Adds the mark to the verdict the run left on `path` (a page or feed, keyed by `facts`).
    static func plant(on path: String, facts: UInt64, files: [String: [UInt8]], cache: inout PageFactsCache?) throws {
        let context = FileVerdict.context(baseURL: base, files: Set(files.keys), unread: [])
        let key = FileVerdict.key(context: context, path: path, facts: facts)
        let stored = try #require(cache).archive
        var verdict = try #require(PageFactsCache(archive: stored).verdict(key), "no verdict on \(path) under the key the check uses")
        verdict.diagnostics.append(.error(mark, at: SourceLocation(path: path)))
        cache?.use(verdict, key: key, cached: false)
    }

    static func plantOnPage(_ path: String, files: [String: [UInt8]], cache: inout PageFactsCache?) throws {
        let bytes = try #require(files[path])
        try plant(on: path, facts: PageFactsCache.key(bytes), files: files, cache: &cache)
    }

    /// The cache as the next run reads it: through its archive.
    static func saved(_ cache: PageFactsCache?) throws -> PageFactsCache? {
        PageFactsCache(archive: try #require(cache).archive)
    }

    static func marked(_ report: CheckReport) -> [String] {
        report.diagnostics.filter { $0.message == mark }.map(\.location.path)
    }

    @Test("a page's verdict is taken while nothing it read changed, through two runs")
    func taken() async throws {
        var (files, cache) = await Self.checked()
        try Self.plantOnPage("index.html", files: files, cache: &cache)
        cache = try Self.saved(cache)
        let first = await PageFactsCacheTests.check(files, cache: &cache)
        let second = await PageFactsCacheTests.check(files, cache: &cache)
        #expect(Self.marked(first) == ["index.html"])
        #expect(Self.marked(second) == ["index.html"])
        #expect(second.internalLinks == 11 && second.externalLinks == ["https://elsewhere.example/"])
        #expect(try #require(cache).changed == false)
    }

    @Test("a verdict goes when the page's bytes change, and only that page's")
    func pageEdited() async throws {
        var (files, cache) = await Self.checked()
        try Self.plantOnPage("index.html", files: files, cache: &cache)
        try Self.plantOnPage("café/index.html", files: files, cache: &cache)
        cache = try Self.saved(cache)
        files["café/index.html"]! += Array("\n".utf8)
        let report = await PageFactsCacheTests.check(files, cache: &cache)
        #expect(Self.marked(report) == ["index.html"])
    }

    @Test("a link to page#id is judged again when the target's ids change, not when its other bytes do")
    func targetIds() async throws {
        var (files, cache) = await Self.checked()
        try Self.plantOnPage("index.html", files: files, cache: &cache)
        cache = try Self.saved(cache)
        // The post's text changes, its ids do not: index.html's link to posts/p1/#c1 holds.
        let post = "posts/p1/index.html"
        files[post] = Array(String(decoding: files[post]!, as: UTF8.self).replacingOccurrences(of: ">Hi<", with: ">Hello<").utf8)
        let kept = await PageFactsCacheTests.check(files, cache: &cache)
        #expect(Self.marked(kept) == ["index.html"])
        // The id goes: the link is judged again, and is broken.
        files[post] = Array(String(decoding: files[post]!, as: UTF8.self).replacingOccurrences(of: "id=\"c1\"", with: "id=\"c2\"").utf8)
        let judged = await PageFactsCacheTests.check(files, cache: &cache)
        let fresh = await SiteChecker().check(MemorySource(files: files))
        #expect(Self.marked(judged) == [])
        #expect(judged.diagnostics == fresh.diagnostics)
        #expect(judged.diagnostics.map(\.description) == [
            "index.html:4:45: error: link to posts/p1/#c1: posts/p1/index.html has no element with id 'c1'"
        ])
    }

    @Test("every verdict goes when a file comes or goes, or the base URL changes")
    func context() async throws {
        var (files, cache) = await Self.checked()
        try Self.plantOnPage("index.html", files: files, cache: &cache)
        cache = try Self.saved(cache)
        files["images/b.png"] = Array("png".utf8)
        #expect(Self.marked(await PageFactsCacheTests.check(files, cache: &cache)) == [])

        (files, cache) = await Self.checked()
        try Self.plantOnPage("index.html", files: files, cache: &cache)
        cache = try Self.saved(cache)
        var report = await SiteChecker(baseURL: "https://example.org/blog/").check(MemorySource(files: files), cache: &cache)
        #expect(Self.marked(report) == ["index.html"])
        report = await SiteChecker(baseURL: "https://example.org/").check(MemorySource(files: files), cache: &cache)
        #expect(Self.marked(report) == [])
        #expect(report.diagnostics.count > 0, "under another base URL the site's links leave it")
    }

    @Test("a feed's verdict holds while its links do, whatever else of it changes; so does the sitemap's")
    func xml() async throws {
        var (files, cache) = await Self.checked()
        let table = try #require(cache).table
        func summary(_ path: String) throws -> XMLSummary {
            let bytes = try #require(files[path])
            return try #require(Self.saved(cache)?.summary(PageFactsCache.key(bytes)))
        }
        let feed = try summary("feed.xml")
        try Self.plant(on: "feed.xml", facts: feed.key(of: [feed.feedLinks], table: table), files: files, cache: &cache)
        let sitemap = try summary("sitemap.xml")
        try Self.plant(on: "sitemap.xml", facts: SiteChecker.sitemapsKey(["sitemap.xml": sitemap, "feed.xml": feed], table: table), files: files, cache: &cache)
        cache = try Self.saved(cache)
        // A new title and date in the feed, the same links: the verdict holds.
        files["feed.xml"] = Array(String(decoding: files["feed.xml"]!, as: UTF8.self).replacingOccurrences(of: "<title>E</title>", with: "<title>Edited</title>").utf8)
        #expect(Self.marked(await PageFactsCacheTests.check(files, cache: &cache)) == ["feed.xml", "sitemap.xml"])
        // A link added: the feed is judged again.
        files["feed.xml"] = Array(String(decoding: files["feed.xml"]!, as: UTF8.self).replacingOccurrences(of: "<title>Edited</title>", with: "<title>Edited</title><link href=\"https://example.org/blog/gone/\"/>").utf8)
        let judged = await PageFactsCacheTests.check(files, cache: &cache)
        #expect(Self.marked(judged) == ["sitemap.xml"])
        #expect(judged.diagnostics.filter { $0.message != Self.mark }.map(\.description) == ["feed.xml:6:29: error: link to https://example.org/blog/gone/ does not resolve"])

        // A date added after a URL moves none: the verdict holds.
        let dated = String(decoding: files["sitemap.xml"]!, as: UTF8.self)
            .replacingOccurrences(of: "caf%C3%A9/</loc>", with: "caf%C3%A9/</loc><lastmod>2026-11-28</lastmod>")
        files["sitemap.xml"] = Array(dated.utf8)
        #expect(Self.marked(await PageFactsCacheTests.check(files, cache: &cache)) == ["sitemap.xml"])
        // A URL goes: the sitemap is judged again.
        files["sitemap.xml"] = Array(dated.replacingOccurrences(of: "<url><loc>https://example.org/blog/posts/p1/</loc></url>\n", with: "").utf8)
        let unlisted = await PageFactsCacheTests.check(files, cache: &cache)
        #expect(Self.marked(unlisted) == [])
        #expect(unlisted.sitemapURLs == 2)
        #expect(unlisted.diagnostics.map(\.description).contains("posts/p1/index.html:1:1: error: the page is not in sitemap.xml"))
    }
}

extension FileVerdictTests {
    @Test("pages taken for their ids alone keep their links when the archive is compacted, and are judged by them later")
    func compactedKeepsLinks() async throws {
        var pages: [String: String?] = [:]
        func page(_ n: Int, title: String) -> String {
            "<!doctype html>\n<html lang=\"en\"><head><title>\(title)</title></head><body><a id=\"a\(n)\" href=\"/blog/extra/\(n % 30 + 1)/#a\(n % 30 + 1)\">next</a><a href=\"/blog/gone/\">gone</a></body></html>\n"
        }
        for n in 1...30 { pages["extra/\(n)/index.html"] = page(n, title: "P\(n)") }
        var cache: PageFactsCache? = PageFactsCache()
        var files = PageFactsCacheTests.files(pages)
        _ = await PageFactsCacheTests.check(files, cache: &cache)
        // Most pages change: the archive is written compacted, ten pages carried from the last one.
        for n in 1...20 { pages["extra/\(n)/index.html"] = page(n, title: "Edited \(n)") }
        files = PageFactsCacheTests.files(pages)
        var compacted: [UInt8] = []
        _ = await PageFactsCacheTests.check(files, cache: &cache, saved: &compacted)
        #expect(!String(decoding: compacted, as: UTF8.self).contains("P5"), "the archive was appended to, not compacted")
        // A file comes: every page is judged again, the carried ones by the links the archive kept.
        files["images/new.png"] = Array("png".utf8)
        let judged = await PageFactsCacheTests.check(files, cache: &cache)
        let fresh = await SiteChecker().check(MemorySource(files: files))
        #expect(judged.diagnostics == fresh.diagnostics)
        #expect(judged.internalLinks == fresh.internalLinks)
        #expect(judged.diagnostics.filter { $0.message.contains("/blog/gone/") }.count == 30)
    }
}
