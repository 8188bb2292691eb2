@testable import DaybookFeed
import DaybookModel
import DaybookTestSupport
import Testing

/// Issue 14: `serve` hands each build the comment orders of the one before (`SiteFeeds.Reuse`);
/// they are taken only when made of equal comments, posts and settings, at a "now" that shows the
/// same comments, so a rebuild's feeds always equal a fresh build's.
@Suite("Comment orders kept between rebuilds")
struct SiteFeedsReuseTests {
    static let zone = Fixed.zone("UTC")
    static func moment(_ at: String, future: Bool = false) -> BuildMoment {
        BuildMoment(now: Fixed.at(at), timeZone: zone, includeFuture: future)
    }

    static func comment(_ id: String, on post: String, _ at: String, text: String = "") -> DaybookModel.Comment {
        Comment(id: id, postID: post, author: "ben", createdAt: Fixed.at(at), text: text)
    }

    static let content = SiteContent(
        users: [User(id: "ana"), User(id: "ben")],
        posts: [
            Post(id: "p1", author: "ana", createdAt: Fixed.at("2026-11-01T10:00:00Z")),
            Post(id: "p2", author: "ben", createdAt: Fixed.at("2026-11-02T10:00:00Z")),
        ],
        comments: [
            comment("c1", on: "p1", "2026-11-03T10:00:00Z"),
            comment("c2", on: "p2", "2026-11-04T10:00:00Z"),
            comment("c3", on: "p1", "2026-11-21T12:00:00Z"),
        ])

    /// The previous build's reuse with its orders replaced by a marker: a build that takes them shows the marker.
    static func planted(_ content: SiteContent, at moment: BuildMoment) -> SiteFeeds.Reuse {
        var reuse = SiteFeeds(content: content, config: SiteConfig(), moment: moment).reuse
        reuse.byPost = ["planted": []]
        return reuse
    }

    static func feeds(_ content: SiteContent, at moment: BuildMoment, reusing reuse: SiteFeeds.Reuse) -> SiteFeeds {
        SiteFeeds(content: content, config: SiteConfig(), moment: moment, reusing: reuse)
    }

    @Test("taken when nothing the orders read changed, the clock having moved on short of the next comment")
    func taken() {
        let reuse = Self.planted(Self.content, at: Self.moment("2026-11-20T12:00:00Z"))
        #expect(Self.feeds(Self.content, at: Self.moment("2026-11-21T11:59:59Z"), reusing: reuse).comments.keys.sorted() == ["planted"])
        // A post edit that leaves ids and authors as they were keeps them too.
        var edited = Self.content
        edited.posts[0].caption = "new caption"
        #expect(Self.feeds(edited, at: Self.moment("2026-11-20T12:00:00Z"), reusing: reuse).comments.keys.sorted() == ["planted"])
    }

    @Test("made again when a comment, a post's author, the settings or the shown comments change", arguments: 0..<7)
    func madeAgain(change: Int) {
        let before = Self.moment("2026-11-20T12:00:00Z")
        var content = Self.content
        var moment = before
        switch change {
        case 0: content.comments[1] = Self.comment("c2", on: "p2", "2026-11-04T10:00:00Z", text: "edited")
        case 1: content.comments.append(Self.comment("c4", on: "p2", "2026-11-05T10:00:00Z"))
        case 2: content.posts[1].author = "ana"
        case 3: content.posts.removeLast()
        case 4: moment = Self.moment("2026-11-21T12:00:00Z")  // c3's time: it shows now
        case 5: moment = Self.moment("2026-11-04T09:00:00Z")  // the clock went back before c2
        default: moment = Self.moment("2026-11-20T12:00:00Z", future: true)
        }
        let rebuilt = Self.feeds(content, at: moment, reusing: Self.planted(Self.content, at: before))
        let fresh = SiteFeeds(content: content, config: SiteConfig(), moment: moment)
        #expect(rebuilt.comments == fresh.comments)
        #expect(rebuilt.commentsOnPostsBy == fresh.commentsOnPostsBy)
        #expect(rebuilt.comments["planted"] == nil)
    }
}
