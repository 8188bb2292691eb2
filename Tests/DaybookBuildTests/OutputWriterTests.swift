@testable import DaybookBuild
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The writer's rules, on an output folder in memory: no temporary folders needed.
@Suite("Output writer")
struct OutputWriterTests {
    func file(_ path: String, _ text: String) -> RenderedFile { RenderedFile(path: path, bytes: Array(text.utf8)) }

    /// One whole build through `writer`: check, begin, write, finish.
    func run(_ writer: OutputWriter, _ files: [RenderedFile]) throws -> (errors: [String], report: WriteReport) {
        let errors = writer.check(files.map(\.path)).map(\.description)
        guard errors.isEmpty else { return (errors, WriteReport()) }
        writer.begin()
        var report = WriteReport()
        let records = try writer.write(files, report: &report)
        try writer.finish(BuildManifest(files: records), report: &report)
        return ([], report)
    }

    @Test("one foreign file is named in the singular, several in the plural")
    func foreignFiles() throws {
        let one = MemoryOutput(["index.html": .file(Array("mine".utf8))])
        #expect(try run(OutputWriter(sink: one), [file("index.html", "x")]).errors == [
            "output/index.html: error: the build would replace index.html, which it did not write; move it away, or pass --force to let the build own it"
        ])
        let many = MemoryOutput((1...7).reduce(into: [:]) { $0["p\($1).html"] = .file([]) })
        #expect(try run(OutputWriter(sink: many), (1...7).map { file("p\($0).html", "x") }).errors == [
            "output/p1.html: error: the build would replace p1.html, p2.html, p3.html, p4.html, p5.html and 2 more, which it did not write; move them away, or pass --force to let the build own them"
        ])
        #expect(one.files["index.html"] == Array("mine".utf8))
    }

    @Test("a link on the way or at the place of a file is an error; --force replaces the link and not its target")
    func links() throws {
        let tree: [String: MemoryOutput.Node] = ["journal": .link("/elsewhere"), "index.html": .link("/etc/passwd")]
        let files = [file("index.html", "home"), file("journal/q1/index.html", "q1"), file("journal/index.html", "j")]
        let refused = MemoryOutput(tree)
        #expect(try run(OutputWriter(sink: refused), files).errors.map { $0.prefix(50) } == [
            "output/index.html: error: output/index.html is a s", "output/journal: error: output/journal is a symboli",
        ])
        #expect(refused.tree == tree)
        let forced = MemoryOutput(tree)
        #expect(try run(OutputWriter(sink: forced, force: true), files).report.written == 3)
        #expect(forced.tree["journal"] == .folder)
        #expect(forced.tree["index.html"] == .file(Array("home".utf8)))
    }

    @Test("a record naming a path outside the folder is ignored whole, with a warning")
    func unsafeRecord() throws {
        let unsafe = ["../victim", "/abs", "a/../../x", "./a", "a//b", "a\0b", ".daybook-tmp/1", ".daybook-manifest", ".daybook-intent/x"]
        // Named as a file, or only as a page's key.
        let records = unsafe.map { "daybook-manifest 1\nf 0000000000000001 1 index.html\nf 0000000000000001 1 \($0)\n" }
            + unsafe.map { "daybook-manifest 1\nf 0000000000000001 1 index.html\np 0000000000000001 \($0)\n" }
        for record in records {
            let memory = MemoryOutput([OutputWriter.manifestName: .file(Array(record.utf8)), "index.html": .file([1])])
            let writer = OutputWriter(sink: memory)
            #expect(writer.previous == BuildManifest(), "\(record)")
            #expect(writer.recordProblem?.location.path == "output/.daybook-manifest")
            #expect(writer.recordProblem?.severity == .warning)
            // Owning nothing, the build refuses the file it would replace.
            #expect(try run(writer, [file("index.html", "x")]).errors.count == 1)
        }
    }

    @Test("a record naming a path that only starts like the build's own is used")
    func nearlyReservedRecord() throws {
        let record = "daybook-manifest 1\nf 0000000000000001 1 .daybook-tmpx/1\nf 0000000000000001 1 index.html\np 0000000000000002 .daybook-manifests\n"
        let memory = MemoryOutput([OutputWriter.manifestName: .file(Array(record.utf8)), "index.html": .file([1])])
        let writer = OutputWriter(sink: memory)
        #expect(writer.recordProblem == nil)
        #expect(writer.previous.files.keys.sorted() == [".daybook-tmpx/1", "index.html"])
        #expect(writer.previous.pageKeys == [".daybook-manifests": 2])
    }

    @Test("a stale file is removed with the folders it leaves empty; a second identical run writes nothing, its record included")
    func staleAndUnchanged() throws {
        let memory = MemoryOutput()
        #expect(try run(OutputWriter(sink: memory), [file("a/b/c.html", "c"), file("index.html", "i")]).report.written == 2)
        let second = try run(OutputWriter(sink: memory), [file("index.html", "i")])
        #expect(second.report == WriteReport(written: 0, unchanged: 1, removed: 1))
        #expect(Set(memory.tree.keys) == ["index.html", OutputWriter.manifestName])
        let record = memory.tree[OutputWriter.manifestName]
        let writes = memory.writeCount
        #expect(try run(OutputWriter(sink: memory), [file("index.html", "i")]).report == WriteReport(written: 0, unchanged: 1, removed: 0))
        #expect(memory.writeCount == writes)
        #expect(memory.tree[OutputWriter.manifestName] == record)
    }

    @Test("staged files change nothing: a build stopped before its commit leaves the folder as it was, without an intent")
    func stagedChangesNothing() throws {
        let memory = MemoryOutput()
        #expect(try run(OutputWriter(sink: memory), [file("a.html", "a")]).report.written == 1)
        let before = memory.tree

        let writer = OutputWriter(sink: memory)
        #expect(writer.check(["a.html", "b.html", "c.html"]).isEmpty)
        writer.begin()
        var report = WriteReport()
        _ = try writer.write([file("a.html", "A"), file("b.html", "b")], report: &report)
        #expect(memory.tree == before)
        writer.discard()
        #expect(memory.tree == before)
        #expect(!memory.hasStaged)
    }

    @Test("the intent is on disk while the commit puts files in place, naming the paths the record lacks (none for the same files), and gone after")
    func intentDuringCommit() async throws {
        let site = try SiteFixture("")
        defer { try? FileManager.default.removeItem(at: site.directory) }
        let out = site.directory.appending(path: "out")
        func build(_ files: [RenderedFile]) throws -> [String: BuildManifest.FileRecord]? {
            let seen = Locked<[String: BuildManifest.FileRecord]?>(nil)
            let folder = OutputFolder(directory: out, faults: WriteFaults { point in
                if case .place = point, seen.value == nil,
                    let bytes = FileManager.default.contents(atPath: out.appending(path: OutputWriter.intentName).path)
                {
                    seen.value = BuildManifest(text: String(decoding: bytes, as: UTF8.self))?.files
                }
                return nil
            })
            _ = try run(OutputWriter(sink: folder), files)
            #expect(!FileManager.default.fileExists(atPath: out.appending(path: OutputWriter.intentName).path))
            return seen.value
        }
        #expect(try build([file("a.html", "a")]) == ["a.html": .intended])
        #expect(try build([file("a.html", "A"), file("b.html", "b"), file("c.html", "c")]) == ["b.html": .intended, "c.html": .intended])
        #expect(try build([file("a.html", "a"), file("b.html", "b"), file("c.html", "c")]) == [:])
    }

    @Test("a killed commit's intent: the next build owns all it names, bytes unknown, writes them again and leaves no intent")
    func killedCommit() throws {
        let memory = MemoryOutput()
        #expect(try run(OutputWriter(sink: memory), [file("a.html", "a")]).report.written == 1)
        // Killed mid-commit: the intent names b and c, b is in place, c is not.
        try memory.write(BuildManifest(files: ["b.html": .intended, "c.html": .intended]).bytes, to: OutputWriter.intentName, replacing: false)
        try memory.write(Array("b".utf8), to: "b.html", replacing: false)
        let next = OutputWriter(sink: memory)
        #expect(next.previous.files == ["a.html": .intended, "b.html": .intended, "c.html": .intended])
        #expect(try run(next, [file("a.html", "a")]).report == WriteReport(written: 1, unchanged: 0, removed: 1))
        #expect(Set(memory.files.keys) == ["a.html", OutputWriter.manifestName])
        #expect(OutputWriter(sink: memory).previous.files["a.html"]?.entry != nil)
    }

    @Test("a failed commit after a killed one puts the killed one's intent back, byte for byte, and the folder as it was")
    func failedAfterKilled() throws {
        let memory = MemoryOutput()
        #expect(try run(OutputWriter(sink: memory), [file("a.html", "a")]).report.written == 1)
        try memory.write(BuildManifest(files: ["b.html": .intended]).bytes, to: OutputWriter.intentName, replacing: false)
        try memory.write(Array("b".utf8), to: "b.html", replacing: false)
        let before = memory.tree
        let failing = MemoryOutput(before, faults: WriteFaults { $0 == .place("c.html") ? ENOSPC : nil })
        let writer = OutputWriter(sink: failing)
        #expect(throws: OutputError.self) { try run(writer, [file("a.html", "A"), file("c.html", "c")]) }
        #expect(failing.tree == before)
    }

    @Test("an intent that does not read adds no path: what it would have named is foreign")
    func damagedIntent() throws {
        let memory = MemoryOutput()
        #expect(try run(OutputWriter(sink: memory), [file("a.html", "a")]).report.written == 1)
        try memory.write(Array("garbage".utf8), to: OutputWriter.intentName, replacing: false)
        try memory.write(Array("mine".utf8), to: "b.html", replacing: false)
        let writer = OutputWriter(sink: memory)
        #expect(writer.previous.files == ["a.html": .intended])
        #expect(try run(writer, [file("a.html", "a"), file("b.html", "b")]).errors.count == 1)
        #expect(memory.files["b.html"] == Array("mine".utf8))
    }

    @Test("the whole site builds into memory, equal to the build on disk")
    func siteIntoMemory() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        let memory = MemoryOutput()
        let inMemory = await SiteBuilder().build(options, into: memory)
        #expect(inMemory.succeeded)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))
        _ = await SiteBuilder().build(options)
        #expect(memory.files.mapValues { Data($0) } == site.tree("output"))
        #expect(inMemory.phases.map(\.name) == ["read", "load", "images", "prepare", "plan", "render and write", "finish"])
    }
}

