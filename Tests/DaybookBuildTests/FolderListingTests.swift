import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// `daybook check` lists the whole output folder: regular files at any depth (folders two levels
/// down are walked on all cores), links to files as the files they name, nothing hidden, and no
/// link to a folder followed.
@Suite("Folder listing")
struct FolderListingTests {
    @Test("regular files at every depth, links to files, nothing hidden, no link to a folder followed")
    func listing() throws {
        let site = try SiteFixture("""
            -- out/index.html --
            a
            -- out/posts/p1/index.html --
            b
            -- out/posts/p2/index.html --
            c
            -- out/tags/t/page/2/index.html --
            d
            -- out/.hidden/x.html --
            e
            -- out/posts/.draft.html --
            f
            -- elsewhere/secret/index.html --
            g
            """)
        let out = site.directory.appending(path: "out")
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "posts/p3").path, withDestinationPath: site.directory.appending(path: "elsewhere/secret").path)
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "tags/t/copy.html").path, withDestinationPath: "page/2/index.html")
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "gone.html").path, withDestinationPath: "nowhere.html")
        #expect(FileInfo.regularFiles(under: out.path).sorted() == [
            "index.html", "posts/p1/index.html", "posts/p2/index.html", "tags/t/copy.html", "tags/t/page/2/index.html",
        ])
        #expect(FileInfo.regularFiles(under: site.directory.appending(path: "missing").path) == [])
    }

    /// Nanoseconds since 1970, ten seconds from now: every folder written by the fixture is settled then.
    static func later() -> Int64 { FileInfo.realtimeNanoseconds() + 10_000_000_000 }

    @Test("issue 14: a folder whose status is the one stored is not read again; a changed, racy or linked folder is")
    func reuse() throws {
        let site = try SiteFixture("""
            -- out/index.html --
            a
            -- out/posts/p1/index.html --
            b
            -- out/posts/p2/index.html --
            c
            """)
        let out = site.directory.appending(path: "out")
        let first = FileInfo.regularFiles(under: out.path, reusing: FolderListings(), at: Self.later())
        #expect(first.files.sorted() == ["index.html", "posts/p1/index.html", "posts/p2/index.html"])
        #expect(first.listings.entries.keys.sorted() == ["", "posts", "posts/p1", "posts/p2"])
        #expect(first.listings.entries["posts"]?.value.folders.sorted() == ["p1", "p2"])
        // Each folder is counted as a change to the (empty) listings reused.
        #expect(first.changes == 4)

        // Stored entries that differ from the disk prove that a settled, unchanged folder is not read.
        var planted = first.listings
        planted.entries["posts/p1"]!.value.files = ["planted.html"]
        let reused = FileInfo.regularFiles(under: out.path, reusing: planted, at: Self.later())
        #expect(reused.files.sorted() == ["index.html", "posts/p1/planted.html", "posts/p2/index.html"])
        #expect(reused.changes == 0)

        // Stored within the racy window of the listing that stored it: read again.
        var racy = planted
        racy.takenAt = FileInfo.realtimeNanoseconds()
        let reread = FileInfo.regularFiles(under: out.path, reusing: racy, at: Self.later())
        #expect(reread.files.sorted() == first.files.sorted())
        #expect(reread.changes == 4)

        // A file added changes its folder's status: read again, the new file found.
        try Data("d".utf8).write(to: out.appending(path: "posts/p1/extra.html"))
        let added = FileInfo.regularFiles(under: out.path, reusing: planted, at: Self.later())
        #expect(added.files.sorted() == ["index.html", "posts/p1/extra.html", "posts/p1/index.html", "posts/p2/index.html"])
        #expect(added.changes == 1)

        // A folder holding a link is listed but never stored: what the link names may change alone.
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "posts/p2/copy.html").path, withDestinationPath: "index.html")
        let linked = FileInfo.regularFiles(under: out.path, reusing: added.listings, at: Self.later())
        #expect(linked.files.contains("posts/p2/copy.html"))
        #expect(linked.listings.entries["posts/p2"] == nil && linked.listings.entries["posts/p1"] != nil)
        // posts/p2 is gone from the listings.
        #expect(linked.changes == 1)

        // A folder removed: its parent read again, and it gone.
        try FileManager.default.removeItem(at: out.appending(path: "posts/p1"))
        let removed = FileInfo.regularFiles(under: out.path, reusing: linked.listings, at: Self.later())
        #expect(removed.files.sorted() == ["index.html", "posts/p2/copy.html", "posts/p2/index.html"])
        #expect(removed.changes == 2)
    }
}
