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
        // Narrowing the post order, as the build does, keeps that order.
        let ordered = TimelineFeed.query(moment).run(posts)
        #expect(TimelineFeed.timelineQuery(moment, viewer: viewer).filter(ordered: ordered).map(\.id) == ["p10", "p2"])
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

    @Test("a person's comments feed: newest first, ties by id ascending")
    func commentFeed() {
        let comments = [
            Comment(id: "c2", postID: "p", author: "a", createdAt: Fixed.at("2026-11-20T10:00:00Z"), text: ""),
            Comment(id: "c10", postID: "p", author: "a", createdAt: Fixed.at("2026-11-20T10:00:00Z"), text: ""),
            Comment(id: "c0", postID: "p", author: "a", createdAt: Fixed.at("2026-11-19T10:00:00Z"), text: ""),
            Comment(id: "c3", postID: "p", author: "a", createdAt: Fixed.at("2026-11-21T10:00:00Z"), text: ""),
        ]
        #expect(TimelineFeed.commentFeedQuery(moment).run(comments).map(\.id) == ["c3", "c10", "c2", "c0"])
    }

    @Test("each person's comments feed keeps the newest comments on their posts, as many as a feed shows")
    func commentsFeedKept() {
        let content = SiteContent(
            users: [User(id: "ana"), User(id: "ben")],
            posts: [post("p1", "ana", "2026-11-20T10:00:00Z"), post("p2", "ben", "2026-11-20T11:00:00Z")],
            comments: (1...5).map { n in
                Comment(id: "c\(n)", postID: "p1", author: "ben", createdAt: Fixed.at("2026-11-1\(n)T10:00:00Z"), text: "")
            })
        let feeds = SiteFeeds(content: content, config: SiteConfig(feedSize: 2), moment: moment)
        #expect(feeds.commentsOnPostsBy["ana"]?.map(\.id) == ["c5", "c4"])
        #expect(feeds.commentsOnPostsBy["ben"] == nil)
        #expect(feeds.comments["p1"]?.map(\.id) == ["c1", "c2", "c3", "c4", "c5"])
    }

    /// 2,000 comments on posts `p0`… over 40 instants `step` seconds apart from `start`, with
    /// ids drawn from 500, so most instants and many ids are shared.
    static func manyComments(seed: UInt64, posts: UInt64, from start: Double, step: Double) -> [DaybookModel.Comment] {
        var generator = SeededGenerator(seed: seed)
        return (0..<2_000).map { n in
            Comment(
                id: "c\(generator.next() % 500)-\(n)", postID: "p\(generator.next() % posts)", author: "a",
                createdAt: Instant(secondsSince1970: start + Double(generator.next() % 40) * step), text: "")
        }
    }

    @Test("the order is the key, then the id on a tie: each consecutive pair of a run precedes the next", arguments: [0, 1, 2])
    func keyThenID(_ query: Int) {
        // 2,000 comments over 40 instants: most have ties, broken by id.
        let comments = Self.manyComments(seed: UInt64(query + 7), posts: 1, from: 1_700_000_000, step: 60)
        let order = [TimelineFeed.commentQuery(moment), TimelineFeed.commentFeedQuery(moment), TimelineFeed.commentQuery(moment).narrowed { $0.id.hasPrefix("c1") }][query]
        let run = order.run(comments)
        #expect(run.count > 100)
        for (a, b) in zip(run, run.dropFirst()) {
            let newestFirst = query == 1
            let (ta, tb) = (a.createdAt.secondsSince1970, b.createdAt.secondsSince1970)
            #expect(ta == tb ? a.id.scalarsPrecede(b.id) : (newestFirst ? ta > tb : ta < tb), "\(a.id) before \(b.id)")
        }
    }

    @Test("run per group, each group is what running over all and grouping after gives, in the same order", arguments: [0, 1])
    func groupedAgrees(_ query: Int) {
        // 2,000 comments over 33 posts and 40 hours around now: some in the future, some on no group.
        let comments = Self.manyComments(seed: UInt64(query + 11), posts: 33, from: 1_795_190_400, step: 3_600)
        let order = [TimelineFeed.commentQuery(moment), TimelineFeed.commentFeedQuery(moment)][query]
        let groups = order.runGroupedPlaces(comments, count: 30) { Int($0.postID.dropFirst()).flatMap { $0 < 30 ? $0 : nil } }
            .map { $0.map { comments[$0] } }
        let all = order.run(comments)
        #expect(groups.count == 30)
        for number in 0..<30 {
            #expect(groups[number].map(\.id) == all.filter { $0.postID == "p\(number)" }.map(\.id), "p\(number)")
        }
        #expect(groups.map(\.count).reduce(0, +) < all.count)  // p30 to p32 are in no group
        #expect(all.count < comments.count)  // and some comments are after now
    }
}
