import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 10: the build writes, replaces and removes only inside the output folder (CONTRACT §6),
/// whatever an earlier build's record says and whatever links stand in the output folder.
@Suite("Output safety")
struct OutputSafetyTests {
    func build(_ site: SiteFixture, output: String? = nil, force: Bool = false) async -> BuildResult {
        await SiteBuilder().build(BuildOptions(
            siteDirectory: site.directory, outputDirectory: output.map { site.directory.appending(path: $0) },
            now: Fixed.at(IndexSite.now), force: force))
    }

    /// Every file of the fixture outside `output/`, with its bytes.
    /// Everything but the output folder and the cache folder, the two places a build may write.
    func outside(_ site: SiteFixture) -> [String: Data] {
        site.tree("").filter { !$0.key.hasPrefix("output/") && !$0.key.hasPrefix(".daybook-cache/") }
    }

    func errors(_ result: BuildResult) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    func kind(_ url: URL) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
    }

    @Test("a record naming paths outside the output folder is ignored whole, and nothing outside changes")
    func tamperedRecord() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("victim/keep.txt", "beside the output")
        try site.write("abs-victim.txt", "named by an absolute path")
        #expect(await build(site).succeeded)
        let record = try #require(site.read("output/.daybook-manifest"))
        let absolute = site.directory.appending(path: "abs-victim.txt").path
        let tampered = record + ["../victim", "../site.yml", "../content/posts.json", absolute, "a/../../x"]
            .map { "f 0000000000000001 1 \($0.replacing(" ", with: "%20"))" }.joined(separator: "\n") + "\n"
        try site.write("output/.daybook-manifest", tampered)
        let before = outside(site)
        #expect(before.count == 8)

        let refused = await build(site)
        #expect(!refused.succeeded)
        let warning = try #require(refused.diagnostics.first { $0.location.path == "output/.daybook-manifest" })
        #expect(warning.description == "output/.daybook-manifest: warning: the record of an earlier build names '../content/posts.json', which is not a path inside the output folder, so the record is ignored and the build owns no file in the output folder; pass --force once to let the build own them again")
        #expect(errors(refused).count == 1)
        #expect(errors(refused).first?.hasPrefix("output/404.html: error: the build would replace 404.html, ") == true)
        #expect(outside(site) == before)

        let forced = await build(site, force: true)
        #expect(forced.succeeded)
        #expect(forced.report?.removed == 0)
        #expect(outside(site) == before)
        // The record is clean again, and owns exactly what the build wrote.
        #expect(site.read("output/.daybook-manifest")?.contains("..") == false)
        #expect(await build(site).report?.written == 0)
    }

    @Test("diagnostics name the output folder the build was given, from the site folder, or whole when it lies elsewhere")
    func namedOutputFolder() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("pub/404.html", "mine")
        try FileManager.default.createDirectory(at: site.directory.appending(path: "pub/journal"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: "pub/index.html"), withDestinationURL: site.directory.appending(path: "pub/404.html"))
        #expect(errors(await build(site, output: "pub")) == [
            "pub/404.html: error: the build would replace 404.html, which it did not write; move it away, or pass --force to let the build own it",
            "pub/index.html: error: pub/index.html is a symbolic link; the build never writes through links: remove it, or pass --force to replace the link itself (its target is left alone)",
        ])
        let elsewhere = try SiteFixture("-- index.html --\nmine\n")
        let options = BuildOptions(siteDirectory: site.directory, outputDirectory: elsewhere.directory, now: Fixed.at(IndexSite.now))
        #expect(errors(await SiteBuilder().build(options)) == [
            "\(elsewhere.directory.standardizedFileURL.path)/index.html: error: the build would replace index.html, which it did not write; move it away, or pass --force to let the build own it",
        ])
    }

    @Test("a folder link and a file link in the output folder are errors; --force replaces the links, never their targets")
    func links() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("outside/index.html", "outside folder")
        try site.write("outside-file.html", "outside file")
        try FileManager.default.createDirectory(at: site.directory.appending(path: "output"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: "output/journal"), withDestinationURL: site.directory.appending(path: "outside"))
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: "output/index.html"), withDestinationURL: site.directory.appending(path: "outside-file.html"))
        let before = outside(site)

        let refused = await build(site)
        #expect(errors(refused) == [
            "output/index.html: error: output/index.html is a symbolic link; the build never writes through links: remove it, or pass --force to replace the link itself (its target is left alone)",
            "output/journal: error: output/journal is a symbolic link; the build never writes through links: remove it, or pass --force to replace the link itself (its target is left alone)",
        ])
        #expect(outside(site) == before)
        #expect(site.read("output/404.html") == nil)

        let forced = await build(site, force: true)
        #expect(forced.succeeded)
        #expect(outside(site) == before)
        #expect(kind(site.directory.appending(path: "output/journal")) == .typeDirectory)
        #expect(kind(site.directory.appending(path: "output/index.html")) == .typeRegular)
        #expect(site.read("output/index.html")?.hasPrefix("<!doctype html>") == true)
        #expect(site.read("output/journal/index.html")?.hasPrefix("<!doctype html>") == true)
    }

    @Test("a link put in place of a folder the build wrote is refused on the next build, and nothing is written through it")
    func linkAfterBuild() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("outside/q1/index.html", "outside")
        #expect(await build(site).succeeded)
        try FileManager.default.removeItem(at: site.directory.appending(path: "output/journal"))
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: "output/journal"), withDestinationURL: site.directory.appending(path: "outside"))
        let before = outside(site)
        let result = await build(site)
        #expect(errors(result).map { $0.prefix(48) } == ["output/journal: error: output/journal is a symbo"])
        #expect(outside(site) == before)
    }

    @Test("a stale page whose folder became a link is not removed through the link")
    func removalThroughLink() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("outside/index.html", "outside")
        #expect(await build(site).succeeded)
        // p5 is deleted, so posts/p5/index.html is stale; its folder is now a link to outside/.
        try FileManager.default.removeItem(at: site.directory.appending(path: "output/posts/p5"))
        try FileManager.default.createSymbolicLink(
            at: site.directory.appending(path: "output/posts/p5"), withDestinationURL: site.directory.appending(path: "outside"))
        let posts = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains("\"p5\"") }
        try site.write("content/posts.json", posts.joined(separator: "\n"))
        let before = outside(site)
        let result = await build(site)
        #expect(result.succeeded)
        #expect(result.report?.removedPaths == ["tags/日本/index.html"])
        #expect(outside(site) == before)
        #expect(site.read("outside/index.html") == "outside")
    }

    @Test("a name over 255 bytes fails the build before anything is written, at the record it comes from")
    func longName() async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).succeeded)
        let before = site.tree("output")
        let id = String(repeating: "a", count: 300)
        try site.write("content/posts/long.json", #"{"id": "\#(id)", "author": "al", "createdAt": "2026-11-21T03:00:00Z", "caption": "long"}"#)
        let result = await build(site)
        #expect(errors(result) == [
            "content/posts/long.json:1:8: error: the output path posts/\(id)/index.html has a name of 300 bytes, over the 255 that file systems allow: shorten the id, tag or place it comes from"
        ])
        #expect(site.tree("output") == before)
    }

    @Test("a theme file at a page's path fails the build before anything is written, once per path")
    func collidingOutputs() async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).succeeded)
        let before = site.tree("output")
        try site.write("Templates/index.html", "<p>mine</p>")
        try site.write("Templates/search/index.html", "<p>mine</p>")
        let result = await build(site)
        #expect(errors(result) == [
            "content/index.html: error: two outputs would be written to 'index.html'; rename the image or theme file",
            "content/search/index.html: error: two outputs would be written to 'search/index.html'; rename the image or theme file",
        ])
        #expect(site.tree("output") == before)
        // Renamed, the build passes again.
        try FileManager.default.removeItem(at: site.directory.appending(path: "Templates/index.html"))
        try FileManager.default.removeItem(at: site.directory.appending(path: "Templates/search"))
        #expect(await build(site).succeeded)
    }

    @Test("a path over PATH_MAX with the output folder fails before anything is written")
    func longPath() async throws {
        let site = try SiteFixture(IndexSite.archive)
        // 16 folders of 250 bytes: every name fits, the whole path does not.
        let deep = Array(repeating: String(repeating: "d", count: 250), count: 16).joined(separator: "/")
        let result = await build(site, output: "output/" + deep)
        #expect(errors(result).count == 1)
        #expect(errors(result).first?.contains("bytes long with the output folder, over the 4095 that file systems allow") == true)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))
    }

    @Test("temporaries a killed build left are gone after the next build, beside pages or in the temporary folder")
    func strayTemporaries() async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).succeeded)
        // A kill between writing and renaming: the page of p5, which the next build no longer has.
        let page = try #require(site.read("output/posts/p5/index.html"))
        try site.write("output/.daybook-tmp/3", page)
        try site.write("output/posts/p5/index.html.daybook-tmp", page)  // as earlier versions named it
        // A first build killed while staging a new folder whole: its tree, with links out of the
        // output among it (another program's), which go as themselves, never followed.
        try site.write("output/.daybook-tmp/tree/places/lisbon/index.html", page)
        try site.write("kept/secret.txt", "not the output's\n")
        let links = site.directory.appending(path: "output/.daybook-tmp/tree/places")
        try FileManager.default.createSymbolicLink(at: links.appending(path: "folder-link"), withDestinationURL: site.directory.appending(path: "kept"))
        try FileManager.default.createSymbolicLink(at: links.appending(path: "file-link"), withDestinationURL: site.directory.appending(path: "kept/secret.txt"))
        let posts = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains("\"p5\"") }
        try site.write("content/posts.json", posts.joined(separator: "\n"))
        #expect(await build(site).succeeded)

        let clean = try SiteFixture("")
        for (path, data) in outside(site) { try clean.write(path, String(decoding: data, as: UTF8.self)) }
        #expect(await build(clean).succeeded)
        var a = site.tree("output")
        var b = clean.tree("output")
        #expect(a.keys.filter { $0.contains("daybook-tmp") }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/.daybook-tmp").path))
        #expect(site.read("kept/secret.txt") == "not the output's\n")
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/posts/p5").path))
        a[OutputWriter.manifestName] = nil
        b[OutputWriter.manifestName] = nil
        #expect(a == b)
    }

    @Test("a build with nothing to change rewrites nothing, its record included")
    func recordUntouched() async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).succeeded)
        let record = site.directory.appending(path: "output/.daybook-manifest")
        func identity() throws -> (Int, Date) {
            let attributes = try FileManager.default.attributesOfItem(atPath: record.path)
            return (try #require(attributes[.systemFileNumber] as? Int), try #require(attributes[.modificationDate] as? Date))
        }
        let before = try identity()
        try await Task.sleep(for: .milliseconds(20))
        let second = await build(site)
        #expect(second.report == WriteReport(written: 0, unchanged: 65, removed: 0)) // 50 files, plus two feeds for each of the 5 users
        let after = try identity()
        #expect(after.0 == before.0)
        #expect(after.1 == before.1)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/.daybook-tmp").path))
    }
}

