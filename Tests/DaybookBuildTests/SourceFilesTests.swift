@testable import DaybookBuild
import DaybookCheck
import DaybookContent
import DaybookIncremental
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// `serve` keeps the source files it read: a file whose status is unchanged is not read again.
@Suite("Source files kept between builds")
struct SourceFilesTests {
    let site: SiteFixture
    init() throws {
        site = try SiteFixture("""
            -- site.yml --
            title: Kept
            -- content/posts.json --
            [{"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "on disk"}]
            -- content/users.json --
            []
            """)
    }

    func status(_ path: String) throws -> FileStatus {
        try #require(FileStatus(path: site.directory.appending(path: path).path))
    }

    /// A memo holding `bytes` for `path` at its current status, taken `secondsAfterNow` from now.
    func memo(_ path: String, bytes: String, secondsAfterNow: Int64) throws -> SiteReader.SourceFiles {
        var files = SiteReader.SourceFiles(takenAt: FileInfo.realtimeNanoseconds() + secondsAfterNow * 1_000_000_000)
        files.set(path, status: try status(path), value: SiteReader.SourceFile(bytes: Array(bytes.utf8), key: 7))
        return files
    }

    @Test("a settled file with the status it was read at is taken from memory, with its key; the others are read")
    func reused() throws {
        let (snapshot, diagnostics, files, _) = SiteReader(siteDirectory: site.directory)
            .readContent(reusing: try memo("content/posts.json", bytes: "[]", secondsAfterNow: 10))
        #expect(diagnostics.isEmpty)
        #expect(snapshot.sources["content/posts.json"].map { String(decoding: $0, as: UTF8.self) } == "[]")
        #expect(snapshot.contentKeys["content/posts.json"] == 7)
        #expect(snapshot.sources["content/users.json"] == Array("[]\n".utf8))
        #expect(snapshot.contentKeys["content/users.json"] == StableHash.ofContent(Array("[]\n".utf8)))
        #expect(files?.entries.keys.sorted() == ["content/posts.json", "content/users.json", "site.yml"])
    }

    @Test("a file written since, or within the racy window of the memo, is read again")
    func readAgain() throws {
        let stale = try memo("content/posts.json", bytes: "[]", secondsAfterNow: 10)
        try site.write("content/posts.json", "[ ]")
        let (edited, _, _, _) = SiteReader(siteDirectory: site.directory).readContent(reusing: stale)
        #expect(edited.sources["content/posts.json"] == Array("[ ]".utf8))

        let racy = try memo("content/posts.json", bytes: "[]", secondsAfterNow: 0)
        let (read, _, _, _) = SiteReader(siteDirectory: site.directory).readContent(reusing: racy)
        #expect(read.sources["content/posts.json"] == Array("[ ]".utf8))
        #expect(read.contentKeys["content/posts.json"] == StableHash.ofContent(Array("[ ]".utf8)))
    }

    /// Keys holding `key` for `path` at its current status, taken `secondsAfterNow` from now.
    func keys(_ path: String, key: UInt64, secondsAfterNow: Int64) throws -> FileKeys {
        var keys = FileKeys(checkedAt: FileInfo.realtimeNanoseconds() + secondsAfterNow * 1_000_000_000)
        keys.set(path, status: try status(path), key: key)
        return keys
    }

    @Test("with the keys of `daybook build`, a settled source with its stored status is left unread, with its key; site.yml and the others are read and keyed")
    func leftUnread() throws {
        var known = try keys("content/posts.json", key: 7, secondsAfterNow: 10)
        known.set("site.yml", status: try status("site.yml"), key: 8)
        let (snapshot, diagnostics, _, next) = SiteReader(siteDirectory: site.directory).readContent(reusing: nil, keys: known)
        #expect(diagnostics.isEmpty)
        // Key 7 is no hash of the bytes: the file was not read.
        #expect(snapshot.unreadSources == ["content/posts.json"])
        #expect(snapshot.sources["content/posts.json"] == nil)
        #expect(snapshot.contentKeys["content/posts.json"] == 7)
        #expect(snapshot.unreadBytes == Int(try status("content/posts.json").size))
        #expect(snapshot.readSource?("content/posts.json").map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("[{\"id\": \"p1\"") == true)
        #expect(snapshot.sources["site.yml"] == Array("title: Kept\n".utf8))
        #expect(snapshot.contentKeys["site.yml"] == StableHash.ofContent(Array("title: Kept\n".utf8)))
        #expect(snapshot.contentKeys["content/users.json"] == StableHash.ofContent(Array("[]\n".utf8)))
        // Carried over with its status; whether the next read trusts it is the racy rule's.
        #expect(next?.keys.entries["content/posts.json"] == .init(status: try status("content/posts.json"), value: 7))
        #expect(next?.keys.entries.keys.sorted() == ["content/posts.json", "content/users.json", "site.yml"])
    }

