import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// CONTRACT §6: a build that exits 0 gives an output `check` passes, whatever links content
/// Markdown holds; a target the site cannot keep is shown as text, with a warning at its item.
@Suite("Markdown links, built")
struct MarkdownLinkBuildTests {
    @Test("relative, fragment and dead targets become text with a warning; site paths are written under a /blog/ root, and check passes")
    func deadLinks() async throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/blog/
            -- content/prompts.json --
            [{"id": "q1", "title": "One", "date": "2026-11-21", "body": "[home](/) [dead](/nowhere/) [rel](x.png) [frag](#top) ![pic](/images/a.txt)"}]
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
            "content/prompts.json:1:9: warning: link 'x.png' in prompt 'q1' \(relative); it is shown as plain text",
            "content/users.json:1:9: warning: link '/users/v/' in user 'u' names no page or file of this site; it is shown as plain text",
        ])
        let entry = site.read("output/journal/q1/index.html") ?? ""
        #expect(entry.contains("<a href=\"/blog/\">home</a> dead rel frag <img src=\"/blog/images/a.txt\" alt=\"pic\" />"))
        let report = await SiteChecker().check(FolderSource(directory: site.directory.appending(path: "output")))
        #expect(report.diagnostics.map(\.description) == [])
    }
}
