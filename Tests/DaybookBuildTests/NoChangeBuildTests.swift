@testable import DaybookBuild
import DaybookIncremental
import DaybookModel
import DaybookTestSupport
import Foundation
import Synchronization
import Testing

/// Issue 14: a build that provably changes nothing stops after stat'ing its inputs and outputs
/// (`NoChangeRecord`), and reports exactly what a full no-change build reports. Every change that
/// could alter the output makes the next build a full one, equal to a fresh build.
@Suite("No-change builds")
struct NoChangeBuildTests {
    static let now = "2026-11-21T12:00:00Z"

    /// Every feed has an entry (so the output does not depend on the exact now), a post comes due
    /// at 15:00, today's prompt is q2, and a sent prompt names a missing prompt (a warning).
    static let archive = """
        -- site.yml --
        title: Quiet
        baseURL: https://example.org/
        -- content/users.json --
        [{"id": "ana", "name": "Ana"}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-20T09:00:00Z", "caption": "aaa #sea"},
          {"id": "p2", "author": "ana", "createdAt": "2026-11-21T15:00:00Z", "caption": "later"},
          {"id": "p3", "author": "ana", "createdAt": "2026-11-19T09:00:00Z", "caption": "draft", "draft": true}
        ]
        -- content/comments.json --
        [{"id": "c1", "postId": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "text": "Nice"}]
        -- content/prompts.json --
        [{"id": "q1", "title": "One"}, {"id": "q2", "title": "Two"}]
        -- content/sent-prompts.json --
        [
          {"id": "s1", "promptId": "q1", "sentAt": "2026-11-20T08:00:00Z"},
          {"id": "s2", "promptId": "q2", "sentAt": "2026-11-21T08:00:00Z"},
          {"id": "s3", "promptId": "gone", "sentAt": "2026-11-19T08:00:00Z"}
        ]
        """

    static func options(_ site: SiteFixture, now: String = now, output: String = "output", future: Bool = false, drafts: Bool = false)
        -> BuildOptions
    {
        BuildOptions(
            siteDirectory: site.directory, outputDirectory: site.directory.appending(path: output), now: Fixed.at(now),
            includeFuture: future, includeDrafts: drafts)
    }

    /// Builds with no racy window: fixture files are milliseconds old, and the window's own rule
    /// is tested with the real one (`racyAndDamaged`).
    static func build(_ options: BuildOptions) async -> BuildResult { await SiteBuilder(racyWindow: 0).build(options) }

    static func replayed(_ result: BuildResult) -> Bool { result.phases.map(\.name) == ["read"] }

