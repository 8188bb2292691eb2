@testable import DaybookBuild
import DaybookFeed
import DaybookIncremental
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// Issue 4: output that is always whole, incremental and deterministic.
@Suite("Incremental builds")
struct IncrementalBuildTests {
    func build(_ site: SiteFixture, force: Bool = false) async -> BuildResult {
        await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now), force: force))
    }

    func modificationDates(_ site: SiteFixture) throws -> [String: Date] {
        let output = site.directory.appending(path: "output")
        var dates: [String: Date] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: output.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: output.appending(path: path).path)
            if attributes[.type] as? FileAttributeType == .typeRegular, path != OutputWriter.manifestName {
                dates[path] = attributes[.modificationDate] as? Date
            }
        }
        return dates
    }

    func changes(_ result: BuildResult) -> [String: String] {
        Dictionary(uniqueKeysWithValues: result.listChanges.filter { !$0.diff.isEmpty }.map { name, diff in
            (name, "+\(diff.inserted.joined(separator: ",")) -\(diff.removed.joined(separator: ",")) ~\(diff.updated.joined(separator: ","))")
        })
    }

    /// Expects `site`'s output to be what a fresh build of its sources writes, the record aside.
    func expectFreshOutput(_ site: SiteFixture, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        let fresh = try SiteFixture("")
        for (path, data) in site.tree("") where !path.hasPrefix("output/") && !path.hasPrefix(".daybook-cache/") { try fresh.write(path, bytes: data) }
        #expect(await build(fresh).succeeded, sourceLocation: sourceLocation)
        var (a, b) = (site.tree("output"), fresh.tree("output"))
        (a[OutputWriter.manifestName], b[OutputWriter.manifestName]) = (nil, nil)
        #expect(a == b, sourceLocation: sourceLocation)
    }

    @Test("a second build with no change writes nothing and leaves every modification time")
    func noChange() async throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = await build(site)
        let before = try modificationDates(site)
        try await Task.sleep(for: .milliseconds(20))
        let second = await build(site)
        #expect(second.report?.written == 0)
        #expect(second.listChanges.allSatisfy { $0.diff.isEmpty })
        #expect(try modificationDates(site) == before)
    }

    @Test("serve's reload hook runs once the edited and removed pages and the record are in place, the intent gone")
    func writtenHook() async throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = await build(site)
        let record = try #require(site.read("output/" + OutputWriter.manifestName))
        let posts = try #require(site.read("content/posts.json"))
        try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: #""caption": "plain, edited""#)
            .split(separator: "\n").filter { !$0.contains("\"p5\"") }.joined(separator: "\n"))
        let seen = Seen()
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        let session = BuildSession(memo: ProcessMemo(site: site.directory)) { report, baseURL in
            seen.add("\(baseURL) wrote \(report.writtenPaths.contains("posts/p6/index.html")) removed \(report.removedPaths)")
            seen.add("page edited: \(site.read("output/posts/p6/index.html")?.contains("plain, edited") == true)")
            seen.add("page removed: \(site.read("output/posts/p5/index.html") == nil)")
            seen.add("record as before: \(site.read("output/" + OutputWriter.manifestName) == record)")
            seen.add("intent on disk: \(site.read("output/" + OutputWriter.intentName) != nil)")
        }
        let result = await SiteBuilder().build(options, session: session)
        #expect(result.succeeded)
        #expect(seen.lines == [
            "https://example.org/blog/ wrote true removed [\"posts/p5/index.html\", \"tags/日本/index.html\"]",
            "page edited: true", "page removed: true", "record as before: false", "intent on disk: false",
        ])
        #expect(site.read("output/" + OutputWriter.manifestName) != record)
        #expect(site.read("output/" + OutputWriter.intentName) == nil)
    }

    @Test("a preview after a daybook build into the same folder writes the pages that build changed back, and no other")
    func previewKeysNeedItsOwnRecord() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let store = ProcessMemo(site: site.directory)
        func preview() async -> BuildResult {
            await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now)), session: BuildSession(memo: store))
        }
        let posts = try #require(site.read("content/posts.json"))
        let edit = posts.replacing(#""caption": "plain""#, with: #""caption": "plain, edited""#)
        _ = await preview()
        try site.write("content/posts.json", edit)
        let edited = await preview()
        let expected = [
            "locations/évora/index.html", "posts/p6/index.html", "search/d/0.json", "search/l/0.json", "search/p/0.json", "timeline/page/3/index.html",
            "users/zoe/page/2/index.html",
        ]
        #expect(edited.report?.writtenPaths.sorted() == expected)
        // `daybook build` puts the caption back into the same folder: the record there is no longer
        // the preview's, and the pages it wrote read the caption as it was.
        try site.write("content/posts.json", posts)
        _ = await build(site)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, edited") == false)
        try site.write("content/posts.json", edit)
        let again = await preview()
        #expect(again.report?.writtenPaths.sorted() == expected)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, edited") == true)
    }

    @Test("under serve, a caption edit versions only the edited post again, a person renamed versions every post again, and a command-line build takes no post's versions from before")
    func postVersionsFromTheLastBuild() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let session = BuildSession(memo: ProcessMemo(site: site.directory))
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        func edit(_ file: String, _ old: String, _ new: String) throws {
            try site.write(file, try #require(site.read(file)).replacing(old, with: new))
        }
        let first = await SiteBuilder().build(options, session: session)
        #expect(first.succeeded && first.postVersionsReused == 0)
        // p1 to p6 show (p7 is in the future); posts.json is read again whole, its posts of the
        // same content keep their versions.
        try edit("content/posts.json", #""caption": "plain""#, #""caption": "plain words""#)
        #expect(await SiteBuilder().build(options, session: session).postVersionsReused == 5)
        try edit("content/users.json", #""name": "Dan""#, #""name": "Daniel""#)
        #expect(await SiteBuilder().build(options, session: session).postVersionsReused == 0)
        try edit("content/posts.json", #""caption": "plain words""#, #""caption": "plain""#)
        #expect(await SiteBuilder().build(options, session: session).postVersionsReused == 5)
        // What the preview wrote is what a fresh build writes.
        try await expectFreshOutput(site)
        try edit("content/posts.json", #""caption": "plain""#, #""caption": "plain, again""#)
        #expect(await build(site).postVersionsReused == 0)
    }

    /// Lines a hook reports from another task.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var _lines: [String] = []
        func add(_ line: String) { lock.withLock { _lines.append(line) } }
        var lines: [String] { lock.withLock { _lines } }
    }

    @Test("a rebuild keeps unchanged pages with the key the last table holds: after a caption edit (each page found by its place, the home, search and 404 pages among them) and a new post (by its path), not after a settings edit; a preview keeps them without asking the record")
    func keysFromTheTable() async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).pagesKeptByTable.count == 0)
        func edit(_ file: String, _ old: String, _ new: String) throws {
            try site.write(file, try #require(site.read(file)).replacing(old, with: new))
        }
        // A caption: the pages that read p6 are built, every other is kept with the key it had.
        try edit("content/posts.json", #""caption": "plain""#, #""caption": "plain words""#)
        let caption = await build(site)
        #expect(caption.pagesKeptByTable.count > caption.pageCount / 2 && caption.pagesKeptByTable.count < caption.pageCount)
        #expect(!caption.pagesKeptByTable.trusted)
        #expect(caption.pagesKeptByTable.byPlace)
        // A new post moves every page after it in the plan: the pages are found by their path.
        try edit("content/posts.json", "[\n", #"[\#n  {"id": "p0", "author": "dan", "createdAt": "2026-11-15T01:00:00Z", "caption": "first"},\#n"#)
        let added = await build(site)
        #expect(added.pagesKeptByTable.count > added.pageCount / 2)
        #expect(!added.pagesKeptByTable.byPlace)
        // The settings are in every page's key: none is kept by the table.
        try edit("site.yml", "title: Indexes", "title: Indices")
        let settings = await build(site)
        #expect(settings.succeeded && settings.pagesKeptByTable.count == 0)
        // A preview holds the table with the record it wrote: from its second build on, it trusts it.
        let session = BuildSession(memo: ProcessMemo(site: site.directory))
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        #expect(await SiteBuilder().build(options, session: session).pagesKeptByTable.trusted == false)
        try edit("content/posts.json", #""caption": "plain words""#, #""caption": "plain""#)
        let preview = await SiteBuilder().build(options, session: session)
        #expect(preview.pagesKeptByTable.trusted && preview.pagesKeptByTable.count > preview.pageCount / 2)
        #expect(preview.pagesKeptByTable.byPlace)
        // What the preview wrote is what a fresh build writes.
        try await expectFreshOutput(site)
    }

    @Test("deleting a post removes its page and a tag page only it used, and updates what showed it")
    func deletePost() async throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = await build(site)
        #expect(site.read("output/tags/日本/index.html") != nil)
        // p5 is the only post tagged #日本, and the only post by bea.
        let posts = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains("\"p5\"") }
        try site.write("content/posts.json", posts.joined(separator: "\n"))
        let result = await build(site)
        #expect(site.read("output/posts/p5/index.html") == nil)
        #expect(site.read("output/tags/日本/index.html") == nil)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/tags/日本").path))
        #expect(HTMLProbe.dataIDs(site.read("output/tags/sea/page/2/index.html") ?? "") == ["p4"])
        #expect(HTMLProbe.dataIDs(site.read("output/timeline/page/3/index.html") ?? "") == ["p6"])
        #expect(result.report?.removedPaths == ["posts/p5/index.html", "tags/日本/index.html"])
        #expect(changes(result) == ["timeline": "+ -p5 ~", "tags": "+ -日本 ~sea", "users": "+ - ~bea"])
    }

    @Test("the change report counts a scripted sequence of edits exactly")
    func scriptedEdits() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let first = await build(site)
        #expect(BuildSummary.line(first).hasPrefix("journal +4 · timeline +6 · tags +4 · users +5 · locations +3 · "))

        // 1. A new post with a new tag, and a caption edit.
        var posts = try #require(site.read("content/posts.json"))
        posts = posts.replacing(#""caption": "plain""#, with: #""caption": "plain, edited""#)
        posts = posts.replacing("[\n", with: "[\n" + ##"  {"id": "p0", "author": "al", "createdAt": "2026-11-21T02:00:00Z", "caption": "#brandnew"},"## + "\n")
        try site.write("content/posts.json", posts)
        let second = await build(site)
        // Zoë's list and Évora's hold the same posts as before: only the timeline item p6 changed.
        #expect(changes(second) == ["timeline": "+p0 - ~p6", "tags": "+brandnew - ~", "users": "+ - ~al"])
        #expect(BuildSummary.line(second).hasPrefix("timeline +1 ~1 · tags +1 · users ~1 · "))

        // 2. A prompt's body edited, and a sending removed.
        var prompts = try #require(site.read("content/prompts.json"))
        prompts = prompts.replacing("Some *text*.", with: "Other text.")
        try site.write("content/prompts.json", prompts)
        let sent = try #require(site.read("content/sent-prompts.json")).split(separator: "\n").filter { !$0.contains("\"s4\"") }
        try site.write("content/sent-prompts.json", sent.joined(separator: "\n").replacing("\"2026-11-21T08:00:00Z\"},", with: "\"2026-11-21T08:00:00Z\"}"))
        let third = await build(site)
        #expect(changes(third) == ["journal": "+ -q3 ~q2"])
        #expect(third.report?.removedPaths == ["journal/q3/index.html"])
        #expect(BuildSummary.line(third).hasPrefix("journal −1 ~1 · "))

        // 3. Nothing.
        let fourth = await build(site)
        #expect(BuildSummary.line(fourth).hasPrefix("no list changed · "))
        #expect(fourth.report?.written == 0)

        // 4. A person's avatar: an item is versioned by what its page shows, so al's posts (whose
        // cards show it) are updates of the timeline, and al of the people.
        let users = try #require(site.read("content/users.json"))
        try site.write("content/users.json", users.replacing(#"{"id": "al", "name": "al"}"#, with: #"{"id": "al", "name": "al", "avatar": "https://images.example.org/al.png"}"#))
        let fifth = await build(site)
        #expect(changes(fifth) == ["timeline": "+ - ~p0,p2", "users": "+ - ~al"])
    }

    @Test("a hand-placed file survives, and a page that would replace one is an error naming it")
    func handPlaced() async throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("output/posts/p1/index.html", "mine")
        try site.write("output/humans.txt", "Made by hand")
        let refused = await build(site)
        #expect(!refused.succeeded)
        #expect(refused.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "output/posts/p1/index.html: error: the build would replace posts/p1/index.html, which it did not write; move it away, or pass --force to let the build own it"
        ])
        #expect(site.read("output/posts/p1/index.html") == "mine")
        #expect(site.read("output/index.html") == nil)

        let forced = await build(site, force: true)
        #expect(forced.succeeded)
        #expect(site.read("output/posts/p1/index.html")?.hasPrefix("<!doctype html>") == true)
        #expect(site.read("output/humans.txt") == "Made by hand")
        // Handed over: the build now owns it, and a third build changes nothing.
        #expect(await build(site).report?.written == 0)
    }

    @Test("a build killed mid-way is completed and cleaned up by the next one")
    func killedMidWay() async throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = await build(site)
        // Simulate a build killed while committing: it saved its intent, put one new page and the
        // rewritten home page in place (same size, other bytes: only the intent tells it apart).
        let folder = OutputFolder(directory: site.directory.appending(path: "output"))
        try folder.write(BuildManifest(files: ["posts/ghost/index.html": .intended]).bytes, to: OutputWriter.intentName, replacing: false)
        let home = try #require(site.read("output/index.html"))
        let garbled = Array(home.utf8.map { $0 == UInt8(ascii: "a") ? UInt8(ascii: "b") : $0 })
        #expect(garbled.count == home.utf8.count && garbled != Array(home.utf8))
        try folder.write(Array("half".utf8), to: "posts/ghost/index.html", replacing: false)
        try folder.write(garbled, to: "index.html", replacing: false)

        let next = await build(site)
        #expect(next.succeeded)
        #expect(site.read("output/posts/ghost/index.html") == nil)
        #expect(next.report?.removedPaths == ["posts/ghost/index.html"])
        let clean = try SiteFixture(IndexSite.archive)
        _ = await build(clean)
        #expect(site.tree("output") == clean.tree("output"))
    }

    @Test("a build killed after removing a page but before its folder leaves the folder to the next build to remove")
    func killedBetweenFileAndFolder() async throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = await build(site)
        // The next build would remove p5's page; a kill left only its emptied folder.
        let posts = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains("\"p5\"") }
        try site.write("content/posts.json", posts.joined(separator: "\n"))
        try FileManager.default.removeItem(at: site.directory.appending(path: "output/posts/p5/index.html"))
        #expect(FileManager.default.fileExists(atPath: site.directory.appending(path: "output/posts/p5").path))
        let next = await build(site)
        #expect(next.succeeded)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output/posts/p5").path))
    }

    @Test("record order inside files and across files does not change a byte")
    func readOrder() async throws {
        let a = try SiteFixture(IndexSite.archive)
        // The same posts, reversed, half of them moved to one file each.
        let lines = try #require(a.read("content/posts.json")).split(separator: "\n").filter { $0.contains("\"id\"") }
            .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
        var archive = IndexSite.archive.replacing(#/-- content/posts.json --\n\[[\s\S]*?\n\]\n/#, with: "")
        archive += "\n-- content/posts.json --\n[\n" + lines.reversed().enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: ",\n") + "\n]\n"
        for (index, line) in lines.reversed().enumerated() where index % 2 == 1 {
            archive += "-- content/posts/\(index).json --\n\(line)\n"
        }
        let b = try SiteFixture(archive)
        _ = await build(a)
        _ = await build(b)
        #expect(a.tree("output").count > 40)
        #expect(a.tree("output") == b.tree("output"))
    }
}

