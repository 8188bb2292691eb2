@testable import DaybookCheck
import DaybookModel
import Foundation
import Testing

/// Issue 14: a check reads only the files whose status changed since the last check; the rest
/// take their key, and so their facts, from the status alone.
@Suite("File keys by status")
struct FileKeysTests {
    /// A site in memory whose files have statuses, counting the reads.
    final class StatusSource: CheckSource, @unchecked Sendable {
        var files: [String: [UInt8]]
        var statuses: [String: FileStatus]
        private let lock = NSLock()
        private var readPaths: [String] = []

        init(files: [String: [UInt8]], writtenAt: Int64) {
            self.files = files
            var statuses: [String: FileStatus] = [:]
            for (index, path) in files.keys.sorted().enumerated() {
                statuses[path] = FileStatus(
                    size: Int64(files[path]!.count), modified: writtenAt, changed: writtenAt, inode: UInt64(index + 1), device: 7)
            }
            self.statuses = statuses
        }

        var paths: [String] { Array(files.keys) }
        func bytes(of path: String) -> [UInt8]? {
            lock.withLock { readPaths.append(path) }
            return files[path]
        }
        func status(of path: String) -> FileStatus? { statuses[path] }

        /// The paths read since the last call, sorted.
        func takeReads() -> [String] { lock.withLock { defer { readPaths = [] }; return readPaths.sorted() } }
    }

    static let second: Int64 = 1_000_000_000
    static let hour = 3_600 * second

    /// One run as `daybook check` makes it, starting at `now`: the keys stored last time in, this run's out.
    static func check(_ source: StatusSource, cache: inout PageFactsCache?, now: Int64) async -> CheckReport {
        cache?.start(at: now, folders: FolderListings())
        let report = await SiteChecker().check(source, cache: &cache)
        let archive = cache?.archive ?? []
        let files = FileKeys(archive: cache?.nextFiles.archive[...] ?? [])
        cache = PageFactsCache(archive: archive)
        cache?.files = files
        return report
    }

    @Test("a rerun reads no file; an edited page and a file too recent to trust are read again, and the reports agree")
    func readsOnlyChanged() async throws {
        let files = PageFactsCacheTests.files()
        let source = StatusSource(files: files, writtenAt: 10 * Self.hour)
        var cache: PageFactsCache? = PageFactsCache()
        let first = await Self.check(source, cache: &cache, now: 11 * Self.hour)
        #expect(source.takeReads() == files.keys.filter { $0.hasSuffix(".html") || $0.hasSuffix(".xml") }.sorted())

        let second = await Self.check(source, cache: &cache, now: 12 * Self.hour)
        #expect(source.takeReads() == [])
        #expect(second.diagnostics == first.diagnostics && second.internalLinks == first.internalLinks)

        // One page rewritten with the same size (a new change time), one touched a second before the run.
        let edited = "posts/p1/index.html"
        source.files[edited] = source.files[edited]!.map { $0 == UInt8(ascii: "a") ? UInt8(ascii: "b") : $0 }
        source.statuses[edited]!.changed = 12 * Self.hour + 10 * Self.second
        source.statuses["index.html"]!.modified = 13 * Self.hour - Self.second
        let third = await Self.check(source, cache: &cache, now: 13 * Self.hour)
        #expect(source.takeReads() == ["index.html", edited])
        let fresh = await SiteChecker().check(MemorySource(files: source.files))
        #expect(third.diagnostics == fresh.diagnostics && third.internalLinks == fresh.internalLinks)

        // Stored a second before the last run began, index.html was not settled then: read once more, then trusted.
        _ = await Self.check(source, cache: &cache, now: 14 * Self.hour)
        #expect(source.takeReads() == ["index.html"])
        _ = await Self.check(source, cache: &cache, now: 15 * Self.hour)
        #expect(source.takeReads() == [])
    }

    @Test("a key is given only for its path and its very status, settled before the run that stored it")
    func keyRules() {
        var keys = FileKeys(checkedAt: 10 * Self.hour)
        let status = FileStatus(size: 10, modified: Self.hour, changed: Self.hour, inode: 3, device: 1)
        keys.set("a.html", status: status, key: 42)
        #expect(keys.key("a.html", status: status) == 42)
        #expect(keys.key("b.html", status: status) == nil)
        for change in [\FileStatus.size, \.modified, \.changed] as [WritableKeyPath<FileStatus, Int64>] {
            var other = status
            other[keyPath: change] += 1
            #expect(keys.key("a.html", status: other) == nil)
        }
        for change in [\FileStatus.inode, \.device] as [WritableKeyPath<FileStatus, UInt64>] {
            var other = status
            other[keyPath: change] += 1
            #expect(keys.key("a.html", status: other) == nil)
        }
        var racy = FileKeys(checkedAt: Self.hour + Self.second)
        racy.set("a.html", status: status, key: 42)
        #expect(racy.key("a.html", status: status) == nil)
        #expect(!racy.allSettled && keys.allSettled)
    }

    @Test("the archive reads back whole; cut short or with a count it cannot hold, it is empty")
    func archive() {
        var keys = FileKeys(checkedAt: 5 * Self.hour)
        keys.set("a b/index.html", status: FileStatus(size: 1, modified: 2, changed: 3, inode: 4, device: 5), key: 6)
        keys.set("feed.xml", status: FileStatus(size: -1, modified: 0, changed: 0, inode: .max, device: 0), key: .max)
        keys.folders = FolderListings(takenAt: 7 * Self.hour)
        keys.folders.set("", status: FileStatus(size: 4096, modified: 8, changed: 9, inode: 10, device: 5), value: FolderEntries(files: ["feed.xml"], folders: ["a b"]))
        keys.folders.set("a b", status: FileStatus(size: 4096, modified: 11, changed: 12, inode: 13, device: 5), value: FolderEntries(files: ["index.html"], folders: []))
        let bytes = keys.archive
        #expect(FileKeys(archive: bytes[...]) == keys)
        for cut in [bytes.count - 1, bytes.count - 9, 3, 0] {
            #expect(FileKeys(archive: bytes.prefix(cut)) == FileKeys())
        }
        var huge = bytes
        huge.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(FileKeys(archive: huge[...]) == FileKeys())
        #expect(FileKeys(archive: (bytes + [0])[...]) == FileKeys())

        // Read apart, as `check` reads them (the folders first, for the listing): the same, and
        // neither from an archive cut anywhere after the keys begin.
        #expect(FileKeys.keys(archive: bytes[...]) == keys.keys)
        #expect(FileKeys.folders(archive: bytes[...]) == keys.folders)
        for cut in [bytes.count - 1, bytes.count - 9, 3, 0] {
            #expect(FileKeys.folders(archive: bytes.prefix(cut)) == nil)
        }
        #expect(FileKeys.keys(archive: bytes.prefix(30)) == nil)
        #expect(FileKeys.folders(archive: huge[...]) == nil && FileKeys.keys(archive: huge[...]) == nil)
    }
}
