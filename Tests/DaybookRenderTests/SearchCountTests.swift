import DaybookFeed
import DaybookModel
@testable import DaybookRender
import DaybookTestSupport
import Testing

/// How many results the search index lays its files out for: every person, hashtag and place,
/// each bio, each post of the timeline with its comments, and each entry with a prompt.
@Suite("Search result count")
struct SearchCountTests {
    static let content = SiteContent(
        users: [User(id: "ana", follows: ["ben"]), User(id: "ben", bio: "Sails."), User(id: "cy")],
        posts: [
            Post(id: "p1", author: "ana", createdAt: Fixed.at("2026-11-01T10:00:00Z"), caption: "#sea"),
            Post(id: "p2", author: "ben", createdAt: Fixed.at("2026-11-02T10:00:00Z"), location: Location(name: "Oslo")),
            Post(id: "p3", author: "cy", createdAt: Fixed.at("2026-11-03T10:00:00Z")),
        ],
        comments: [
            Comment(id: "c1", postID: "p1", author: "ben", createdAt: Fixed.at("2026-11-03T10:00:00Z"), text: "a"),
            Comment(id: "c2", postID: "p2", author: "ana", createdAt: Fixed.at("2026-11-04T10:00:00Z"), text: "b"),
            Comment(id: "c3", postID: "p3", author: "ana", createdAt: Fixed.at("2026-11-04T11:00:00Z"), text: "c"),
            Comment(id: "c4", postID: "p3", author: "ben", createdAt: Fixed.at("2026-11-04T12:00:00Z"), text: "d"),
        ])

    static func feeds(viewer: String?) -> SiteFeeds {
        var config = SiteConfig()
        config.timelineViewer = viewer
        return SiteFeeds(content: content, config: config, moment: BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: Fixed.zone("UTC")))
    }

    @Test("without a viewer, every post and comment; with one, the posts of the timeline and their comments only")
    func counts() {
        // 3 people, 1 hashtag, 1 place, 1 bio.
        #expect(SearchIndex.documentCount(Self.feeds(viewer: nil)) == 6 + 3 + 4)
        // ana sees her posts and ben's: p1 and p2, one comment each.
        #expect(Self.feeds(viewer: "ana").timeline.map(\.id) == ["p2", "p1"])
        #expect(SearchIndex.documentCount(Self.feeds(viewer: "ana")) == 6 + 2 + 2)
    }
}