    @Test("with the walk `daybook build` made of its inputs, the read finds what a walk of its own finds, links in and out included")
    func listedWalk() throws {
        try site.write("content/images/a.txt", "a file to publish")
        try site.write("content/.hidden.json", "[]")
        let elsewhere = try SiteFixture("-- users.json --\n[]")
        try FileManager.default.createSymbolicLink(atPath: site.directory.appending(path: "content/images/b.txt").path, withDestinationPath: "a.txt")
        try FileManager.default.createSymbolicLink(
            atPath: site.directory.appending(path: "content/prompts.json").path, withDestinationPath: elsewhere.directory.appending(path: "users.json").path)
        let reader = SiteReader(siteDirectory: site.directory)
        let own = reader.readContentFolder(reusing: nil, keys: FileKeys())
        let listing = NoChangeRecord.listed(site.directory)
        let taken = reader.readContentFolder(reusing: nil, keys: FileKeys(), listed: listing.content)
        #expect(listing.content.walk.files == ["content/images/a.txt", "content/images/b.txt", "content/posts.json", "content/users.json"])
        #expect(taken.snapshot.sources == own.snapshot.sources)
        #expect(taken.snapshot.sources.keys.sorted() == ["content/posts.json", "content/users.json", "site.yml"])
        #expect(taken.snapshot.contentKeys == own.snapshot.contentKeys)
        #expect(taken.snapshot.assets == own.snapshot.assets)
        #expect(taken.snapshot.outsideLinks == own.snapshot.outsideLinks)
        #expect(taken.snapshot.outsideLinks == ["content/prompts.json"])
        #expect(taken.hasLinks && own.hasLinks)
        #expect(taken.keys?.keys.entries == own.keys?.keys.entries)
    }

    @Test("with that walk, a source whose listed status has a stored key is taken as listed; any other is read as it is now")
    func listedStatuses() throws {
        let known = try keys("content/posts.json", key: 7, secondsAfterNow: 10)
        var listing = NoChangeRecord.listed(site.directory).content
        listing.takenAt = known.checkedAt
        try site.write("content/posts.json", "[ ]")
        try site.write("content/users.json", "[1]")
        let read = SiteReader(siteDirectory: site.directory).readContentFolder(reusing: nil, keys: known, listed: listing)
        #expect(read.snapshot.unreadSources == ["content/posts.json"])
        #expect(read.snapshot.contentKeys["content/posts.json"] == 7)
        #expect(read.snapshot.sources["content/users.json"] == Array("[1]".utf8))
        // Without the walk, the edit is seen.
        let own = SiteReader(siteDirectory: site.directory).readContentFolder(reusing: nil, keys: known)
        #expect(own.snapshot.sources["content/posts.json"] == Array("[ ]".utf8))
    }

    @Test("with those keys, a source written since, or within the racy window, is read")
    func keysReadAgain() throws {
        let stale = try keys("content/posts.json", key: 7, secondsAfterNow: 10)
        try site.write("content/posts.json", "[ ]")
        let (edited, _, _, _) = SiteReader(siteDirectory: site.directory).readContent(reusing: nil, keys: stale)
        #expect(edited.unreadSources.isEmpty)
        #expect(edited.sources["content/posts.json"] == Array("[ ]".utf8))

        let racy = try keys("content/posts.json", key: 7, secondsAfterNow: 0)
        let (read, _, _, _) = SiteReader(siteDirectory: site.directory).readContent(reusing: nil, keys: racy)
        #expect(read.unreadSources.isEmpty)
        #expect(read.contentKeys["content/posts.json"] == StableHash.ofContent(Array("[ ]".utf8)))
    }

    @Test("a rebuild into the output folder keeps the keys in its memo and builds the same site from them")
    func keptByBuild() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            title: Kept
            -- content/posts.json --
            [{"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "on disk"}]
            -- content/users.json --
            [{"id": "ana", "name": "Ana"}]
            """)
        let options = BuildOptions(siteDirectory: site.directory, now: try #require(Instant(rfc3339: "2026-11-21T12:00:00Z")))
        let first = await SiteBuilder().build(options)
        #expect(first.succeeded)
        let memo = MemoPlace.site(site.directory, faults: .none).load()
        #expect(memo.isRead)
        #expect(SourceKeysStep.keys(in: memo).keys.entries.keys.sorted() == ["content/posts.json", "content/users.json", "site.yml"])
        let page = try String(contentsOf: site.directory.appending(path: "output/posts/p1/index.html"), encoding: .utf8)
        try site.write("content/posts.json", #"[{"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "edited"}]"#)
        let second = await SiteBuilder().build(options)
        #expect(second.succeeded)
        let edited = try String(contentsOf: site.directory.appending(path: "output/posts/p1/index.html"), encoding: .utf8)
        #expect(page.contains("on disk") && edited.contains("edited") && !edited.contains("on disk"))
    }
}