/// `serve` hands each build the record the previous one saved, to skip parsing it again.
@Suite("Output writer, record known in memory")
struct KnownRecordTests {
    @Test("a known record is used only when the record on disk has its very bytes")
    func knownRecord() throws {
        let output = MemoryOutput()
        let first = OutputWriter(sink: output)
        _ = first.check(["index.html"])
        first.begin()
        var report = WriteReport()
        let records = try first.write([RenderedFile(path: "index.html", bytes: Array("home".utf8))], report: &report)
        try first.finish(BuildManifest(files: records), report: &report)
        let saved = try #require(first.savedRecord)
        #expect(saved.bytes == output.files[OutputWriter.manifestName])
        #expect(OutputWriter(sink: output, known: saved).previous == saved.manifest)

        // Another program rewrote the record: it is read from the disk, not taken from memory.
        var other = saved.manifest
        other.files["elsewhere.html"] = .written(.init(hash: 1, size: 1))
        try output.write(other.bytes, to: OutputWriter.manifestName, replacing: false)
        #expect(OutputWriter(sink: output, known: saved).previous == other)
        var claimed = saved
        claimed.manifest = BuildManifest()
        #expect(OutputWriter(sink: output, known: claimed).previous == other)
        // With the very bytes, the manifest in memory is taken as it is (not parsed again).
        #expect(OutputWriter(sink: output, known: (other.bytes, BuildManifest(), nil, nil)).previous == BuildManifest())
    }

