@testable import DaybookBuild
import DaybookContent
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
        let (snapshot, diagnostics, files) = SiteReader(siteDirectory: site.directory)
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
        let (edited, _, _) = SiteReader(siteDirectory: site.directory).readContent(reusing: stale)
        #expect(edited.sources["content/posts.json"] == Array("[ ]".utf8))

        let racy = try memo("content/posts.json", bytes: "[]", secondsAfterNow: 0)
        let (read, _, _) = SiteReader(siteDirectory: site.directory).readContent(reusing: racy)
        #expect(read.sources["content/posts.json"] == Array("[ ]".utf8))
        #expect(read.contentKeys["content/posts.json"] == StableHash.ofContent(Array("[ ]".utf8)))
    }
}