@Suite("build --check")
struct BuildCheckTests {
    @Test("a sound site passes the check and is written")
    func sound() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now), check: true))
        #expect(result.succeeded)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(result.report?.written == 65)
    }

    @Test("a broken link made by a template fails the build before anything is written, at the template")
    func brokenLink() async throws {
        let site = try SiteFixture(IndexSite.archive + "\n-- Templates/404.mustache --\n<h1>Lost</h1>\n<p><a href=\"{{root}}nowhere/\">x</a></p>\n")
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now), check: true))
        #expect(!result.succeeded)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "Templates/404.mustache:2:13: error: the template's link '{{root}}nowhere/' names no page or file of this site; fix the link, or add the page"
        ])
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))
    }
}

/// Rebuilds skip pages whose key did not change. Whatever is edited, the folder an incremental
/// build leaves must equal, byte for byte, a fresh build of the same sources.
@Suite("Incremental equals full")
struct IncrementalEquivalenceTests {
    typealias Edit = (String, @Sendable (SiteFixture) throws -> Void)

    static func replace(_ path: String, _ old: String, _ new: String) -> @Sendable (SiteFixture) throws -> Void {
        { site in
            let text = try #require(site.read(path))
            #expect(text.contains(old), "fixture no longer contains \(old)")
            try site.write(path, text.replacing(old, with: new))
        }
    }

