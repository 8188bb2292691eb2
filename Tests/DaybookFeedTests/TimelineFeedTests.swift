import DaybookFeed
import DaybookModel
import DaybookTestSupport
import Testing

@Suite("Timeline feed")
struct TimelineFeedTests {
    let moment = BuildMoment(now: Fixed.at("2026-11-21T12:00:00Z"), timeZone: Fixed.zone("UTC"))

    func post(_ id: String, _ author: String, _ at: String) -> Post {
        Post(id: id, author: author, createdAt: Fixed.at(at))
    }

    var posts: [Post] {
        [
            post("p2", "ana", "2026-11-20T10:00:00Z"),
            post("p10", "ben", "2026-11-20T10:00:00Z"),
            post("p1", "cai", "2026-11-21T09:00:00+01:00"),
            post("p3", "dee", "2026-11-19T10:00:00Z"),
            post("late", "ana", "2026-11-21T12:00:01Z"),
        ]
    }

    @Test("newest first, ties by post id ascending, future posts left out")
    func order() {
        #expect(TimelineFeed.query(moment).run(posts).map(\.id) == ["p1", "p10", "p2", "p3"])
    }

    @Test("--future lists posts after now")
    func future() {
        var withFuture = moment
        withFuture.includeFuture = true
        #expect(TimelineFeed.query(withFuture).run(posts).map(\.id) == ["late", "p1", "p10", "p2", "p3"])
    }

    @Test("a viewer sees their own posts and those of whom they follow, not transitively")
    func viewer() {
        let viewer = User(id: "ana", follows: ["ben"])
        #expect(TimelineFeed.timelineQuery(moment, viewer: viewer).run(posts).map(\.id) == ["p10", "p2"])
    }

    @Test("comments oldest first, ties by id, future ones left out")
    func comments() {
        let comments = [
            Comment(id: "c2", postID: "p", author: "a", createdAt: Fixed.at("2026-11-20T10:00:00Z"), text: ""),
            Comment(id: "c10", postID: "p", author: "a", createdAt: Fixed.at("2026-11-20T10:00:00Z"), text: ""),
            Comment(id: "c0", postID: "p", author: "a", createdAt: Fixed.at("2026-11-19T10:00:00Z"), text: ""),
            Comment(id: "c9", postID: "p", author: "a", createdAt: Fixed.at("2026-11-22T10:00:00Z"), text: ""),
        ]
        #expect(TimelineFeed.commentQuery(moment).run(comments).map(\.id) == ["c0", "c10", "c2"])
    }
}
