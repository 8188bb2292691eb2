import DaybookContent
import DaybookModel
import DaybookTestSupport
import Testing

/// A bad optional field is one error at that field: the item stays, without the field, so no
/// other item reports a problem that is only a consequence of it.
@Suite("Optional fields with bad values")
struct OptionalFieldTests {
    func load(_ archive: String) -> LoadedSite {
        var snapshot = ContentSnapshot()
        for (path, text) in SiteFixture.parse(archive) { snapshot.sources[path] = Array(text.utf8) }
        return ContentLoader.load(snapshot)
    }

    @Test("'follows' that is not an array: the user and their posts stay")
    func followsNotAnArray() {
        let site = load(
            """
            -- content/users.json --
            [{"id": "x", "follows": "y"}, {"id": "y"}]
            -- content/posts.json --
            [{"id": "p1", "author": "x", "createdAt": "2026-11-20T08:00:00Z"}]
            -- content/comments.json --
            [{"id": "c1", "postId": "p1", "author": "x", "createdAt": "2026-11-20T09:00:00Z", "text": "Hi"}]
            """)
        #expect(site.diagnostics.map(\.description) == [
            "content/users.json:1:25: error: 'follows' must be an array of strings, found a string"
        ])
        #expect(site.content.users.map(\.id) == ["x", "y"])
        #expect(site.content.users.first?.follows == [])
        #expect(site.content.posts.map(\.id) == ["p1"])
        #expect(site.content.comments.map(\.id) == ["c1"])
    }

    @Test("each bad optional field is reported at its value and left out; the post keeps the rest")
    func badOptionalPostFields() {
        let site = load(
            """
            -- content/users.json --
            [{"id": "u", "avatar": "", "bio": 3}]
            -- content/posts/p.md --
            ---
            id: p
            author: u
            createdAt: 2026-11-20T08:00:00Z
            tags: [sea, 4, sky]
            image: [a.png]
            location:
              name: Lisbon
              lat: 300
            ---

            A caption. #harbour
            -- content/prompts.json --
            [{"id": "q", "title": "Q", "date": "tomorrow"}]
            """)
        #expect(site.diagnostics.map(\.description) == [
            "content/posts/p.md:5:13: error: 'tags' must hold only strings, found a number",
            "content/posts/p.md:6:8: error: 'image' must be a string, found an array",
            "content/posts/p.md:9:8: error: 'location.lat' must be a number from -90 to 90",
            "content/prompts.json:1:36: error: 'date' must be a date YYYY-MM-DD such as 2026-11-21, found 'tomorrow'",
            "content/users.json:1:24: error: 'avatar' must be a path under content/ such as images/photo.jpg, or an http(s) URL; '' is neither",
            "content/users.json:1:35: error: 'bio' must be a string, found a number; put it in quotes",
        ])
        let post = site.content.posts.first
        #expect(post?.extraTags == ["sea", "sky"])
        #expect(post?.tags == ["harbour", "sea", "sky"])
        #expect(post?.image == nil)
        #expect(post?.location == Location(name: "Lisbon"))
        #expect(site.content.users.first?.avatar == nil)
        #expect(site.content.prompts.map(\.id) == ["q"])
        #expect(site.content.prompts.first?.date == nil)
    }

    @Test("a missing required field still drops the item")
    func requiredStillDrops() {
        let site = load(
            """
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "yesterday", "tags": "sea"}]
            """)
        #expect(site.diagnostics.map(\.description) == [
            "content/posts.json:1:42: error: 'createdAt' must be an RFC 3339 date-time such as 2026-11-21T08:00:00Z or 2026-11-21T09:00:00+01:00, found 'yesterday'",
            "content/posts.json:1:63: error: 'tags' must be an array of strings, found a string",
        ])
        #expect(site.content.posts.isEmpty)
    }

    @Test("follows and tags warnings point at the element, in JSON and in front matter")
    func elementPositions() {
        let site = load(
            """
            -- content/users.json --
            [{"id": "a", "follows": ["b", "ghost"]}, {"id": "b"}]
            -- content/posts/p.md --
            ---
            id: p
            author: a
            createdAt: 2026-11-20T08:00:00Z
            tags:
              - ok
              - "#no"
            ---
            """)
        #expect(site.diagnostics.map(\.description) == [
            "content/posts/p.md:7:5: warning: tag '#no' is not a hashtag (word characters with at least one letter, no '#'); ignored",
            "content/users.json:1:31: warning: user 'a' follows 'ghost', which is not a user; ignored",
        ])
        #expect(site.content.users.first?.follows == ["b"])
        #expect(site.content.posts.first?.extraTags == ["ok"])
    }

    @Test("baseURL without scheme and host: a warning at its value, or at site.yml when absent")
    func relativeBaseURL() {
        #expect(load("-- site.yml --\ntitle: T\nbaseURL: /blog/\n").config.baseURLWarnings.map(\.description) == [
            "site.yml:2:10: warning: baseURL '/blog/' has no scheme and host, so the feeds and the sitemap cannot give absolute URLs; set it to the site's address, such as 'baseURL: https://example.org/'"
        ])
        #expect(load("-- content/users.json --\n[]\n").config.baseURLWarnings.map(\.location.description) == ["site.yml"])
        #expect(load("-- site.yml --\nbaseURL: https://example.org/blog/\n").config.baseURLWarnings.isEmpty)
        #expect(load("-- site.yml --\nbaseURL: https:///blog/\n").config.baseURLWarnings.count == 1)
    }
}
