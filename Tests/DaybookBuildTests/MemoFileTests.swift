@testable import DaybookBuild
import DaybookIncremental
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// The memo's file in `.daybook-cache/`: a save appends what its build made to the file it was
/// read from, in place; a failed append leaves the save before; a file replaced since it was
/// read, or one worth compacting, is written fresh.
@Suite("Memo file")
struct MemoFileTests {
    static let step = MemoStep("test.values")
    static let big = [UInt8](repeating: 1, count: 200_000)

    struct Status: Equatable {
        var size: Int
        var inode: UInt64
    }

    static func status(_ site: URL) -> Status? {
        var info = stat()
        guard lstat(MemoFile.path(site: site, name: MemoPlace.cacheName), &info) == 0 else { return nil }
        return Status(size: Int(info.st_size), inode: UInt64(info.st_ino))
    }

    /// A memo of two values, saved fresh.
    static func saved() throws -> (SiteFixture, MemoPlace) {
        let site = try SiteFixture("")
        let place = MemoPlace.site(site.directory, faults: .none)
        var table = place.load()
        table.store(step, 1, version: 1, value: big)
        table.store(step, 2, version: 1, value: Array("tram".utf8))
        #expect(place.save(place.kept(table)) == nil)
        return (site, place)
    }

    static func values(_ table: MemoTable) -> [String?] {
        (1...3).map { id in table.value(step, UInt64(id), version: 1).map { $0.count > 100 ? "big" : String(decoding: $0, as: UTF8.self) } }
    }

    @Test("a save appends to the file it read, in place: the new value, an index and a trailer; the next build reads every value")
    func appends() throws {
        let (site, place) = try Self.saved()
        let before = try #require(Self.status(site.directory))
        var table = place.load()
        #expect(Self.values(table) == ["big", "tram", nil])
        table.store(Self.step, 3, version: 1, value: Array("harbour".utf8))
        #expect(place.save(place.kept(table)) == nil)
        let after = try #require(Self.status(site.directory))
        #expect(after.inode == before.inode, "appended in place, not written anew")
        #expect(after.size == before.size + 7 + 3 * 48 + 32)
        #expect(Self.values(place.load()) == ["big", "tram", "harbour"])
    }

    @Test("a failed append is cut back: the build reports it, and the save before stands")
    func failedAppend() throws {
        let (site, _) = try Self.saved()
        let before = try #require(Self.status(site.directory))
        let failing = MemoPlace.site(site.directory, faults: WriteFaults { $0 == .cache("memo") ? ENOSPC : nil })
        var table = failing.load()
        table.store(Self.step, 3, version: 1, value: Array("harbour".utf8))
        let failure = try #require(failing.save(failing.kept(table)))
        #expect(failure.location.path == ".daybook-cache/memo")
        #expect(failure.message.hasPrefix("cannot write the cache: No space left on device"))
        #expect(Self.status(site.directory) == before)
        #expect(Self.values(MemoPlace.site(site.directory, faults: .none).load()) == ["big", "tram", nil])
    }

    @Test("two builds that read the same file append one after the other; the last one's table is read")
    func twoSaves() throws {
        let (_, place) = try Self.saved()
        var first = place.load()
        var second = place.load()
        first.store(Self.step, 3, version: 1, value: Array("first".utf8))
        second.store(Self.step, 3, version: 1, value: Array("second".utf8))
        #expect(place.save(place.kept(first)) == nil)
        #expect(place.save(place.kept(second)) == nil)
        #expect(Self.values(place.load()) == ["big", "tram", "second"])
    }

    @Test("a file replaced since the build read it is written anew, its carried values read from the file the build opened")
    func replaced() throws {
        let (site, place) = try Self.saved()
        var table = place.load()
        // Another build puts a fresh memo in its place.
        var other = MemoTable()
        other.store(Self.step, 9, version: 1, value: [9])
        #expect(place.save(place.kept(other)) == nil)
        let between = try #require(Self.status(site.directory))
        table.store(Self.step, 3, version: 1, value: Array("harbour".utf8))
        #expect(place.save(place.kept(table)) == nil)
        #expect(try #require(Self.status(site.directory)).inode != between.inode)
        let read = place.load()
        #expect(Self.values(read) == ["big", "tram", "harbour"])
        #expect(read.value(Self.step, 9, version: 1) == nil)
    }

