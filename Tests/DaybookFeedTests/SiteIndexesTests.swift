import DaybookFeed
import DaybookModel
import DaybookTestSupport
import Testing

/// CONTRACT §4 index orders, over posts already in timeline order.
@Suite("Tag, user and location indexes")
struct SiteIndexesTests {
    func post(_ id: String, _ author: String = "u", caption: String = "", place: String? = nil, tags: [String] = []) -> Post {
        Post(id: id, author: author, createdAt: Fixed.at("2026-11-20T08:00:00Z"), caption: caption, extraTags: tags,
             location: place.map { Location(name: $0) })
    }

    @Test("tags: most used first, ties by name; each list in timeline order")
    func tags() {
        let posts = [
            post("p1", caption: "#Sea #sky"), post("p2", caption: "#sea"), post("p3", caption: "#zebra #Apple", tags: ["sea"]),
            post("p4", caption: "#apple"),
        ]
        let indexes = SiteIndexes(posts: posts, users: [])
        #expect(indexes.tags.map(\.id) == ["sea", "apple", "sky", "zebra"])
        #expect(indexes.tags.map { $0.posts.map(\.id) } == [["p1", "p2", "p3"], ["p3", "p4"], ["p1"], ["p3"]])
    }

    @Test("users: by name, NFC lower case, ties by id; an unnamed user sorts by id")
    func users() {
        let users = [
            User(id: "u3", name: "émile"), User(id: "u1", name: "Bob"), User(id: "aaron"), User(id: "u2", name: "bob"),
            User(id: "u4", name: "E\u{301}mile"),
        ]
        let indexes = SiteIndexes(posts: [post("p1", "u2"), post("p2", "u1"), post("p3", "u2")], users: users)
        #expect(indexes.users.map(\.id) == ["aaron", "u1", "u2", "u3", "u4"])
        #expect(indexes.users.map(\.posts.count) == [0, 1, 2, 0, 0])
    }

    @Test("locations: equal slugs are one place, listed under the name that sorts first; an empty slug is a warning")
    func locations() {
        var party = post("p5", place: "🎉")
        party.origin = SourceLocation(path: "content/posts.json", line: 5, column: 9)
        let posts = [
            post("p1", place: "Lisbon"), post("p2", place: "LISBON"), post("p3", place: "Porto"), post("p4", place: "lisbon"), party,
            post("p6", place: "Évora"), post("p7", place: "Porto"),
        ]
        let indexes = SiteIndexes(posts: posts, users: [])
        #expect(indexes.locations.map(\.name) == ["LISBON", "Porto", "Évora"])
        #expect(indexes.locations.map(\.slug) == ["lisbon", "porto", "évora"])
        #expect(indexes.locations.first?.posts.map(\.id) == ["p1", "p2", "p4"])
        #expect(indexes.locationSlugs["p4"] == "lisbon")
        #expect(indexes.locationSlugs["p5"] == nil)
        #expect(indexes.diagnostics.map(\.description) == [
            "content/posts.json:5:9: warning: location '🎉' has no letters or digits to make a page address from; it gets no page"
        ])
    }
}