    @Test("a rebuild that names what it changed saves the last record with those lines replaced, read from disk or known, as it would write it whole")
    func patchedRecord() throws {
        let (output, first) = try builtOnce()
        for known in [nil, first.savedRecord] {
            let writer = OutputWriter(sink: output, known: known)
            _ = writer.check(["index.html", "a/index.html", "b/index.html"])
            writer.begin()
            var report = WriteReport()
            var (manifest, carried) = writer.startingRecord(lists: [:])
            #expect(carried)
            let written = try writer.write([RenderedFile(path: "a/index.html", bytes: Array("page a, edited".utf8))], report: &report)
            manifest.files.merge(written) { $1 }
            manifest.pageKeys["a/index.html"] = 20
            try writer.finish(manifest, changed: ["a/index.html"], report: &report)
            #expect(writer.recordPatched)
            #expect(output.files[OutputWriter.manifestName] == manifest.bytes)
            #expect(writer.savedRecord?.lines == manifest.encoded(pathOrder: nil).lines)
            // Back as the first build had it, for the next round.
            try output.write(try #require(first.savedRecord?.bytes), to: OutputWriter.manifestName, replacing: true)
        }
        // Without the paths, the record is written whole.
        let writer = OutputWriter(sink: output)
        _ = writer.check(["index.html", "a/index.html", "b/index.html"])
        writer.begin()
        var report = WriteReport()
        var (manifest, _) = writer.startingRecord(lists: [:])
        manifest.pageKeys["b/index.html"] = 30
        try writer.finish(manifest, report: &report)
        #expect(!writer.recordPatched)
        #expect(output.files[OutputWriter.manifestName] == manifest.bytes)
    }

    /// A folder in memory with three pages written by a first build, keyed 1, 2 and 3, and that
    /// build's writer.
    func builtOnce() throws -> (output: MemoryOutput, first: OutputWriter) {
        let output = MemoryOutput()
        let first = OutputWriter(sink: output)
        _ = first.check(["index.html", "a/index.html", "b/index.html"])
        first.begin()
        var report = WriteReport()
        let files = ["index.html", "a/index.html", "b/index.html"].map { RenderedFile(path: $0, bytes: Array("page \($0)".utf8)) }
        var manifest = BuildManifest(files: try first.write(files, report: &report))
        manifest.pageKeys = ["index.html": 1, "a/index.html": 2, "b/index.html": 3]
        try first.finish(manifest, report: &report)
        return (output, first)
    }

    @Test("with its own record on disk, the writer takes the files it lists as in place and looks up the rest; writes still refuse links")
    func ownFilesNotLookedUp() throws {
        let (output, first) = try builtOnce()
        let saved = try #require(first.savedRecord)

        // Behind the preview's back: a page removed, a page replaced by a link, a foreign file where a new page goes.
        #expect(try output.remove("a/index.html"))
        try output.write(Array("mine".utf8), to: "c/index.html", replacing: false)
        var tree = output.tree
        tree["b/index.html"] = .link("/etc/passwd")
        let changed = MemoryOutput(tree)

        let trusting = OutputWriter(sink: changed, known: saved)
        #expect(trusting.check(["index.html", "a/index.html", "b/index.html", "c/index.html"]).map(\.description) == [
            "output/c/index.html: error: the build would replace c/index.html, which it did not write; move it away, or pass --force to let the build own it"
        ])
        #expect(trusting.keepRule("a/index.html", 2))
        #expect(trusting.keepRule("b/index.html", 3))
        // The link is met when the page is put in place, and refused there.
        #expect(throws: OutputError.self) {
            var report = WriteReport()
            let records = try trusting.write([RenderedFile(path: "b/index.html", bytes: Array("new".utf8))], report: &report)
            try trusting.finish(BuildManifest(files: records), report: &report)
        }
        #expect(changed.tree["b/index.html"] == .link("/etc/passwd"))

        // Without the known record, the same folder is looked up path by path.
        let looking = OutputWriter(sink: changed)
        _ = looking.check(["index.html", "a/index.html", "b/index.html", "c/index.html"])
        #expect(!looking.keepRule("a/index.html", 2))
        #expect(!looking.keepRule("b/index.html", 3))
    }

    @Test("looking ahead, the writer checks what it found at the previous build's files then, and looks up the rest at the check")
    func lookedAhead() throws {
        let output = try builtOnce().output

        // Before the look: a page removed and one replaced by a link.
        #expect(try output.remove("a/index.html"))
        var tree = output.tree
        tree["b/index.html"] = .link("/etc/passwd")
        let changed = MemoryOutput(tree)
        let ahead = OutputWriter(sink: changed)
        ahead.lookAhead()
        let plain = OutputWriter(sink: changed)
        // After it: a foreign file where a new page goes, which the check sees, and the home page
        // removed, which only the writer that did not look ahead sees (as a change after its
        // check would go unseen).
        try changed.write(Array("mine".utf8), to: "c/index.html", replacing: false)
        #expect(try changed.remove("index.html"))
        let paths = ["index.html", "a/index.html", "b/index.html", "c/index.html"]
        let expected = [
            "output/b/index.html: error: output/b/index.html is a symbolic link; the build never writes through links: remove it, or pass --force to replace the link itself (its target is left alone)",
            "output/c/index.html: error: the build would replace c/index.html, which it did not write; move it away, or pass --force to let the build own it",
        ]
        #expect(ahead.check(paths).map(\.description) == expected)
        #expect(plain.check(paths).map(\.description) == expected)
        #expect(ahead.keepRule("index.html", 1) && !plain.keepRule("index.html", 1))
        #expect(!ahead.keepRule("a/index.html", 2) && !plain.keepRule("a/index.html", 2))
    }

    @Test("a file of the last build is read back only as that build wrote it: with its key, unedited, and not through a link")
    func previousFileReadBack() throws {
        let output = try builtOnce().output
        var tree = output.tree
        // The same size, other bytes: only the key tells.
        tree["a/index.html"] = .file(Array("PAGE a/index.html".utf8))
        tree["b/index.html"] = .link("/etc/passwd")
        let changed = MemoryOutput(tree)
        let writer = OutputWriter(sink: changed)
        _ = writer.check(["index.html", "a/index.html", "b/index.html"])
        let read = writer.previousFileRule
        let home = Array("page index.html".utf8)
        #expect(read("index.html", StableHash.ofContent(home)) == home)
        #expect(read("index.html", StableHash.ofContent(home) &+ 1) == nil)
        #expect(read("a/index.html", StableHash.ofContent(Array("page a/index.html".utf8))) == nil)
        #expect(read("b/index.html", StableHash.ofContent(Array("page b/index.html".utf8))) == nil)
        #expect(read("c/index.html", 0) == nil)
    }
}

