import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// A missing image is said only of posts the build shows: a hidden draft's does not fail `--strict`.
@Suite("Drafts and missing images")
struct DraftImageTests {
    static let archive = """
        -- site.yml --
        baseURL: https://example.org/
        -- content/users.json --
        [{"id": "ana", "name": "Ana"}]
        -- content/posts.json --
        [
          {"id": "shown", "author": "ana", "createdAt": "2026-11-20T09:00:00Z", "caption": "hi"},
          {"id": "later", "author": "ana", "createdAt": "2026-11-19T09:00:00Z", "image": "images/gone.jpg", "draft": true}
        ]
        """

    @Test("without --drafts a draft's missing image is not reported and --strict passes; with --drafts it is a warning")
    func draftImage() async throws {
        let site = try SiteFixture(Self.archive)
        let hidden = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z"), strict: true))
        #expect(hidden.succeeded)
        #expect(hidden.diagnostics.map(\.description) == [])
        let shown = await SiteBuilder().build(BuildOptions(
            siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z"), includeDrafts: true))
        #expect(shown.diagnostics.map(\.description) == [
            "content/posts.json:3:82: warning: image 'content/images/gone.jpg' does not exist; the post is shown without it"
        ])
        #expect(site.read("output/posts/later/index.html")?.contains("<img") == false)
    }
}