    static func withoutTime(_ line: String) -> String { line.replacing(#/ · [0-9.]+ s$/#, with: "") }

    /// The record the site's memo keeps, as text; `nil` when it keeps none.
    static func record(_ site: SiteFixture) -> String? {
        MemoFile.open(site: site.directory, maxBytes: MemoPlace.maxBytes)
            .flatMap { MemoTable(storage: $0).value(NoChangeRecord.step, 0, version: 0) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Files `text` as the record in the site's memo, or removes the record (`nil`).
    static func setRecord(_ site: SiteFixture, _ text: String?) {
        let place = MemoPlace.site(site.directory, faults: .none)
        var table = place.load()
        if let text { table.store(NoChangeRecord.step, 0, version: 0, value: Array(text.utf8)) } else { table.retain(NoChangeRecord.step, ids: []) }
        #expect(place.save(.container(table.prepared())) == nil)
    }

    /// Sites built once each (so each has a record).
    static func builtSites(_ count: Int, archive: String = archive) async throws -> [SiteFixture] {
        let sites = try (0..<count).map { _ in try SiteFixture(archive) }
        for site in sites {
            let first = await build(options(site))
            #expect(first.succeeded)
            #expect(record(site) != nil, "no record after a first build")
        }
        return sites
    }

    @Test("a second build with nothing changed replays the first: the same warnings, counts and summary, nothing written")
    func replay() async throws {
        let site = try #require(try await Self.builtSites(1).first)
        let before = site.tree("output")
        let second = await Self.build(Self.options(site))
        #expect(Self.replayed(second))
        Self.setRecord(site, nil)
        #expect(Self.record(site) == nil)
        let full = await Self.build(Self.options(site))
        #expect(!Self.replayed(full))
        #expect(second.diagnostics == full.diagnostics)
        #expect(second.diagnostics.map(\.description) == [
            "content/sent-prompts.json:4:10: warning: sent prompt 's3' names prompt 'gone', which does not exist; it is shown as a placeholder"
        ])
        #expect(Self.withoutTime(BuildSummary.line(second)) == Self.withoutTime(BuildSummary.line(full)))
        #expect(Self.withoutTime(BuildSummary.line(second)) == "no list changed · 14 pages · images 0 encoded, 0 reused · files 0 written, 31 unchanged, 0 removed · 1 warning")
        #expect(site.tree("output") == before)
    }

    @Test("each change that could alter the output makes a full build, equal to a fresh one")
    func invalidations() async throws {
        typealias Change = (name: String, change: (SiteFixture) throws -> Void, options: (SiteFixture) -> BuildOptions)
        let same: (SiteFixture) -> BuildOptions = { Self.options($0) }
        let changes: [Change] = [
            ("caption edited, same size", { try $0.write("content/posts.json", ($0.read("content/posts.json") ?? "").replacing("aaa", with: "bbb")) }, same),
            ("file touched, same bytes", { try $0.write("content/users.json", $0.read("content/users.json") ?? "") }, same),
            ("output page deleted", { try FileManager.default.removeItem(at: $0.directory.appending(path: "output/posts/p1/index.html")) }, same),
            ("output page replaced by a link", { site in
                let page = site.directory.appending(path: "output/posts/p1/index.html")
                try FileManager.default.removeItem(at: page)
                try FileManager.default.createSymbolicLink(atPath: page.path, withDestinationPath: "../../404.html")
            }, { var o = Self.options($0); o.force = true; return o }),
            ("a build killed while writing (its intent left, a page rewritten to other bytes of the same size)", { site in
                let page = "output/posts/p1/index.html"
                let bytes = Array((site.read(page) ?? "").utf8).map { $0 == UInt8(ascii: "a") ? UInt8(ascii: "b") : $0 }
                try site.write(page, String(decoding: bytes, as: UTF8.self))
                try site.write("output/" + OutputWriter.intentName, "daybook-manifest 1\n")
            }, same),
            ("a new file under content/", { try $0.write("content/notes.txt", "hello") }, same),
            ("the theme overridden", { try $0.write("Templates/style.css", "body { color: red; }") }, same),
            ("site.yml edited", { try $0.write("site.yml", ($0.read("site.yml") ?? "").replacing("Quiet", with: "Loud!")) }, same),
            ("now crosses midnight", { _ in }, { Self.options($0, now: "2026-11-22T00:30:00Z") }),
            ("a post comes due", { _ in }, { Self.options($0, now: "2026-11-21T15:00:00Z") }),
            ("now goes back", { _ in }, { Self.options($0, now: "2026-11-21T07:00:00Z") }),
            ("--future", { _ in }, { Self.options($0, future: true) }),
            ("--drafts", { _ in }, { Self.options($0, drafts: true) }),
        ]
        let sites = try await Self.builtSites(changes.count)
        for (site, change) in zip(sites, changes) {
            try change.change(site)
            let options = change.options(site)
            let rebuilt = await Self.build(options)
            #expect(rebuilt.succeeded, "\(change.name): \(rebuilt.diagnostics)")
            #expect(!Self.replayed(rebuilt), "\(change.name) was replayed")
            var fresh = options
            fresh.outputDirectory = site.directory.appending(path: "fresh")
            _ = await Self.build(fresh)
            var built = site.tree("output")
            var expected = site.tree("fresh")
            built[".daybook-manifest"] = nil
            expected[".daybook-manifest"] = nil
            #expect(built == expected, "\(change.name): the output differs from a fresh build")
        }
    }

    @Test("outputs whose names the record encodes (a space, a percent sign) replay; a page grown by a byte, or a file for a folder, does not")
    func outputLines() async throws {
        let sites = try await Self.builtSites(3, archive: Self.archive + "\n-- content/files/a b%c.txt --\nnotes\n")
        #expect(sites[0].read("output/files/a b%c.txt") == "notes\n")
        #expect(Self.record(sites[0])?.contains("out 6 files/a%20b%25c.txt") == true)
        #expect(Self.replayed(await Self.build(Self.options(sites[0]))))

        try sites[1].write("output/posts/p1/index.html", (sites[1].read("output/posts/p1/index.html") ?? "") + " ")
        let grown = await Self.build(Self.options(sites[1]))
        #expect(!Self.replayed(grown))
        #expect(grown.report?.written == 1)

        try FileManager.default.removeItem(at: sites[2].directory.appending(path: "output/files"))
        try sites[2].write("output/files", "a file where a folder was")
        #expect(!Self.replayed(await Self.build(Self.options(sites[2]))))
    }

    @Test("a page's folder moved away and replaced by a link to it is not replayed: the build stops at the link")
    func folderLink() async throws {
        let site = try #require(try await Self.builtSites(1).first)
        let folder = site.directory.appending(path: "output/posts/p1")
        let moved = site.directory.appending(path: "moved-p1")
        try FileManager.default.moveItem(at: folder, to: moved)
        try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: moved.path)
        // Through the link, every recorded file is still there with its size.
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "index.html").path))
        let rebuilt = await Self.build(Self.options(site))
        #expect(!Self.replayed(rebuilt))
        #expect(!rebuilt.succeeded)
        #expect(rebuilt.diagnostics.contains { $0.message.contains("posts/p1") && $0.message.contains("symbolic link") })
    }

    @Test("the window: the same day before the next post comes due replays; a build whose empty feed is dated by now replays only at that now")
    func window() async throws {
        let site = try #require(try await Self.builtSites(1).first)
        #expect(Self.replayed(await Self.build(Self.options(site, now: "2026-11-21T14:59:59Z"))))

        let index = try #require(try await Self.builtSites(1, archive: IndexSite.archive).first)
        #expect(Self.replayed(await Self.build(Self.options(index))))
        let later = await Self.build(Self.options(index, now: "2026-11-21T12:00:01Z"))
        #expect(!Self.replayed(later))
        #expect(later.report?.written ?? 0 > 0)  // the empty comment feeds carry the new now
    }

    @Test("files changed within the racy window leave no record; a damaged record is a full build")
    func racyAndDamaged() async throws {
        // Files written just now, under the real two-second window.
        let fresh = try SiteFixture(Self.archive)
        _ = await SiteBuilder().build(Self.options(fresh))
        #expect(Self.record(fresh) == nil)
        #expect(!Self.replayed(await SiteBuilder().build(Self.options(fresh))))

        let site = try #require(try await Self.builtSites(1).first)
        let record = try #require(Self.record(site))
        for damage in ["", "daybook-build-record 1\n", String(record.dropLast(40)), record.replacing("out ", with: "out x "),
                       record.replacing(#/out [0-9]+ /#, with: "out 1 ../../etc/passwd%20")]
        {
            Self.setRecord(site, damage)
            let result = await Self.build(Self.options(site))
            #expect(result.succeeded)
            #expect(!Self.replayed(result), "damage \(damage.prefix(60)) was replayed")
        }
    }

    @Test("a source edited while the build runs, after the build read it: the next build is not replayed and shows the edit")
    func editedDuringTheBuild() async throws {
        let site = try #require(try await Self.builtSites(1).first)
        try site.write("content/posts.json", try #require(site.read("content/posts.json")).replacing("aaa #sea", with: "bbb #sea"))
        // The edit the build reads, then another while it renders, of the same file.
        var options = Self.options(site)
        let edited = Mutex(false)
        options.progress = { progress in
            guard progress.phase == "render and write", !edited.withLock({ $0 }) else { return }
            edited.withLock { $0 = true }
            try? site.write("content/posts.json", (site.read("content/posts.json") ?? "").replacing("bbb #sea", with: "ccc #sea"))
        }
        let during = await Self.build(options)
        #expect(during.succeeded)
        #expect(edited.withLock { $0 })
        #expect(site.read("output/posts/p1/index.html")?.contains("bbb") == true)
        let next = await Self.build(Self.options(site))
        #expect(!Self.replayed(next))
        #expect(site.read("output/posts/p1/index.html")?.contains("ccc") == true)
        #expect(Self.replayed(await Self.build(Self.options(site))))
    }
}