/// The output folder on disk answers for many paths at once, on all cores, what it answers for
/// each alone: files with sizes, folders, links on the way or at the place, files on the way.
@Suite("Output folder lookups")
struct OutputFolderLookupTests {
    @Test("entries(at:) equals entry(at:) path by path, in plan order, whatever is in the way")
    func batchEqualsSingle() throws {
        let site = try SiteFixture("""
            -- out/index.html --
            home
            -- out/posts/a/index.html --
            post a
            -- out/posts/b/index.html --
            b
            -- out/tags/t/page/2/index.html --
            tag page
            -- elsewhere/x/index.html --
            not ours
            """)
        let out = site.directory.appending(path: "out")
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "journal").path, withDestinationPath: site.directory.appending(path: "elsewhere").path)
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "posts/c").path, withDestinationPath: "a")
        try FileManager.default.createSymbolicLink(atPath: out.appending(path: "tags/t/page/2/old.html").path, withDestinationPath: "index.html")
        #expect(mkfifo(out.appending(path: "posts/b/feed.xml").path, 0o644) == 0)
        // Neighbours share folders: a path after one that failed on the way, or that goes
        // through a folder whose name starts like the one before, is looked at on its own.
        let paths = [
            "index.html", "posts/a/index.html", "posts/b/index.html", "posts/b/feed.xml", "posts/c/index.html", "posts/c/2.html",
            "posts/d/index.html", "posts/a/index.html/x.html", "posts", "journal/x/index.html", "tags/t/page/2/index.html",
            "tags/t/page/2/old.html", "tags/t/page/20/index.html", "tags/t/page/3/index.html", "search/index.html", "index.html/a",
        ]
        let folder = OutputFolder(directory: out)
        let batch = folder.entries(at: paths)
        #expect(batch == paths.map { folder.entry(at: $0) })
        #expect(batch == [
            .file(size: 5), .file(size: 7), .file(size: 2), .blocked(at: "posts/b/feed.xml"), .link(at: "posts/c"), .link(at: "posts/c"),
            .absent, .blocked(at: "posts/a/index.html"), .folder, .link(at: "journal"), .file(size: 9),
            .link(at: "tags/t/page/2/old.html"), .absent, .absent, .absent, .blocked(at: "index.html"),
        ])
        #expect(OutputFolder(directory: site.directory.appending(path: "missing")).entries(at: ["index.html"]) == [.absent])
    }
}