    @Test("once dead values outweigh the live ones and a MB, the save writes a fresh file no larger than the live values")
    func compacts() throws {
        let (site, place) = try Self.saved()
        var sizes: [Int] = []
        for version in 2...12 {
            var table = place.load()
            table.store(Self.step, 1, version: UInt64(version), value: Self.big)
            #expect(place.save(place.kept(table)) == nil)
            sizes.append(try #require(Self.status(site.directory)).size)
        }
        // 200 KB live: appends until 200 KB × 2 and a MB would be passed, then fresh.
        let fresh = sizes.enumerated().filter { $0.offset > 0 && $0.element < sizes[$0.offset - 1] }.map(\.offset)
        #expect(!fresh.isEmpty)
        #expect(sizes.allSatisfy { $0 < 2 * 200_000 + (1 << 20) + 1_000 })
        #expect(place.load().value(Self.step, 1, version: 12).map(Array.init) == Self.big)
    }

    @Test("a link in place of the memo is not followed: nothing is read through it, and a save replaces the link, not its target")
    func link() throws {
        let site = try SiteFixture("")
        let outside = SiteFixture.temporaryFolder("memo-outside").appending(path: "target")
        let bytes = try #require(FileManager.default.contents(atPath: try Self.savedPath()))
        try bytes.write(to: outside)
        try FileManager.default.createDirectory(at: site.directory.appending(path: ".daybook-cache"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: MemoFile.path(site: site.directory, name: MemoPlace.cacheName), withDestinationPath: outside.path)
        let place = MemoPlace.site(site.directory, faults: .none)
        var table = place.load()
        #expect(Self.values(table) == [nil, nil, nil])
        table.store(Self.step, 3, version: 1, value: Array("harbour".utf8))
        #expect(place.save(place.kept(table)) == nil)
        #expect(try FileManager.default.contents(atPath: outside.path) == bytes)
        #expect(Self.values(place.load()) == [nil, nil, "harbour"])
    }

    /// The names in the site's cache folder.
    static func cacheNames(_ site: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: site.appending(path: ".daybook-cache").path)) ?? []).sorted()
    }

    @Test("without a memo to read, results are written as they are stored, read back from there, and the save puts that file in place")
    func spills() throws {
        let site = try SiteFixture("")
        let place = MemoPlace.site(site.directory, faults: .none)
        var table = place.load()
        #expect(table.spill != nil)
        let huge = [UInt8](repeating: 2, count: 1_500_000)
        table.store(Self.step, 1, version: 1, value: huge)
        table.store(Self.step, 2, version: 1, value: Array("tram".utf8))
        let names = Self.cacheNames(site.directory)
        #expect(names.count == 1 && names[0].hasPrefix("memo.tmp-"))
        var info = stat()
        #expect(lstat(site.directory.appending(path: ".daybook-cache/" + names[0]).path, &info) == 0)
        #expect(info.st_size > huge.count, "a value over a MiB is on disk at once; the small one waits in the buffer")
        #expect(info.st_size < huge.count + 200)
        #expect(Self.values(table) == ["big", "tram", nil])
        #expect(place.save(place.kept(table)) == nil)
        #expect(Self.cacheNames(site.directory) == ["memo"])
        let read = place.load()
        #expect(read.spill == nil)
        #expect(Self.values(read) == ["big", "tram", nil])
    }

    @Test("a preview begun without a memo to read writes nothing to the cache folder")
    func previewDoesNotSpill() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let memo = ProcessMemo(site: site.directory)
        #expect(memo.table.spill == nil)
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        #expect(await SiteBuilder().build(options, session: BuildSession(memo: memo)).succeeded)
        #expect(Self.cacheNames(site.directory).filter { $0.hasPrefix("memo") } == [])
        #expect(memo.table.spill == nil)
        #expect(PageStep.previous(in: memo.table) != nil, "the facts each page read, for the next save")
    }

    @Test("a build that does not save its spilled memo, or fails to, leaves no file behind; a failed save says so")
    func unsavedSpill() throws {
        let site = try SiteFixture("")
        do {
            var table = MemoPlace.site(site.directory, faults: .none).load()
            table.store(Self.step, 1, version: 1, value: Self.big)
            #expect(Self.cacheNames(site.directory).count == 1)
        }
        #expect(Self.cacheNames(site.directory) == [])
        let failing = MemoPlace.site(site.directory, faults: WriteFaults { $0 == .cache("memo") ? EIO : nil })
        do {
            var table = failing.load()
            table.store(Self.step, 1, version: 1, value: Self.big)
            let failure = try #require(failing.save(failing.kept(table)))
            #expect(failure.message.hasPrefix("cannot write the cache: Input/output error"))
        }
        #expect(Self.cacheNames(site.directory) == [])
    }

    @Test("a save removes the spills killed builds left, and only the memo's")
    func leftovers() throws {
        let site = try SiteFixture("""
            -- .daybook-cache/memo.tmp-4242-1 --
            cut short
            -- .daybook-cache/check.tmp-4242-1 --
            another cache's
            """)
        let place = MemoPlace.site(site.directory, faults: .none)
        var table = place.load()
        table.store(Self.step, 1, version: 1, value: Self.big)
        #expect(place.save(place.kept(table)) == nil)
        #expect(Self.cacheNames(site.directory) == ["check.tmp-4242-1", "memo"])
        try Data("cut short".utf8).write(to: site.directory.appending(path: ".daybook-cache/memo.tmp-4243-1"))
        var next = place.load()
        next.store(Self.step, 2, version: 1, value: [2])
        #expect(place.save(place.kept(next)) == nil)
        #expect(Self.cacheNames(site.directory) == ["check.tmp-4242-1", "memo"], "appending removes them too")
        #expect(Self.values(place.load()) == ["big", "\u{02}", nil])
    }

    /// A saved memo's path, for a copy.
    static func savedPath() throws -> String {
        let (site, _) = try saved()
        return MemoFile.path(site: site.directory, name: MemoPlace.cacheName)
    }
}
