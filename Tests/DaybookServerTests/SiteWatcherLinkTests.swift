import DaybookBuild
@testable import DaybookServer
import DaybookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The watcher's walks over links and past their bounds: each must end promptly, stay inside the
/// site, and see what the build reads.
extension SiteWatcherTests {
    /// The index site with a real folder below `content/` and links in it: loops (`a -> .`,
    /// `b -> ..`, `c -> ../content`: walked without a record of the folders entered, two of them
    /// make a tree twice as wide at each level), one to a folder outside the site, and one to a
    /// folder inside the site but outside the roots, which the build reads through it.
    func linkedSite() throws -> (site: SiteFixture, outside: SiteFixture) {
        let site = try SiteFixture(IndexSite.archive)
        let outside = try SiteFixture("-- note.md --\nfar\n")
        try site.write("content/photos/2026/p.md", "real\n")
        try site.write("shared/note.md", "near\n")
        for (name, target) in [("a", "."), ("b", ".."), ("c", "../content"), ("elsewhere", outside.directory.path), ("shared", "../shared")] {
            try FileManager.default.createSymbolicLink(atPath: site.directory.appending(path: "content/" + name).path, withDestinationPath: target)
        }
        return (site, outside)
    }

    /// What `body` returns, or nil when it takes longer than `seconds`: a walk that loops would
    /// otherwise hang the suite.
    func promptly<T: Sendable>(within seconds: Double = 10, _ body: @escaping @Sendable () -> T) -> T? {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.set(body())
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return box.value
    }

    @Test("the polling fallback lists what the build reads through links inside the site, and nothing through the others")
    func pollingThroughLinks() throws {
        let (site, _) = try linkedSite()
        let watcher = SiteWatcher(siteDirectory: site.directory)
        let files = try #require(promptly { watcher.snapshot() }, "the snapshot did not end")
        let expected = SiteFixture.parse(IndexSite.archive).map(\.0) + ["content/photos/2026/p.md", "content/shared/note.md"]
        #expect(files.keys.sorted() == expected.sorted())
    }

    @Test("the watcher sees exactly the files the build reads: through links, past an output folder copied into content/, and 64 folders down")
    func sameFilesAsTheBuild() throws {
        let (site, _) = try linkedSite()
        try site.write("content/old/" + OutputWriter.manifestName, "{}")
        try site.write("content/old/index.html", "old")
        let deep = Array(repeating: "d", count: FileInfo.SiteFiles.maxDepth).joined(separator: "/")
        try site.write("content/" + deep + "/far.md", "far")
        let watcher = SiteWatcher(siteDirectory: site.directory)
        let watched = try #require(promptly { watcher.snapshot() }, "the snapshot did not end").keys.filter { $0 != "site.yml" }
        let read = SiteWatcher.watchedRoots.flatMap { root in
            FileInfo.siteFiles(under: site.directory.path + "/" + root, root: site.directory.path).files.map { root + "/" + $0 }
        }
        #expect(watched.sorted() == read.sorted())
        #expect(watched.contains("content/" + deep + "/far.md"))
        #expect(!watched.contains("content/old/index.html"))
    }

    #if os(Linux)
    /// A bare `InotifyState` over `site`, watching it as the watcher does, for tests that read its events.
    func watching(_ site: SiteFixture, bounds: FileInfo.SiteFiles.Bounds = SiteWatcher.bounds, _ body: (InotifyState) throws -> Void) throws {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(fd >= 0)
        defer { close(fd) }
        let state = InotifyState(fd: fd, site: site.directory.path, bounds: bounds)
        try #require(promptly { state.watchSite() } != nil, "the watches were not in place within 10 s")
        try body(state)
    }

    @Test("links in content/ neither loop nor lead out of the site; a folder linked inside it is watched once, as the build reads it")
    func linkedFolders() throws {
        let (site, outside) = try linkedSite()
        try watching(site) { state in
            #expect(state.watched == ["", "content", "content/photos", "content/photos/2026", "content/shared"])
            try outside.write("note.md", "edited\n")
            #expect(state.read(timeoutMilliseconds: 300) == [])
            // `b` leads to the site folder, which neither the build (an error) nor the watcher
            // enters: a change names just its own path.
            try site.write("content/posts.json", "[]")
            #expect(state.read(timeoutMilliseconds: 2000) == ["content/posts.json"])
            try site.write("shared/note.md", "edited\n")
            #expect(state.read(timeoutMilliseconds: 2000) == ["content/shared/note.md"])
        }
    }

    @Test("past a bound on depth or watches no more folders are watched, and every change then names the roots", arguments: [
        FileInfo.SiteFiles.Bounds(depth: 1, folders: 100), FileInfo.SiteFiles.Bounds(folders: 3),
    ])
    func bounded(_ bounds: FileInfo.SiteFiles.Bounds) throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("content/deep/er/est/p.md", "x\n")
        try watching(site, bounds: bounds) { state in
            #expect(state.watched == ["", "content", "content/deep"])
            try site.write("content/posts.json", "[]")
            #expect(state.read(timeoutMilliseconds: 2000) == ["Templates", "content", "content/posts.json"])
        }
    }

    @Test("a folder removed gives its watch back, so folders that come and go do not use up the bound")
    func removedFolder() throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("content/old/p.md", "x\n")
        try watching(site, bounds: FileInfo.SiteFiles.Bounds(folders: 3)) { state in
            #expect(state.watched == ["", "content", "content/old"])
            try FileManager.default.removeItem(at: site.directory.appending(path: "content/old"))
            while !state.read(timeoutMilliseconds: 300).isEmpty {}
            try FileManager.default.createDirectory(at: site.directory.appending(path: "content/new"), withIntermediateDirectories: false)
            #expect(state.read(timeoutMilliseconds: 2000) == ["content/new"])
            #expect(state.watched == ["", "content", "content/new"])
        }
    }
    #endif
}

/// A value set on one thread and read on another.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    func set(_ value: T) { lock.withLock { stored = value } }
    var value: T? { lock.withLock { stored } }
}
