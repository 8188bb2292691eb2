@testable import DaybookContent
import DaybookModel
import DaybookTestSupport
import Testing

/// Loading from bytes: every collection from both forms, and the exact diagnostic for each kind of bad input.
@Suite("Content loading")
struct ContentLoaderTests {
    @Test("the sources are site.yml, content/<collection>.json and content/<collection>/*.{json,md}; nothing else is")
    func sourcePaths() {
        let sources = [
            "site.yml", "content/posts.json", "content/sent-prompts.json", "content/posts/a.md", "content/prompts/q 1.json",
            "content/comments/ü.md", "content/posts/x/a.md", "content/posts/2026/11/b.json",
        ]
        let others = [
            "Templates/a.json", "contents/posts.json", "content", "content/", "content/unknown.json", "content/posts.md",
            "content/posts/a.txt", "content/posts/x/a.txt", "content/images/a.jpg", "content/images/posts/a.md", "content//a.md", "content/posts/",
            "content/posts.json/x.md", "site.yml/x", "content/posts/a.md\u{301}",
        ]
        #expect(sources.filter(ContentSnapshot.isSource) == sources)
        #expect(others.filter(ContentSnapshot.isSource) == [])
    }

    @Test("a source's collection is the folder after content/, or the file's name there without .json")
    func collections() {
        let paths = [
            "content/posts.json", "content/sent-prompts.json", "content/posts/a.md", "content/comments/ü.md", "content/posts/2026/11/b.json",
            "content/prompts/q 1.json", "site.yml", "content/unknown.json", "content/images/a.jpg", "content/posts", "contents/posts.json",
        ]
        #expect(
            paths.map { ContentLoader.collection(of: $0)?.rawValue }
                == ["posts", "sent-prompts", "posts", "comments", "posts", "prompts", nil, nil, nil, nil, nil])
    }

    func load(_ archive: String) -> LoadedSite {
        var snapshot = ContentSnapshot()
        for (path, text) in SiteFixture.parse(archive) {
            if ContentSnapshot.isSource(path) { snapshot.sources[path] = Array(text.utf8) } else { snapshot.assets.insert(path) }
        }
        return ContentLoader.load(snapshot)
    }

    func messages(_ archive: String) -> [String] { load(archive).diagnostics.map(\.description) }

    @Test("every collection from JSON arrays")
    func jsonArrays() {
        let site = load(
            """
            -- content/prompts.json --
            [{"id": "p1", "title": "First", "date": "2026-11-21", "body": "Hello *you*"}]
            -- content/sent-prompts.json --
            [{"id": "s1", "promptId": "p1", "sentAt": "2026-11-20T08:00:00Z"}]
            -- content/users.json --
            [{"id": "ana", "name": "Ana", "follows": ["ben"]}, {"id": "ben"}]
            -- content/posts.json --
            [{"id": "x1", "author": "ana", "createdAt": "2026-11-20T08:00:00+01:00", "caption": "#Sea", "tags": ["Sky"],
              "location": {"name": "Lisbon", "lat": 38.72, "lon": -9.14}}]
            -- content/comments.json --
            [{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Lovely"}]
            """)
        #expect(site.diagnostics.isEmpty)
        #expect(site.content.prompts == [Prompt(id: "p1", title: "First", date: Fixed.day("2026-11-21"), body: "Hello *you*").located("content/prompts.json", 1, 9)])
        #expect(site.content.sentPrompts.map(\.promptID) == ["p1"])
        #expect(site.content.users.map(\.follows) == [["ben"], []])
        #expect(site.content.posts.first?.tags == ["sea", "sky"])
        #expect(site.content.posts.first?.location == Location(name: "Lisbon", latitude: 38.72, longitude: -9.14))
        #expect(site.content.posts.first?.createdAt == Fixed.at("2026-11-20T07:00:00Z"))
        #expect(site.content.comments.map(\.text) == ["Lovely"])
    }

    @Test("every collection from per-item Markdown and JSON files, mixed with arrays")
    func perItemFiles() {
        let site = load(
            """
            -- content/prompts/p1.md --
            ---
            id: p1
            title: "First: a question"
            date: 2026-11-21
            ---

            Body line one.

            Body line two.

            -- content/prompts/p2.json --
            {"id": "p2", "title": "Second"}
            -- content/sent-prompts/s1.md --
            ---
            id: s1
            promptId: p1
            sentAt: 2026-11-20T08:00:00Z
            ---
            -- content/users/ana.md --
            ---
            id: ana
            follows: [ben]
            ---
            I take pictures.
            -- content/users.json --
            [{"id": "ben"}]
            -- content/posts/x1.md --
            ---
            id: x1
            author: ana
            createdAt: 2026-11-20T08:00:00+01:00
            ---
            Morning at the #sea
            -- content/comments/c1.md --
            ---
            id: c1
            postId: x1
            author: ben
            createdAt: 2026-11-20T09:00:00Z
            ---
            So calm.
            """)
        #expect(site.diagnostics.isEmpty)
        #expect(site.content.prompts.map(\.id).sorted() == ["p1", "p2"])
        #expect(site.content.prompts.first { $0.id == "p1" }?.body == "Body line one.\n\nBody line two.")
        #expect(site.content.prompts.first { $0.id == "p1" }?.origin == SourceLocation(path: "content/prompts/p1.md", line: 2, column: 5))
        #expect(site.content.users.first { $0.id == "ana" }?.bio == "I take pictures.")
        #expect(site.content.posts.map(\.caption) == ["Morning at the #sea"])
        #expect(site.content.posts.map(\.tags) == [["sea"]])
        #expect(site.content.comments.map(\.text) == ["So calm."])
        #expect(site.content.sentPrompts.map(\.sentAt) == [Fixed.at("2026-11-20T08:00:00Z")])
    }

    @Test("a missing collection is empty, and an empty site loads with defaults")
    func emptySite() {
        let site = load("")
        #expect(site.diagnostics.isEmpty)
        #expect(site.content == SiteContent())
        #expect(site.config == SiteConfig())
    }

    @Test("each kind of bad input gives its diagnostic at the exact line and column")
    func badInput() {
        let found = messages(
            """
            -- content/prompts.json --
            [
              {"id": "p1", "title": "One", "date": "2026-13-01"},
              {"id": "p1", "title": "Dup"},
              {"id": 7, "title": "Number id"},
              {"title": "No id"},
              {"id": "p3", "title": "T", "colour": "blue"}
            ]
            -- content/sent-prompts.json --
            [{"id": "s1", "promptId": "p1", "sentAt": "yesterday"}]
            -- content/users.json --
            [{"id": "ana", "follows": ["ghost"]}]
            -- content/posts.json --
            [{"id": "x1", "author": "nobody", "createdAt": "2026-11-20T08:00:00Z"},
             {"id": "x2", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "tags": ["ok", "#bad"]}]
            -- content/comments.json --
            [{"id": "c1", "postId": "missing", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "text": "hi"}]
            """)
        #expect(found == [
            "content/comments.json:1:9: warning: comment 'c1' is on post 'missing', which does not exist; it is left out",
            "content/posts.json:1:9: error: post 'x1' has author 'nobody', which is not a user",
            "content/posts.json:2:84: warning: tag '#bad' is not a hashtag (word characters with at least one letter, no '#'); ignored",
            "content/prompts.json:2:40: error: 'date' must be a date YYYY-MM-DD such as 2026-11-21, found '2026-13-01'",
            "content/prompts.json:3:10: error: duplicate prompt id 'p1' (first defined at content/prompts.json:2:10)",
            "content/prompts.json:4:10: error: 'id' must be a string, found a number; put it in quotes",
            "content/prompts.json:5:3: error: prompt is missing required field 'id'",
            "content/prompts.json:6:30: warning: unknown key 'colour' in prompt; known keys: body, date, draft, id, lang, title, updatedAt",
            "content/sent-prompts.json:1:43: error: 'sentAt' must be an RFC 3339 date-time such as 2026-11-21T08:00:00Z or 2026-11-21T09:00:00+01:00, found 'yesterday'",
            "content/users.json:1:28: warning: user 'ana' follows 'ghost', which is not a user; ignored",
        ])
    }

    @Test("a site large enough to validate on all cores reports exactly what a small one does")
    func largeSiteValidation() {
        // The same problems, once with a handful of comments and once with 10,000 more that are sound.
        func site(fillerComments: Int) -> String {
            let filler = (0..<fillerComments).map {
                #",{"id": "f\#($0)", "postId": "x2", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "text": "ok"}"#
            }
            return """
                -- content/users.json --
                [{"id": "ana", "follows": ["ghost"]}, {"id": "Ana!"}]
                -- content/posts.json --
                [{"id": "x1", "author": "nobody", "createdAt": "2026-11-20T08:00:00Z"},
                 {"id": "x2", "author": "ana", "createdAt": "2026-11-20T08:00:00Z"},
                 {"id": "x2", "author": "ana", "createdAt": "2026-11-20T08:00:00Z"}]
                -- content/comments.json --
                [{"id": "c1", "postId": "missing", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "text": "hi"},
                 {"id": "c1", "postId": "x2", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "text": "hi"},
                 {"id": "c2", "postId": "x2", "author": "ghost", "createdAt": "2026-11-20T08:00:00Z", "text": "hi"}\(filler.joined())]
                """
        }
        let expected = [
            "content/comments.json:1:9: warning: comment 'c1' is on post 'missing', which does not exist; it is left out",
            "content/comments.json:2:9: error: duplicate comment id 'c1' (first defined at content/comments.json:1:9)",
            "content/comments.json:3:9: error: comment 'c2' has author 'ghost', which is not a user",
            "content/posts.json:1:9: error: post 'x1' has author 'nobody', which is not a user",
            "content/posts.json:3:9: error: duplicate post id 'x2' (first defined at content/posts.json:2:9)",
            "content/users.json:1:28: warning: user 'ana' follows 'ghost', which is not a user; ignored",
            "content/users.json:1:46: error: user ids 'ana' and 'Ana!' both give the page address 'ana'; rename one",
        ]
        #expect(messages(site(fillerComments: 0)) == expected)
        let large = load(site(fillerComments: 10_000))
        #expect(large.diagnostics.map(\.description) == expected)
        #expect(large.content.comments.count == 10_000)
        #expect(large.content.posts.map(\.id) == ["x2"])
    }

    @Test("a duplicate id is an error at the second one, naming the first")
    func duplicateID() {
        let found = messages(
            """
            -- content/prompts.json --
            [{"id": "p1", "title": "A"},
             {"id": "p1", "title": "B"}]
            """)
        #expect(found == ["content/prompts.json:2:9: error: duplicate prompt id 'p1' (first defined at content/prompts.json:1:9)"])
    }

    @Test("ids are compared as Swift compares strings, whatever their characters: two spellings of é are one id, and the Kelvin sign is K")
    func idsBeyondASCII() {
        // A faster table of ids keyed by their bytes would answer otherwise: this holds the rule.
        let found = messages(
            """
            -- content/users.json --
            [{"id": "K"}, {"id": "ben", "follows": ["\\u212A"]}]
            -- content/posts.json --
            [{"id": "caf\\u00e9", "author": "\\u212A", "createdAt": "2026-11-20T08:00:00Z"},
             {"id": "cafe\\u0301", "author": "ben", "createdAt": "2026-11-20T09:00:00Z"}]
            -- content/comments.json --
            [{"id": "c1", "postId": "cafe\\u0301", "author": "\\u212A", "createdAt": "2026-11-20T10:00:00Z", "text": "Hi"},
             {"id": "c2", "postId": "x", "author": "ben", "createdAt": "2026-11-20T10:00:00Z", "text": "Hi"}]
            """)
        #expect(found == [
            "content/comments.json:2:9: warning: comment 'c2' is on post 'x', which does not exist; it is left out",
            "content/posts.json:2:9: error: duplicate post id 'café' (first defined at content/posts.json:1:9)",
        ])
        let site = load(
            """
            -- content/users.json --
            [{"id": "K"}, {"id": "ben", "follows": ["\\u212A"]}]
            -- content/posts.json --
            [{"id": "x1", "author": "\\u212A", "createdAt": "2026-11-20T08:00:00Z"}]
            -- content/comments.json --
            [{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T10:00:00Z", "text": "Hi"},
             {"id": "c1", "postId": "x1", "author": "K", "createdAt": "2026-11-20T11:00:00Z", "text": "Again"}]
            """)
        #expect(site.diagnostics.map(\.description) == ["content/comments.json:2:9: error: duplicate comment id 'c1' (first defined at content/comments.json:1:9)"])
        #expect(site.content.users.first { $0.id == "ben" }?.follows == ["\u{212A}"])
        #expect(site.content.posts.map(\.id) == ["x1"])
        #expect(site.content.comments.map(\.text) == ["Hi"])
    }

    @Test("ids whose slugs collide, and an id with an empty slug, are errors")
    func slugCollisions() {
        let found = messages(
            """
            -- content/users.json --
            [{"id": "Ana"}, {"id": "ana"}, {"id": "🎉"}]
            """)
        #expect(found == [
            "content/users.json:1:24: error: user ids 'Ana' and 'ana' both give the page address 'ana'; rename one",
            "content/users.json:1:39: error: user id '🎉' has no letters or digits to make a page address from",
        ])
    }

    @Test("comment ids whose slugs collide on one post, and a comment id with an empty slug, are errors; on two posts the same slug is fine")
    func commentAnchors() {
        let found = messages(
            """
            -- content/users.json --
            [{"id": "ana"}]
            -- content/posts.json --
            [{"id": "p", "author": "ana", "createdAt": "2026-11-20T08:00:00Z"},
             {"id": "q", "author": "ana", "createdAt": "2026-11-20T08:00:00Z"}]
            -- content/comments.json --
            [{"id": "C", "postId": "p", "author": "ana", "createdAt": "2026-11-20T09:00:00Z", "text": "a"},
             {"id": "c", "postId": "p", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "text": "b"},
             {"id": "c!", "postId": "q", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "text": "c"},
             {"id": "!!", "postId": "q", "author": "ana", "createdAt": "2026-11-20T11:00:00Z", "text": "d"}]
            """)
        #expect(found == [
            "content/comments.json:2:9: error: comment ids 'C' and 'c' on post 'p' both give the element id 'comment-c'; rename one",
            "content/comments.json:4:9: error: comment id '!!' has no letters or digits to make its element id (comment-…) from; rename it",
        ])
    }

    @Test("sensitive is true, false or a reason; an empty reason and any other value are errors at the value")
    func sensitivity() {
        let site = load(
            """
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "a", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "sensitive": " Gore "},
             {"id": "b", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "sensitive": true},
             {"id": "c", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "sensitive": false},
             {"id": "d", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "sensitive": "  "},
             {"id": "e", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "sensitive": 1}]
            """)
        #expect(site.diagnostics.map(\.description) == [
            "content/posts.json:4:79: error: 'sensitive' is an empty reason: write true, or the reason such as \"Medical photo\"",
            "content/posts.json:5:79: error: 'sensitive' must be true or a reason such as \"Medical photo\", found 1",
        ])
        #expect(site.content.posts.map { "\($0.id):\($0.isSensitive):\($0.sensitiveReason ?? "-")" } == ["a:true:Gore", "b:true:-", "c:false:-", "d:false:-", "e:false:-"])
    }

    @Test("JSON syntax errors point at the offending character")
    func jsonSyntax() {
        #expect(messages("-- content/posts.json --\n[{\"id\": \"x\",}]") == ["content/posts.json:1:13: error: invalid JSON: expected a key in double quotes"])
        #expect(messages("-- content/posts.json --\n{\"id\": \"x\"}") == ["content/posts.json:1:1: error: content/posts.json must be a JSON array of post objects, found an object"])
    }

    @Test("a list is decoded as it is read, yet a syntax error late in the file still drops every record and problem before it")
    func streamedList() {
        let good = #"{"id": "a", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "x"}"#
        let unknown = #"{"id": "b", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "colour": "red"}"#
        let users = "-- content/users.json --\n[{\"id\": \"ana\"}]\n"
        let broken = load(users + "-- content/posts.json --\n[\(good),\n\(unknown),\n{\"id\": }]")
        #expect(broken.diagnostics.map(\.description) == ["content/posts.json:3:8: error: invalid JSON: unexpected character; expected a value"])
        #expect(broken.content.posts.isEmpty)
        let fine = load(users + "-- content/posts.json --\n[\(good),\n\(unknown)]")
        #expect(fine.content.posts.map(\.id) == ["a", "b"])
        #expect(fine.diagnostics.map(\.description) == [
            "content/posts.json:2:67: warning: unknown key 'colour' in post; known keys: author, caption, createdAt, draft, featured, id, image, imageAlt, lang, location, sensitive, tags, updatedAt"
        ])
    }

    @Test("front matter problems in Markdown items, with file line numbers")
    func frontMatter() {
        let found = messages(
            """
            -- content/prompts/a.md --
            no front matter here
            -- content/prompts/b.md --
            ---
            id: b
            title: B
            body: twice
            ---
            Also here.
            -- content/prompts/c.md --
            ---
            id: c
            title: [unclosed
            ---
            -- content/posts/d.md --
            ---
            id: d
            author: ana
            createdAt: 2026-11-20 08:00
            ---
            -- content/sent-prompts/e.md --
            ---
            id: e
            promptId: b
            sentAt: 2026-11-20T08:00:00Z
            ---
            Stray text.
            -- content/users.json --
            [{"id": "ana"}]
            """)
        #expect(found == [
            "content/posts/d.md:4:12: error: 'createdAt' must be an RFC 3339 date-time such as 2026-11-21T08:00:00Z or 2026-11-21T09:00:00+01:00, found '2026-11-20 08:00'",
            "content/prompts/a.md:1:1: error: no front matter: a Markdown item starts with a line '---', then its fields, then '---'",
            "content/prompts/b.md:6:1: error: 'body' is given both in the front matter (line 4) and after it; keep one",
            "content/prompts/c.md:4:1: error: invalid YAML: did not find expected ',' or ']' while parsing a flow sequence",
            "content/sent-prompts/e.md:6:1: warning: text after a sent prompt's front matter is ignored",
        ])
    }

    @Test("site.yml: defaults, nested viewer, unknown keys and wrong types")
    func config() {
        let good = load(
            """
            -- site.yml --
            title: My days
            baseURL: https://example.org/blog
            timeZone: Europe/Lisbon
            pageSize: 5
            timeline:
              viewer: ana
            -- content/users.json --
            [{"id": "ana"}]
            """)
        #expect(good.diagnostics.isEmpty)
        #expect(good.config.title == "My days")
        #expect(good.config.baseURL == "https://example.org/blog/")
        #expect(good.config.timeZoneIdentifier == "Europe/Lisbon")
        #expect(good.config.pageSize == 5)
        #expect(good.config.feedSize == 20)
        #expect(good.config.timelineViewer == "ana")

        let bad = messages(
            """
            -- site.yml --
            title: [1]
            pageSize: 0
            timeZone: Mars/Base
            colour: red
            timeline:
              viewer: ghost
            """)
        #expect(bad == [
            "site.yml:1:8: error: 'title' must be a string, found an array",
            "site.yml:2:11: error: 'pageSize' must be a whole number of at least 1, found 0",
            "site.yml:3:11: error: unknown time zone 'Mars/Base'; use an IANA name such as Europe/Lisbon or UTC",
            "site.yml:4:1: warning: unknown key 'colour'; known keys: baseURL, description, feedSize, hashtags, icon, images, language, pageSize, report, timeZone, timeline, title",
            "site.yml:6:11: error: timeline.viewer 'ghost' is not a user",
        ])

        let empty = load(
            """
            -- site.yml --
            title:
            timeline:
            images:
              originals:
            pageSize: ~
            """)
        #expect(empty.diagnostics.map(\.description) == [])
        #expect(empty.config.title == "Daybook" && empty.config.pageSize == 10 && empty.config.timelineViewer == nil && empty.config.imageOriginals)
    }
}

extension Prompt {
    func located(_ path: String, _ line: Int, _ column: Int) -> Prompt {
        var copy = self
        copy.origin = SourceLocation(path: path, line: line, column: column)
        return copy
    }
}
