@testable import DaybookCheck
import DaybookModel
import Testing

/// `daybook check` writes its cache again only once what the saved one lacks is worth the write
/// (`PageFactsCache.unsavedShare`); a check from a cache left as it was reports what a fresh one does.
@Suite("Check cache, saved when worth it")
struct CacheSavingTests {
    typealias Source = FileKeysTests.StatusSource
    static let hour = FileKeysTests.hour

    /// The clean site and 600 pages more, each linking the next by id.
    static func files() -> [String: [UInt8]] {
        var pages: [String: String?] = [:]
        for n in 1...600 {
            pages["extra/\(n)/index.html"] = page(n, title: "P\(n)")
        }
        return PageFactsCacheTests.files(pages)
    }

    static func page(_ n: Int, title: String) -> String {
        "<!doctype html>\n<html lang=\"en\"><head><title>\(title)</title></head><body><a id=\"a\(n)\" href=\"/blog/extra/\(n % 600 + 1)/#a\(n % 600 + 1)\">next</a></body></html>\n"
    }

    /// What a check saved: its facts and its files' keys, as the archives hold them.
    struct Saved {
        var facts: [UInt8]
        var files: [UInt8]

        var cache: PageFactsCache {
            var cache = PageFactsCache(archive: facts)
            cache.files = FileKeys(archive: files[...])
            return cache
        }
    }

    /// One check at `now` from `saved`; the cache it leaves.
    static func check(_ source: Source, from saved: Saved?, now: Int64) async -> (report: CheckReport, cache: PageFactsCache) {
        var cache: PageFactsCache? = saved?.cache ?? PageFactsCache()
        cache?.start(at: now, folders: FolderListings())
        let report = await SiteChecker().check(source, cache: &cache)
        return (report, cache!)
    }

    static func edit(_ source: Source, page n: Int, at time: Int64) {
        let path = "extra/\(n)/index.html"
        source.files[path] = Array(page(n, title: "Edited \(n)").utf8)
        source.statuses[path]!.size = Int64(source.files[path]!.count)
        source.statuses[path]!.changed = time
        source.statuses[path]!.modified = time
    }

    @Test("after a one-page edit neither file is written, the next check reads that page alone again, and once six have changed both are written; every report is a fresh check's")
    func savedWhenWorthIt() async throws {
        let source = Source(files: Self.files(), writtenAt: 10 * Self.hour)
        let cold = await Self.check(source, from: nil, now: 11 * Self.hour)
        #expect(cold.cache.worthSaving && cold.cache.filesWorthSaving)
        let saved = Saved(facts: cold.cache.archive, files: cold.cache.nextFiles.archive)
        _ = source.takeReads()

        Self.edit(source, page: 7, at: 11 * Self.hour + 60 * FileKeysTests.second)
        let edited = await Self.check(source, from: saved, now: 12 * Self.hour)
        #expect(source.takeReads() == ["extra/7/index.html"])
        #expect(edited.cache.changed && edited.cache.filesChanged)
        #expect(!edited.cache.worthSaving && !edited.cache.filesWorthSaving)
        let fresh = await SiteChecker().check(MemorySource(files: source.files))
        #expect(edited.report.diagnostics == fresh.diagnostics && edited.report.internalLinks == fresh.internalLinks)

        // Left unsaved: the next check reads the edited page again, and no other.
        let again = await Self.check(source, from: saved, now: 13 * Self.hour)
        #expect(source.takeReads() == ["extra/7/index.html"])
        #expect(again.report.diagnostics == fresh.diagnostics && !again.cache.worthSaving)

        for n in [100, 200, 300, 400, 500] { Self.edit(source, page: n, at: 13 * Self.hour + 60 * FileKeysTests.second) }
        let six = await Self.check(source, from: saved, now: 14 * Self.hour)
        #expect(source.takeReads().count == 6)
        #expect(six.cache.worthSaving && six.cache.filesWorthSaving)
        let freshSix = await SiteChecker().check(MemorySource(files: source.files))
        #expect(six.report.diagnostics == freshSix.diagnostics && six.report.internalLinks == freshSix.internalLinks)

        // Saved then, the check after reads nothing, and has nothing worth saving.
        let after = await Self.check(source, from: Saved(facts: six.cache.archive, files: six.cache.nextFiles.archive), now: 15 * Self.hour)
        #expect(source.takeReads() == [])
        #expect(!after.cache.changed && !after.cache.worthSaving && !after.cache.filesWorthSaving)
    }

    @Test("a file stored too recently to trust counts as changed: a save that would make it trusted is written once enough are")
    func unsettledCount() async throws {
        let source = Source(files: Self.files(), writtenAt: 10 * Self.hour)
        // Stored a second after they were written: none is settled, every one would be read again.
        let cold = await Self.check(source, from: nil, now: 10 * Self.hour + FileKeysTests.second)
        let saved = Saved(facts: cold.cache.archive, files: cold.cache.nextFiles.archive)
        let next = await Self.check(source, from: saved, now: 11 * Self.hour)
        #expect(!next.cache.changed && next.cache.filesChanged)
        #expect(next.cache.filesWorthSaving)
    }
}
