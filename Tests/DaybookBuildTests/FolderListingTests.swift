import DaybookBuild
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
}
