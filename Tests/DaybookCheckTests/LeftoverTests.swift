import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 10, item 6: a build stopped between writing a temporary file and renaming it leaves
/// the file behind; `check` names every one, and the temporary folder if it is there.
@Suite("daybook check: leftover temporary files")
struct LeftoverTests {
    @Test("a temporary file beside a page, one in a folder of its own, and the temporary folder")
    func leftovers() async {
        let found = await SiteCheckerTests().messages([
            "posts/p01/index.html.daybook-tmp": "<!doctype html><title>half",
            "index.html.daybook-tmp": "",
            ".daybook-tmp/feed.xml": "<feed",
        ])
        #expect(found == [
            ".daybook-tmp: error: a folder of temporary files left by an interrupted build: build the site again, or delete it",
            "index.html.daybook-tmp: error: a temporary file left by an interrupted build: build the site again, or delete it",
            "posts/p01/index.html.daybook-tmp: error: a temporary file left by an interrupted build: build the site again, or delete it",
        ])
    }

    @Test("a name that merely contains daybook-tmp is not a leftover")
    func lookalike() async {
        let found = await SiteCheckerTests().messages(["images/daybook-tmp.png": "png", "images/x.daybook-tmp.png": "png"])
        #expect(found == [])
    }
}

/// The same on disk, where the folder is hidden from the listing of pages.
@Suite("daybook check: leftovers in an output folder")
struct LeftoverFolderTests {
    /// `SiteCheckerTests.clean` written to a new folder under the temporary directory.
    static func cleanSite(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        for (path, text) in SiteFixture.parse(SiteCheckerTests.clean) {
            let file = folder.appending(path: path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder
    }

    @Test("FolderSource finds the hidden temporary folder and a temporary file deep in the output")
    func onDisk() async throws {
        let folder = try Self.cleanSite("daybook-leftovers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = await SiteChecker().check(FolderSource(directory: folder))
        #expect(clean.diagnostics.map(\.description) == [])

        try FileManager.default.createDirectory(at: folder.appending(path: ".daybook-tmp"), withIntermediateDirectories: true)
        try Data("half".utf8).write(to: folder.appending(path: "posts/p1/index.html.daybook-tmp"))
        let report = await SiteChecker().check(FolderSource(directory: folder))
        #expect(report.diagnostics.map(\.description) == [
            ".daybook-tmp: error: a folder of temporary files left by an interrupted build: build the site again, or delete it",
            "posts/p1/index.html.daybook-tmp: error: a temporary file left by an interrupted build: build the site again, or delete it",
        ])
    }
}
