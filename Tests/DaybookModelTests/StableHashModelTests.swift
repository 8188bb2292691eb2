import DaybookModel
import Testing

/// Page keys hash the content models; a field left out of a model's hash would leave a page
/// stale after an edit of that field. Each type's edits are held to its stored properties by name.
@Suite("Stable hashes of the content models")
struct StableHashModelTests {
    static func hash(_ combine: (inout StableHash) -> Void) -> UInt64 {
        var hash = StableHash()
        combine(&hash)
        return hash.value
    }

    /// Edits every stored property but `origin` of `sample` in turn; each must change the hash.
    static func check<Model>(
        _ sample: Model, edits: [String: (inout Model) -> Void], hash: (Model) -> UInt64, ignoring: Set<String> = ["origin"],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let stored = Set(Mirror(reflecting: sample).children.compactMap(\.label)).subtracting(ignoring)
        #expect(Set(edits.keys) == stored, "\(Model.self)", sourceLocation: sourceLocation)
        for (name, edit) in edits {
            var edited = sample
            edit(&edited)
            #expect(hash(edited) != hash(sample), "\(Model.self).\(name)", sourceLocation: sourceLocation)
        }
    }

    static let at = Instant(secondsSince1970: 1_000)

    @Test("a post's hash changes with each of its fields, and not with where it was written")
    func post() {
        var sample = Post(id: "p", author: "a", createdAt: Self.at, caption: "c", extraTags: ["t"], image: "i", imageAlt: "alt", location: Location(name: "L"))
        Self.check(
            sample,
            edits: [
                "id": { $0.id = "q" }, "author": { $0.author = "b" }, "createdAt": { $0.createdAt = Instant(secondsSince1970: 2) },
                "caption": { $0.caption = nil }, "extraTags": { $0.extraTags = ["t", "u"] }, "image": { $0.image = "j" },
                "imageAlt": { $0.imageAlt = "" }, "location": { $0.location?.latitude = 1 }, "isSensitive": { $0.isSensitive = true },
                "sensitiveReason": { $0.sensitiveReason = "r" }, "updatedAt": { $0.updatedAt = Self.at }, "isDraft": { $0.isDraft = true },
                "lang": { $0.lang = LanguageTag("pt") }, "isFeatured": { $0.isFeatured = true },
            ], hash: { post in Self.hash { $0.combine(post) } })
        let before = Self.hash { $0.combine(sample) }
        sample.origin = DaybookModel.SourceLocation(path: "content/posts.json", line: 9)
        #expect(Self.hash { $0.combine(sample) } == before)
    }

    @Test("the settings' hash changes with each setting, and not with where baseURL or timeline.viewer was written")
    func config() {
        var sample = SiteConfig(title: "T", baseURL: "https://example.org/", timeZoneIdentifier: "UTC", pageSize: 10, feedSize: 20, timelineViewer: "v")
        sample.report = "mailto:a@example.org"
        Self.check(
            sample,
            edits: [
                "title": { $0.title = "U" }, "baseURL": { $0.baseURL = "/" }, "timeZoneIdentifier": { $0.timeZoneIdentifier = "Europe/Lisbon" },
                "pageSize": { $0.pageSize = 11 }, "feedSize": { $0.feedSize = 21 }, "timelineViewer": { $0.timelineViewer = nil },
                "hashtagsPerPost": { $0.hashtagsPerPost = 3 }, "imageWidths": { $0.imageWidths = [480, 960] }, "imageFormat": { $0.imageFormat = "jpeg" },
                "imageOriginals": { $0.imageOriginals = false }, "report": { $0.report = nil }, "language": { $0.language = LanguageTag("ar")! },
                "description": { $0.description = "D" }, "icon": { $0.icon = "images/icon.png" },
            ], hash: { config in Self.hash { $0.combine(config) } }, ignoring: ["timelineViewerPosition", "baseURLPosition", "languagePosition", "iconPosition"])
        let before = Self.hash { $0.combine(sample) }
        sample.baseURLPosition = DaybookModel.SourceLocation(path: "site.yml", line: 2)
        sample.timelineViewerPosition = DaybookModel.SourceLocation(path: "site.yml", line: 5)
        sample.languagePosition = DaybookModel.SourceLocation(path: "site.yml", line: 7)
        #expect(Self.hash { $0.combine(sample) } == before)
    }