/// `--output` must be a folder of the build's own (CONTRACT §6).
@Suite("Output folder choice")
struct OutputFolderChoiceTests {
    static let cases: [(String, String)] = [
        ("/", "the output folder cannot be /, the root of the file system: choose a folder of its own, such as the default <site>/output"),
        (".", "the output folder cannot be the site folder itself"),
        ("content", "the output folder cannot be in the site's content/ folder: choose a folder of its own, such as the default <site>/output"),
        ("content/public", "the output folder cannot be in the site's content/ folder: choose a folder of its own, such as the default <site>/output"),
        ("Templates", "the output folder cannot be in the site's Templates/ folder: choose a folder of its own, such as the default <site>/output"),
        ("output/../content", "the output folder cannot be in the site's content/ folder: choose a folder of its own, such as the default <site>/output"),
        ("..", "the output folder cannot be "),
    ]

    @Test("the file system root, the site folder, its sources and any folder above it are refused before anything is written", arguments: 0..<cases.count)
    func refused(_ index: Int) async throws {
        let (output, message) = Self.cases[index]
        let site = try SiteFixture(IndexSite.archive)
        let before = site.tree("")
        let url = output == "/" ? URL(filePath: "/") : site.directory.appending(path: output)
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, outputDirectory: url, now: Fixed.at(IndexSite.now)))
        #expect(!result.succeeded)
        #expect(result.diagnostics.count == 1)
        let shown = result.diagnostics.first?.description ?? ""
        #expect(shown.hasPrefix("--output: error: " + message), "\(shown)")
        #expect(site.tree("") == before)
        if output == ".." { #expect(shown.contains("which holds the site folder")) }
    }
}
