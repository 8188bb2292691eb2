import DaybookModel
import Testing

/// Content problems print the sentences the readers printed before they were typed: tests and the
/// outside contract hold those sentences byte for byte.
@Suite("Content problems")
struct ContentProblemTests {
    @Test("file problems: the sentence, and an error")
    func files() {
        #expect(ContentProblem.notUTF8.message == "file is not valid UTF-8: save it as UTF-8")
        #expect(ContentProblem.notUTF8.severity == .error)
        #expect(ContentProblem.cannotRead.message == "cannot read file")
        #expect(ContentProblem.invalidJSON(detail: "expected ':' after the key").message == "invalid JSON: expected ':' after the key")
        // The YAML reader's sentence is printed as it is, with no prefix added.
        #expect(ContentProblem.invalidYAML(message: "duplicate key 'title' (first at line 2)").message == "duplicate key 'title' (first at line 2)")
        #expect(
            ContentProblem.notAListFile(collection: "sent-prompts", item: "sent prompt", found: "an object").message
                == "content/sent-prompts.json must be a JSON array of sent prompt objects, found an object")
        #expect(
            ContentProblem.linkOutsideSite(path: "content/posts.json").message
                == "'content/posts.json' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself")
    }

    @Test("record problems: the field and the value found in the sentence")
    func records() {
        let unquoted = ContentProblem.unquotedNumber(field: "id")
        #expect(unquoted.message == "'id' must be a string, found a number; put it in quotes")
        #expect(unquoted.severity == .error)
        #expect(ContentProblem.notAString(field: "location.name", found: "an array").message == "'location.name' must be a string, found an array")
        #expect(ContentProblem.missingField(item: "sent prompt", field: "promptId").message == "sent prompt is missing required field 'promptId'")
        #expect(ContentProblem.missingNestedField(field: "location", nested: "name").message == "'location' is missing required field 'name'")
        let unknown = ContentProblem.unknownKey(key: "alt", record: "location", known: ["lat", "lon", "name"])
        #expect(unknown.message == "unknown key 'alt' in location; known keys: lat, lon, name")
        #expect(unknown.severity == .warning)
        let edited = ContentProblem.updatedBeforeCreated(updatedAt: Instant(secondsSince1970: 0), createdAt: Instant(secondsSince1970: 86_400))
        #expect(
            edited.message
                == "'updatedAt' 1970-01-01T00:00:00Z is before 'createdAt' 1970-01-02T00:00:00Z; it is ignored: give the date of the last edit, or remove it")
        #expect(edited.severity == .warning)
        #expect(ContentProblem.notSensitive(found: "0").message == "'sensitive' must be true or a reason such as \"Medical photo\", found 0")
        let hashtags = ContentProblem.tooManyHashtags(post: "p1", count: 1234, limit: 30)
        #expect(
            hashtags.message
                == "post 'p1' has 1,234 hashtags; only the first 30 put it on tag pages; remove some, or raise 'hashtags.perPost' in site.yml")
        #expect(hashtags.severity == .warning)
    }

    @Test("reference problems: what names what, and whether the build stops")
    func references() {
        let author = ContentProblem.unknownAuthor(item: "comment", id: "c1", author: "bob")
        #expect(author.message == "comment 'c1' has author 'bob', which is not a user")
        #expect(author.severity == .error)
        let post = ContentProblem.commentOnMissingPost(comment: "c1", post: "p9")
        #expect(post.message == "comment 'c1' is on post 'p9', which does not exist; it is left out")
        #expect(post.severity == .warning)
        #expect(
            ContentProblem.notAHashtag(tag: "#sea").message == "tag '#sea' is not a hashtag (word characters with at least one letter, no '#'); ignored")
        #expect(ContentProblem.unknownTimelineViewer(viewer: "zoe").message == "timeline.viewer 'zoe' is not a user")
        #expect(ContentProblem.unknownTimelineViewer(viewer: "zoe").severity == .error)
    }

    @Test("id and slug problems: the first place when it is known, nothing when it is not")
    func idsAndSlugs() {
        let first = SourceLocation(path: "content/posts.json", line: 2, column: 11)
        let duplicate = ContentProblem.duplicateID(item: "post", id: "p1", firstDefined: first)
        #expect(duplicate.message == "duplicate post id 'p1' (first defined at content/posts.json:2:11)")
        #expect(duplicate.severity == .error)
        #expect(ContentProblem.duplicateID(item: "post", id: "p1", firstDefined: nil).message == "duplicate post id 'p1'")
        #expect(
            ContentProblem.commentAnchorsCollide(first: "A b", second: "a-b", post: "p1", slug: "a-b").message
                == "comment ids 'A b' and 'a-b' on post 'p1' both give the element id 'comment-a-b'; rename one")
        #expect(
            ContentProblem.commentIDWithoutAnchor(id: "!!").message
                == "comment id '!!' has no letters or digits to make its element id (comment-…) from; rename it")
        let today = ContentProblem.alsoToday(prompt: "b", day: CalendarDay("2026-11-21")!, chosen: "a")
        #expect(today.message == "prompt 'b' is also dated 2026-11-21; 'a' (the smallest id) is today's prompt")
        #expect(today.severity == .warning)
    }

    @Test("site.yml problems: the setting's name, its known keys, the value found")
    func settings() {
        let unknown = ContentProblem.unknownSetting(key: "timeline.reader", known: ["timeline.viewer"])
        #expect(unknown.message == "unknown key 'timeline.reader'; known keys: timeline.viewer")
        #expect(unknown.severity == .warning)
        let mapping = ContentProblem.settingNotAMapping(setting: "images", key: "widths", example: "[480, 960, 1600]", found: "a string")
        #expect(mapping.message == "'images' must be a mapping such as 'images:' then '  widths: [480, 960, 1600]', found a string")
        #expect(mapping.severity == .error)
        #expect(ContentProblem.notAPositiveWholeNumber(setting: "pageSize", found: "0").message == "'pageSize' must be a whole number of at least 1, found 0")
        let base = ContentProblem.baseURLNotAbsolute("/blog/")
        #expect(
            base.message
                == "baseURL '/blog/' has no scheme and host, so the feeds and the sitemap cannot give absolute URLs; set it to the site's address, such as 'baseURL: https://example.org/'"
        )
        #expect(base.severity == .warning)
    }

    @Test("image problems: the field, the path under content/, and the site's own address when it was written")
    func images() {
        let missing = ContentProblem.missingImage(field: "image", path: "images/sea.jpg", written: nil, item: "post")
        #expect(missing.message == "image 'content/images/sea.jpg' does not exist; the post is shown without it")
        #expect(missing.severity == .warning)
        #expect(
            ContentProblem.missingImage(field: "avatar", path: "a.png", written: "https://example.org/a.png", item: "user").message
                == "avatar 'https://example.org/a.png' (the site's own address for 'content/a.png') does not exist; the user is shown without it")
        let unsafe = ContentProblem.unsafeImagePath(field: "image", value: "../x.jpg")
        #expect(unsafe.message == "'image' must be a path under content/ such as images/photo.jpg, or an http(s) URL; '../x.jpg' is neither")
        #expect(unsafe.severity == .error)
    }

    @Test("a diagnostic made from a problem prints path:line:column: severity: message")
    func diagnostic() {
        let at = SourceLocation(path: "content/posts/p1.md", line: 3, column: 9)
        let error = Diagnostic(.emptyField(field: "author"), at: at)
        #expect(error.description == "content/posts/p1.md:3:9: error: 'author' must not be empty")
        #expect(error == Diagnostic(.error, "'author' must not be empty", at: at))
        let warning = Diagnostic(.textAfterSentPrompt, at: SourceLocation(path: "content/sent-prompts/s1.md", line: 4))
        #expect(warning.description == "content/sent-prompts/s1.md:4: warning: text after a sent prompt's front matter is ignored")
    }
}
