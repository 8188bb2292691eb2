@testable import DaybookBuild
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// The cache folder and the output folder are as untrusted as the site: what a build reads
/// there is bounded, never read through a link, and a named pipe never stops it.
@Suite("Untrusted cache and output files")
struct UntrustedFilesTests {
    func errors(_ result: BuildResult) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    /// From `seconds` on, for a minute, opens and closes each named pipe at `paths` every second,
    /// from a thread outside Swift's task pool: an open waiting for a writer then goes on, so a
    /// build that blocks on a pipe ends late, and the test fails on the time instead of hanging
    /// the test run.
    func unblock(_ paths: [String], after seconds: UInt32) {
        Thread.detachNewThread {
            sleep(seconds)
            for _ in 0..<60 {
                for path in paths {
                    let fd = open(path, O_RDWR | O_NONBLOCK)
                    if fd >= 0 { close(fd) }
                }
                sleep(1)
            }
        }
    }

    @Test("a cached photo copy that became a link to a file outside the site is not published: an error names the copy")
    func cachedCopyLink() async throws {
        let site = try PhotoBuildTests.site()
        let (first, _) = PhotoQuickPathTests.publish(site)
        // An index that knows no copy's hash sends the build to read each copy from the cache.
        let index = try String(contentsOf: PhotoQuickPathTests.indexFile(site), encoding: .utf8)
        try Data(index.replacing(/,[0-9]+(?=[\t \n])/, with: ",-").utf8).write(to: PhotoQuickPathTests.indexFile(site))
        let copy = try #require(first.cached.first { $0.path == "images/phone.32.webp" })
        // A secret of the very size the index records, so only the link gives it away.
        let secret = site.directory.deletingLastPathComponent().appending(path: "secret-\(UUID().uuidString)")
        try Data(repeating: UInt8(ascii: "S"), count: copy.size).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        try FileManager.default.removeItem(atPath: copy.source)
        try FileManager.default.createSymbolicLink(atPath: copy.source, withDestinationPath: secret.path)

        let (again, _) = PhotoQuickPathTests.publish(site)
        #expect(again.diagnostics.map(\.description) == [
            "content/images/phone.jpg: error: cannot read the cached copy '\(copy.source)'; delete the .daybook-cache folder and build again"
        ])
        #expect(!again.files.contains { $0.bytes == [UInt8](repeating: UInt8(ascii: "S"), count: copy.size) })
        #expect(again.files.contains { $0.path == "images/phone.16.webp" }, "the other copies are read as before")
    }

    @Test("a build record over its bound is refused as damaged, with the usual warning, and the build goes on")
    func recordOverBound() throws {
        let site = try SiteFixture(IndexSite.archive)
        let folder = OutputFolder(directory: site.directory.appending(path: "output"))
        try site.write("output/.daybook-manifest", "daybook-manifest 1\n")
        #expect(folder.contents(of: ".daybook-manifest") == Array("daybook-manifest 1\n".utf8))
        // A sparse file: its size is over the bound without a byte on disk.
        let handle = try FileHandle(forWritingTo: site.directory.appending(path: "output/.daybook-manifest"))
        try handle.truncate(atOffset: UInt64(OutputFolder.maxRecordBytes + 1))
        try handle.close()
        #expect(folder.contents(of: ".daybook-manifest") == [])
        let writer = OutputWriter(sink: folder)
        #expect(writer.recordProblem?.description.hasPrefix("output/.daybook-manifest: warning: cannot read the record of an earlier build") == true)
        #expect(writer.previous.files.isEmpty)
    }

    @Test("named pipes at the build record, the intent and every cache file do not hang the build; forced, it replaces them")
    func namedPipes() async throws {
        // Built with files older than the racy window, so that the build record is there too.
        let site = try #require(try await NoChangeBuildTests.builtSites(1).first)
        let pages = site.tree("output").filter { !$0.key.hasPrefix(".") }
        var pipes = ["output/.daybook-manifest", "output/.daybook-intent"]
        let caches = try FileManager.default.contentsOfDirectory(atPath: site.directory.appending(path: ".daybook-cache").path)
            .filter { !$0.hasPrefix(".") && $0 != "images" }
        #expect(caches == ["memo"])
        pipes += caches.map { ".daybook-cache/" + $0 }
        for pipe in pipes {
            let path = site.directory.appending(path: pipe).path
            unlink(path)
            #expect(mkfifo(path, 0o644) == 0, "mkfifo \(pipe)")
        }
        let paths = pipes.map { site.directory.appending(path: $0).path }
        unblock(paths, after: 20)
        let started = ContinuousClock.now
        let finished = await NoChangeBuildTests.build(NoChangeBuildTests.options(site))
        #expect(ContinuousClock.now - started < .seconds(15), "the build waited on a named pipe")
        // With no record to read, the outputs are files the build did not write, as after a
        // damaged record: replaced only when forced.
        #expect(errors(finished) == [
            "output/.daybook-intent: error: the build would replace .daybook-intent, .daybook-manifest, 404.html, index.html, journal/feed.xml and 28 more, which it did not write; move them away, or pass --force to let the build own them"
        ])
        var options = NoChangeBuildTests.options(site)
        options.force = true
        #expect(await NoChangeBuildTests.build(options).succeeded)
        #expect(site.tree("output").filter { !$0.key.hasPrefix(".") } == pages)
    }

    @Test("a memo (and the build record in it) in a cache folder that is a link is neither read, replaced nor removed through it")
    func cacheFolderLink() async throws {
        let site = try #require(try await NoChangeBuildTests.builtSites(1).first)
        #expect(NoChangeBuildTests.replayed(await NoChangeBuildTests.build(NoChangeBuildTests.options(site))))
        let cache = site.directory.appending(path: ".daybook-cache")
        let elsewhere = site.directory.deletingLastPathComponent().appending(path: "elsewhere-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: cache, to: elsewhere)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.createSymbolicLink(at: cache, withDestinationURL: elsewhere)
        let memo = try Data(contentsOf: elsewhere.appending(path: "memo"))

        let again = await NoChangeBuildTests.build(NoChangeBuildTests.options(site))
        #expect(errors(again) == [])
        #expect(!NoChangeBuildTests.replayed(again), "the record behind the link was replayed")
        #expect(try Data(contentsOf: elsewhere.appending(path: "memo")) == memo)
    }
}
