import DaybookBuild
@testable import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// A cold check takes each file's status from the open file rather than from a separate look.
@Suite("daybook check: statuses on disk")
struct FolderSourceTests {
    @Test("a cold check stores every page's status as lstat gives it, so the next check reads none; a link is not read")
    func statusFromOpenFile() async throws {
        let folder = try LeftoverFolderTests.cleanSite("daybook-statuses")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = FolderSource(directory: folder)
        var cache: PageFactsCache? = PageFactsCache()
        // As if the check ran a minute after the files were written, so every status is settled.
        cache?.start(at: FileInfo.realtimeNanoseconds() + 60_000_000_000, folders: source.listings)
        let report = await SiteChecker().check(source, cache: &cache)
        #expect(report.diagnostics.isEmpty)
        let pages = source.paths.filter { $0.hasSuffix(".html") }.sorted()
        #expect(pages.count >= 3)
        let stored = try pages.filter { path in
            cache?.nextFiles.key(path, status: try #require(source.status(of: path))) != nil
        }
        #expect(stored == pages)

        try FileManager.default.createSymbolicLink(atPath: folder.appending(path: "linked.html").path, withDestinationPath: pages[0])
        #expect(source.bytesAndStatus(of: "linked.html") == nil)
        #expect(source.bytesAndStatus(of: pages[0])?.status == source.status(of: pages[0]))
    }
}
