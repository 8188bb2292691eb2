@testable import DaybookBuild
import DaybookCheck
@testable import DaybookIncremental
import DaybookModel
@testable import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// CONTRACT §6: a build that exits 0 gives an output `check` passes, whatever links content
/// Markdown holds; a target the site cannot keep is shown as text, with a warning at its item.
@Suite("Markdown links, built")
struct MarkdownLinkBuildTests {
    @Test("relative, fragment and dead targets become text with a warning, full URLs under the site's address too; site paths are written under a /blog/ root, and check passes")
    func deadLinks() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/blog/
            -- content/prompts.json --
            [{"id": "q1", "title": "One", "date": "2026-11-21", "body": "[home](/) [dead](/nowhere/) [rel](x.png) [frag](#top) ![pic](/images/a.txt) [full](https://example.org/blog/journal/) [gone](https://example.org/blog/old.html) [elsewhere](https://example.org/old.html)"}]
            -- content/users.json --
            [{"id": "u", "bio": "[me](/users/u/) [gone](/users/v/)"}]
            -- content/images/a.txt --
            not an image, but a file the site publishes
            """)
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z")))
        #expect(result.succeeded)
        let relative = "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL"
        #expect(result.diagnostics.map(\.description) == [
            "content/prompts.json:1:9: warning: link '#top' in prompt 'q1' is a #fragment, which the build cannot check; link a page from the site root or a full URL; it is shown as plain text",
            "content/prompts.json:1:9: warning: link '/nowhere/' in prompt 'q1' names no page or file of this site; it is shown as plain text",
            "content/prompts.json:1:9: warning: link 'https://example.org/blog/old.html' in prompt 'q1' names no page or file of this site; it is shown as plain text",
            "content/prompts.json:1:9: warning: link 'x.png' in prompt 'q1' \(relative); it is shown as plain text",
            "content/users.json:1:9: warning: link '/users/v/' in user 'u' names no page or file of this site; it is shown as plain text",
        ])
        let entry = site.read("output/journal/q1/index.html") ?? ""
        #expect(entry.contains(
            "<a href=\"/blog/\">home</a> dead rel frag <img src=\"/blog/images/a.txt\" alt=\"pic\" /> <a href=\"https://example.org/blog/journal/\">full</a> gone <a href=\"https://example.org/old.html\">elsewhere</a>"))
        let report = await SiteChecker().check(FolderSource(directory: site.directory.appending(path: "output")))
        #expect(report.diagnostics.map(\.description) == [])
    }

    @Test("each text's link targets are kept for the next build, judged again against its files; a damaged file is parsed anew")
    func keptTargets() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            -- content/prompts.json --
            [{"id": "q1", "title": "One", "date": "2026-11-21", "body": "[v](/users/v/) [w](/users/w/) [u](/users/u/)"}]
            -- content/users.json --
            [{"id": "u"}]
            """)
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z"))
        func warnings() async -> [String] { await SiteBuilder().build(options).diagnostics.map(\.description) }
        func dead(_ ids: [String]) -> [String] {
            ids.map { "content/prompts.json:1:9: warning: link '/users/\($0)/' in prompt 'q1' names no page or file of this site; it is shown as plain text" }
        }
        let first = await warnings()
        #expect(first == dead(["v", "w"]))
        // Kept in the memo, under a hash of the text.
        let path = ".daybook-cache/memo"
        let saved = try #require(FileManager.default.contents(atPath: site.directory.appending(path: path).path))
        var memo = MemoTable(container: Array(saved.dropFirst(CacheFile.identity.count))[...])
        #expect(MarkdownStep.targets(of: ["[v](/users/v/) [w](/users/w/) [u](/users/u/)"], memo: &memo).values.first == ["/users/v/", "/users/w/", "/users/u/"])
        #expect(!memo.changed)

        // A person gains a page: the kept targets are judged against the new files.
        try site.write("content/users.json", #"[{"id": "u"}, {"id": "v"}]"#)
        let second = await warnings()
        #expect(second == dead(["w"]))
        // Damaged, the memo is no cache: the texts are parsed again, and it is written anew.
        try Data(saved.dropLast(2)).write(to: site.directory.appending(path: path))
        try site.write("content/users.json", #"[{"id": "u"}, {"id": "w"}]"#)
        let third = await warnings()
        #expect(third == dead(["v"]))
        let rewritten = try #require(FileManager.default.contents(atPath: site.directory.appending(path: path).path))
        var again = MemoTable(container: Array(rewritten.dropFirst(CacheFile.identity.count))[...])
        #expect(MarkdownStep.targets(of: ["[v](/users/v/) [w](/users/w/) [u](/users/u/)"], memo: &again).values.first == ["/users/v/", "/users/w/", "/users/u/"])
        #expect(!again.changed)
    }
}