    @Test("a content key asked for before an edit is worked out again after it, shared or not")
    func keyAfterEdit() {
        var post = Post(id: "p", author: "a", createdAt: Self.at, caption: "before")
        let before = post.contentKey
        post.caption = "after"  // held once: the box is changed in place
        #expect(post.contentKey != before)
        #expect(post.contentKey == Post(id: "p", author: "a", createdAt: Self.at, caption: "after").contentKey)
        var comment = Comment(id: "c", postID: "p", author: "a", createdAt: Self.at, text: "before")
        let shared = comment
        let sharedKey = shared.contentKey
        comment.text = "after"  // shared: the edit gets a box of its own
        #expect(comment.contentKey != sharedKey)
        #expect(shared.contentKey == sharedKey)
        comment.text = "before"
        #expect(comment.contentKey == sharedKey)
    }

    @Test("comments, responses, prompts, users and places hash every field")
    func others() {
        Self.check(
            Comment(id: "c", postID: "p", author: "a", createdAt: Self.at, text: "t"),
            edits: [
                "id": { $0.id = "d" }, "postID": { $0.postID = "q" }, "author": { $0.author = "b" },
                "createdAt": { $0.createdAt = Instant(secondsSince1970: 2) }, "text": { $0.text = "u" },
                "updatedAt": { $0.updatedAt = Self.at }, "isDraft": { $0.isDraft = true }, "lang": { $0.lang = LanguageTag("pt") },
            ], hash: { comment in Self.hash { $0.combine(comment) } })
        Self.check(
            Response(id: "r", promptID: "q", createdAt: Self.at, text: "t"),
            edits: [
                "id": { $0.id = "s" }, "promptID": { $0.promptID = "x" }, "createdAt": { $0.createdAt = Instant(secondsSince1970: 2) },
                "text": { $0.text = "u" }, "updatedAt": { $0.updatedAt = Self.at }, "isDraft": { $0.isDraft = true },
                "lang": { $0.lang = LanguageTag("pt") },
            ], hash: { response in Self.hash { $0.combine(response) } })
        Self.check(
            Prompt(id: "q", title: "T", body: "b"),
            edits: [
                "id": { $0.id = "r" }, "title": { $0.title = "U" }, "date": { $0.date = CalendarDay(year: 2026, month: 1, day: 2) },
                "body": { $0.body = nil }, "updatedAt": { $0.updatedAt = Self.at }, "isDraft": { $0.isDraft = true },
                "lang": { $0.lang = LanguageTag("pt") },
            ], hash: { prompt in Self.hash { $0.combine(prompt) } })
        Self.check(
            User(id: "u", name: "N", bio: "b", avatar: "a", follows: ["v"]),
            edits: [
                "id": { $0.id = "w" }, "name": { $0.name = nil }, "bio": { $0.bio = "c" }, "avatar": { $0.avatar = nil },
                "follows": { $0.follows = [] }, "lang": { $0.lang = LanguageTag("he") },
            ], hash: { user in Self.hash { $0.combine(user) } })
        Self.check(
            Location(name: "L", latitude: 1, longitude: 2),
            edits: ["name": { $0.name = "M" }, "latitude": { $0.latitude = nil }, "longitude": { $0.longitude = 3 }],
            hash: { location in Self.hash { $0.combine(location) } })
    }

    @Test("absent and empty text hash apart, and so do neighbouring fields")
    func separators() {
        #expect(Self.hash { $0.combine(String?.none) } != Self.hash { $0.combine("") })
        let a = User(id: "u", name: "ab", bio: "c")
        let b = User(id: "u", name: "a", bio: "bc")
        #expect(Self.hash { $0.combine(a) } != Self.hash { $0.combine(b) })
    }
}