/// Staged files are renamed into place by the commit: a reader never sees half a page, and a
/// hard link's other name is never written through.
/// A value a fault rule sets from inside a commit.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite("Output folder commits")
struct OutputFolderCommitTests {
    @Test("nothing changes until the commit; then each page is a new file, and a hard link's other name keeps its bytes")
    func stagedThenRenamed() throws {
        let site = try SiteFixture("""
            -- out/a/index.html --
            old a, longer than the new one
            -- out/b/index.html --
            old b
            -- out/gone/index.html --
            stale
            -- elsewhere/secret.txt --
            not the output's
            """)
        let out = site.directory.appending(path: "out")
        // b has a second name outside the output folder: writing through it would change that file.
        let secret = site.directory.appending(path: "elsewhere/secret.txt")
        try FileManager.default.removeItem(at: out.appending(path: "b/index.html"))
        try FileManager.default.linkItem(at: secret, to: out.appending(path: "b/index.html"))
        let paths = ["a/index.html", "b/index.html", "c/index.html"]
        let before = site.tree("out")

        let folder = OutputFolder(directory: out)
        for path in paths { try folder.stage(Array("new \(path)".utf8), at: path, replacing: false) }
        #expect(folder.stageRemoval("gone/index.html"))
        var staged = site.tree("out")
        staged = staged.filter { !$0.key.hasPrefix(".daybook-tmp") }
        #expect(staged == before)
        try folder.commit()
        folder.clearTemporaries()
        #expect(paths.map { site.read("out/" + $0) } == paths.map { "new \($0)" })
        #expect(site.read("out/gone/index.html") == nil)
        #expect(!FileManager.default.fileExists(atPath: out.appending(path: "gone").path))
        #expect(site.read("elsewhere/secret.txt") == "not the output's\n")
        #expect(Set(site.tree("out").keys) == Set(paths))
    }
}