    static let edits: [Edit] = [
        // Two comments on one post, so that every later edit that leaves the comments be takes
        // orders of more than one comment from the build before (`FeedStep`, through the memo).
        ("a second comment on a post", replace("content/comments.json", "[{", ##"[{"id": "c0", "postId": "p2", "author": "al", "createdAt": "2026-11-20T01:00:00Z", "text": "first"}, {"##)),
        ("caption text only", replace("content/posts.json", "at dawn with @al.", "at dusk with @al.")),
        ("caption with a new tag", replace("content/posts.json", #""caption": "plain""#, #""caption": "plain, then #sky""#)),
        ("user name", replace("content/users.json", #""name": "Zoë""#, #""name": "Zoë K.""#)),
        ("new post", replace("content/posts.json", "[\n", "[\n" + ##"  {"id": "p0", "author": "dan", "createdAt": "2026-11-21T03:00:00Z", "caption": "#new @zoe", "location": {"name": "Porto"}},"## + "\n")),
        ("comment", replace("content/comments.json", "hi @zoe", "hello @al")),
        ("prompt body", replace("content/prompts.json", "Some *text*.", "Other *text*.")),
        ("follows", replace("content/users.json", #""follows": ["al"]"#, #""follows": ["al", "dan"]"#)),
        ("template", { try $0.write("Templates/item-tag.mustache", "<a class=\"tag\" href=\"{{url}}\" data-id=\"{{dataID}}\">#{{name}} ({{countLabel}})</a>\n") }),
        ("site title", replace("site.yml", "title: Indexes", "title: Indexes, renamed")),
        ("delete post", { site in
            let lines = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains(#""id": "p5""#) }
            try site.write("content/posts.json", lines.joined(separator: "\n"))
        }),
        ("page size", replace("site.yml", "pageSize: 2", "pageSize: 3")),
        // Issue 12: responses, edits and drafts.
        ("new response", { try $0.write("content/responses/r1.md", "---\nid: r1\npromptId: q1\ncreatedAt: 2026-11-20T09:00:00Z\n---\nA *first* answer.\n") }),
        ("second response", { try $0.write("content/responses.json", #"[{"id": "r2", "promptId": "q1", "createdAt": "2026-11-19T09:00:00Z", "text": "Earlier"}]"#) }),
        ("response text", replace("content/responses/r1.md", "A *first* answer.", "A *first* answer, rewritten.")),
        ("response updatedAt", replace("content/responses/r1.md", "createdAt: 2026-11-20T09:00:00Z\n", "createdAt: 2026-11-20T09:00:00Z\nupdatedAt: 2026-11-21T10:00:00Z\n")),
        ("draft response", replace("content/responses.json", #""text": "Earlier""#, #""text": "Earlier", "draft": true"#)),
        ("prompt updatedAt", replace("content/prompts.json", #"{"id": "q3", "title": "Three"}"#, #"{"id": "q3", "title": "Three", "updatedAt": "2026-11-21T11:00:00Z"}"#)),
        ("post updatedAt", replace("content/posts.json", ##""caption": "#sky #café""##, ##""updatedAt": "2026-11-20T05:00:00Z", "caption": "#sky #café""##)),
        ("comment updatedAt", replace("content/comments.json", #"hello @al""#, #"hello @al", "updatedAt": "2026-11-21T01:00:00Z""#)),
        ("draft post on", replace("content/posts.json", #""caption": "plain"#, #""draft": true, "caption": "plain"#)),
        ("draft post off", replace("content/posts.json", #""draft": true, "caption": "plain"#, #""draft": false, "caption": "plain"#)),
        ("draft prompt on", replace("content/prompts.json", #"{"id": "q1", "title": "One"}"#, #"{"id": "q1", "title": "One", "draft": true}"#)),
        ("draft prompt off", replace("content/prompts.json", #""title": "One", "draft": true"#, #""title": "One""#)),
        ("draft comment", replace("content/comments.json", #""updatedAt": "2026-11-21T01:00:00Z""#, #""updatedAt": "2026-11-21T01:00:00Z", "draft": true"#)),
        // Issue 14: keys derived from the models. A page may change when a set it does not hold changes:
        // which users and tags have pages (what a caption or comment links), which files exist (what Markdown keeps).
        ("draft comment off", replace("content/comments.json", #", "draft": true"#, "")),
        // zoe's feeds hold her three newest posts; a comment on her fourth still shows in her comments feed.
        ("a comment on an older post", replace("content/comments.json", "[{", ##"[{"id": "c2", "postId": "p6", "author": "al", "createdAt": "2026-11-20T03:00:00Z", "text": "old one"}, {"##)),
        ("that comment edited", replace("content/comments.json", "old one", "old one, edited")),
        ("mention of no one", replace("content/comments.json", "hello @al", "hello @al and @newbie")),
        ("the mentioned user arrives", replace("content/users.json", #"{"id": "dan", "name": "Dan"}"#, #"{"id": "dan", "name": "Dan"}, {"id": "newbie"}"#)),
        ("the mentioned user leaves", replace("content/users.json", #", {"id": "newbie"}"#, "")),
        ("a tag a comment names gains a page", replace("content/posts.json", "[\n", "[\n" + ##"  {"id": "p9", "author": "dan", "createdAt": "2026-11-15T03:00:00Z", "caption": "#unused"},"## + "\n")),
        ("and loses it", { site in
            let lines = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains(#""id": "p9""#) }
            try site.write("content/posts.json", lines.joined(separator: "\n"))
        }),
        ("a bio links a post", replace("content/users.json", #"{"id": "al", "name": "al"}"#, #"{"id": "al", "name": "al", "bio": "See [this](/posts/p6/)."}"#)),
        ("the linked post goes", { site in
            let lines = try #require(site.read("content/posts.json")).split(separator: "\n").filter { !$0.contains(#""id": "p6""#) }
            try site.write("content/posts.json", lines.joined(separator: "\n"))
        }),
        ("an avatar", replace("content/users.json", #""name": "Zoë K.""#, #""name": "Zoë K.", "avatar": "https://img.example/z.jpg""#)),
        ("a place renamed", replace("content/posts.json", #""name": "Porto""#, #""name": "Porto, Portugal""#)),
        ("a prompt links a page that goes", replace("content/prompts.json", "Other *text*.", "Other *text*, see [sky](/tags/sky/).")),
        ("the tag page goes", replace("content/posts.json", "#sky", "#skies")),
        // A card kept from an earlier build (`CardStore`, under `serve`) must link a mention once its person has a page.
        ("a caption names someone not here yet", replace("content/posts.json", "at dusk with @al.", "at dusk with @al and @later.")),
        ("they arrive", replace("content/users.json", #"{"id": "dan", "name": "Dan"}"#, #"{"id": "dan", "name": "Dan"}, {"id": "later"}"#)),
    ]

    /// How the rebuilds run: as `daybook build` (its caches on disk); through a store held between
    /// builds, as `serve` builds (decoded records, comment orders, versions and the page layout kept
    /// in memory; no record cache file, no no-change record); and the same, told the paths that
    /// changed, as `serve`'s watcher names them (the last read patched with those paths alone).
    enum Rebuilds: String, CaseIterable, CustomTestStringConvertible {
        case onDisk = "on disk", held, named = "held, changed paths named"
        var testDescription: String { rawValue }
    }

    @Test("after each edit, the incremental output equals a fresh build's", arguments: Rebuilds.allCases)
    func equivalence(_ rebuilds: Rebuilds) async throws {
        let site = try SiteFixture(IndexSite.archive)
        func build(_ fixture: SiteFixture) async -> BuildResult {
            await SiteBuilder().build(BuildOptions(siteDirectory: fixture.directory, now: Fixed.at(IndexSite.now)))
        }
        func sources() -> [String: Data] { site.tree("").filter { !$0.key.hasPrefix("output/") && !$0.key.hasPrefix(".daybook-cache/") } }
        let store = ProcessMemo(site: site.directory)
        func rebuild(changed: [String]? = nil) async -> BuildResult {
            let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
            guard rebuilds != .onDisk else { return await SiteBuilder().build(options) }
            return await SiteBuilder().build(options, session: BuildSession(memo: store, changedSources: rebuilds == .named ? changed : nil))
        }
        _ = await rebuild()
        for (name, edit) in Self.edits {
            let before = sources()
            try edit(site)
            let after = sources()
            // What a watcher names: every path added, removed or written.
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            let incremental = await rebuild(changed: changed)
            // A fresh copy of the same sources, built from nothing.
            let fresh = try SiteFixture("")
            for (path, data) in site.tree("").filter({ !$0.key.hasPrefix("output/") && !$0.key.hasPrefix(".daybook-cache/") }) {
                try fresh.write(path, String(decoding: data, as: UTF8.self))
            }
            let full = await build(fresh)
            #expect(incremental.succeeded && full.succeeded, "\(name): \(incremental.diagnostics)")
            let a = site.tree("output")
            let b = fresh.tree("output")
            // The record too: page keys depend on this build's sources alone, not on the build before.
            #expect(a[".daybook-manifest"] == b[".daybook-manifest"], "\(name): the build record differs")
            #expect(a.count > 30, "\(name)")
            #expect(a == b, "\(name): \(Set(a.keys).symmetricDifference(b.keys).sorted()) \(a.keys.filter { a[$0] != b[$0] }.sorted().prefix(5))")
        }
    }
}

@Suite("Post cards kept in the memo")
struct SavedCardsTests {
    @Test("a preview's first rebuild after a new post takes the cards daybook build saved in its memo, and writes the same pages")
    func previewTakesSavedCards() async throws {
        let now = Fixed.at(IndexSite.now)
        let saved = try SiteFixture(IndexSite.archive)
        let unsaved = try SiteFixture(IndexSite.archive)
        for site in [saved, unsaved] {
            #expect(await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: now)).succeeded)
        }
        // The same memo, without its cards.
        let memoFile = unsaved.directory.appending(path: ".daybook-cache/memo")
        var table = MemoPlace.site(unsaved.directory, faults: .none).load()
        #expect(table.isRead)
        #expect((0..<64).compactMap { table.value(CardStep.cards, UInt64($0), version: 0).flatMap(CardStore.readEveryCard(archive:)) }.reduce(0, +) == 6)
        table.retain(CardStep.cards, ids: [])
        try Data(CacheFile.identity + table.encoded()).write(to: memoFile)
        // A new newest post moves every post down the timeline's pages.
        let newPost = ##"  {"id": "p0", "author": "dan", "createdAt": "2026-11-21T03:00:00Z", "caption": "new"},"##
        var rendered: [Int] = []
        for site in [saved, unsaved] {
            let posts = try #require(site.read("content/posts.json"))
            try site.write("content/posts.json", posts.replacing("[\n", with: "[\n" + newPost + "\n", maxReplacements: 1))
            let store = ProcessMemo(site: site.directory, cardsLoadAfterMisses: 1)
            #expect(await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: now), session: BuildSession(memo: store)).succeeded)
            rendered.append(store.cards?.rendered ?? -1)
        }
        // With the saved cards, the new post's card (and the one under the threshold) is all it renders.
        #expect(rendered[0] < rendered[1], "\(rendered)")
        #expect(rendered[0] <= 2, "\(rendered)")
        #expect(saved.tree("output") == unsaved.tree("output"))
    }
}

@Suite("Search files under a preview")
struct PreviewSearchLayoutTests {
    @Test("under a preview, a file named for a build that failed is read again by the next, which names only its own")
    func failedBuildNamesCarryOver() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let memo = ProcessMemo(site: site.directory)
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        func preview(_ changed: [String]) async -> BuildResult {
            await SiteBuilder().build(options, session: BuildSession(memo: memo, changedSources: changed))
        }
        #expect(await preview([]).succeeded)
        let posts = try #require(site.read("content/posts.json"))
        let config = try #require(site.read("site.yml"))
        // A caption edit and a broken site.yml in one save: the build fails, and the memo holds the read before it.
        try site.write("content/posts.json", posts.replacing(#""caption": "plain""#, with: #""caption": "plain, edited""#))
        try site.write("site.yml", config + "pageSize: many\n")
        #expect(await preview(["content/posts.json", "site.yml"]).succeeded == false)
        // The fix names site.yml alone; the caption is read all the same.
        try site.write("site.yml", config)
        #expect(await preview(["site.yml"]).succeeded)
        #expect(site.read("output/posts/p6/index.html")?.contains("plain, edited") == true)
    }

    @Test("comments that grow the search index by files, under a preview, give the files of a fresh build")
    func commentsGrowTheIndex() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let store = ProcessMemo(site: site.directory)
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        #expect(await SiteBuilder().build(options, session: BuildSession(memo: store)).succeeded)
        let before = site.tree("output").keys.filter { $0.hasPrefix("search/") }.sorted()
        // Fifteen comments: past 32 results, the index has big files and entries apart.
        let comments = (2...16).map { ##"{"id": "c\##($0)", "postId": "p1", "author": "al", "createdAt": "2026-11-20T03:00:00Z", "text": "more"}"## }
        let existing = try #require(site.read("content/comments.json")).trimmingCharacters(in: .whitespacesAndNewlines)
        try site.write("content/comments.json", existing.dropLast() + ", " + comments.joined(separator: ", ") + "]")
        // A file of the user's where a new search file goes is theirs: the build stops, as a fresh one would.
        try site.write("output/search/b/0.json", "mine")
        let refused = await SiteBuilder().build(options, session: BuildSession(memo: store))
        #expect(refused.diagnostics.filter { $0.severity == .error }.map(\.message).contains { $0.contains("search/b/0.json") }, "\(refused.diagnostics)")
        #expect(site.read("output/search/b/0.json") == "mine")
        try FileManager.default.removeItem(at: site.directory.appending(path: "output/search/b/0.json"))
        #expect(await SiteBuilder().build(options, session: BuildSession(memo: store)).succeeded)
        let fresh = try SiteFixture("")
        for (path, data) in site.tree("") where !path.hasPrefix("output/") && !path.hasPrefix(".daybook-cache/") {
            try fresh.write(path, String(decoding: data, as: UTF8.self))
        }
        #expect(await SiteBuilder().build(BuildOptions(siteDirectory: fresh.directory, now: Fixed.at(IndexSite.now))).succeeded)
        let (a, b) = (site.tree("output"), fresh.tree("output"))
        #expect(a.keys.filter { $0.hasPrefix("search/") }.sorted() != before, "the index grew")
        #expect(a == b, "\(Set(a.keys).symmetricDifference(b.keys).sorted()) \(a.keys.filter { a[$0] != b[$0] }.sorted().prefix(5))")
    }
}
