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
        var reuse = SiteFeeds(content: content, config: SiteConfig(), moment: moment, forNextBuild: true).reuse!
        reuse.byPost = ["planted": []]
        return reuse
    }

    static func feeds(_ content: SiteContent, at moment: BuildMoment, reusing reuse: SiteFeeds.Reuse) -> SiteFeeds {
        SiteFeeds(content: content, config: SiteConfig(), moment: moment, reusing: reuse, forNextBuild: true)
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

    @Test("a build that took the orders hands them on with the dates that bound its clock")
    func carriedOn() throws {
        let reuse = Self.planted(Self.content, at: Self.moment("2026-11-20T12:00:00Z"))
        let second = Self.feeds(Self.content, at: Self.moment("2026-11-21T11:00:00Z"), reusing: reuse)
        #expect(second.comments.keys.sorted() == ["planted"])
        let carried = try #require(second.reuse)
        // Still short of c3: taken again. At c3's time it shows: made again.
        #expect(Self.feeds(Self.content, at: Self.moment("2026-11-21T11:59:59Z"), reusing: carried).comments.keys.sorted() == ["planted"])
        let third = Self.feeds(Self.content, at: Self.moment("2026-11-21T12:00:00Z"), reusing: carried)
        #expect(third.comments == SiteFeeds(content: Self.content, config: SiteConfig(), moment: Self.moment("2026-11-21T12:00:00Z")).comments)
        #expect(third.comments["p1"]?.map(\.id) == ["c1", "c3"])
    }

    /// The orders' moment before any change.
    static let before = moment("2026-11-20T12:00:00Z")

    /// `content` at `before`, with one change the orders read: a comment, a post or its author,
    /// the settings or the shown comments.
    static func changed(_ change: Int) -> (content: SiteContent, moment: BuildMoment) {
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
        return (content, moment)
    }

    @Test("made again when a comment, a post's author, the settings or the shown comments change", arguments: 0..<7)
    func madeAgain(change: Int) {
        let (before, (content, moment)) = (Self.before, Self.changed(change))
        let rebuilt = Self.feeds(content, at: moment, reusing: Self.planted(Self.content, at: before))
        let fresh = SiteFeeds(content: content, config: SiteConfig(), moment: moment)
        #expect(rebuilt.comments == fresh.comments)
        #expect(rebuilt.commentsOnPostsBy == fresh.commentsOnPostsBy)
        #expect(rebuilt.comments["planted"] == nil)
    }
}

/// Issue 14: `daybook build` keeps the comment orders on disk (`CommentOrders`), as places among
/// the comments; the next build takes them only while its comments (by the loader's key), its
/// posts and authors and its settings are the same, at a "now" that shows the same comments.
@Suite("Comment orders kept on disk")
struct CommentOrdersTests {
    typealias Reuse = SiteFeedsReuseTests

    /// What the loader's key stands for: the comments themselves, here hashed whole.
    static func key(_ comments: [DaybookModel.Comment]) -> UInt64 {
        var hash = StableHash()
        for comment in comments {
            hash.combine(comment)
            hash.combine(comment.id)
        }
        return hash.value
    }

    static func feeds(_ content: SiteContent, at moment: BuildMoment, orders: CommentOrders? = nil) -> SiteFeeds {
        SiteFeeds(content: content, config: SiteConfig(), moment: moment, commentsKey: key(content.comments), orders: orders, keepsOrders: true)
    }

    /// The orders a build at `moment` keeps, read back from their bytes as the next build reads them.
    static func stored(_ content: SiteContent, at moment: BuildMoment) throws -> CommentOrders {
        let orders = try #require(feeds(content, at: moment).orders)
        return try #require(CommentOrders(bytes: orders.bytes[...]))
    }

    @Test("made of these comments, they give the orders of a build that makes them")
    func equal() throws {
        let moment = Reuse.moment("2026-11-21T12:00:00Z")
        let orders = try Self.stored(Reuse.content, at: moment)
        let taken = Self.feeds(Reuse.content, at: moment, orders: orders)
        let fresh = SiteFeeds(content: Reuse.content, config: SiteConfig(), moment: moment)
        #expect(taken.comments == fresh.comments)
        #expect(taken.commentsOnPostsBy == fresh.commentsOnPostsBy)
        #expect(taken.comments["p1"]?.map(\.id) == ["c1", "c3"])
        // A build that took them keeps them as they are.
        #expect(taken.orders == orders)
    }

    @Test("taken when nothing they read changed, the clock having moved on short of the next comment")
    func taken() throws {
        var orders = try Self.stored(Reuse.content, at: Reuse.moment("2026-11-20T12:00:00Z"))
        // Newest post first: p2 with c2 (place 1), p1 with c1 (place 0); c3 is not shown yet.
        #expect(orders.byPost == [[1], [0]])
        // Planted: the places swapped. A build that takes the orders shows them swapped.
        orders.byPost = [[0], [1]]
        let later = Self.feeds(Reuse.content, at: Reuse.moment("2026-11-21T11:59:59Z"), orders: orders)
        #expect(later.comments["p2"]?.map(\.id) == ["c1"])
        #expect(later.comments["p1"]?.map(\.id) == ["c2"])
        // A post edit that leaves ids and authors as they were keeps them too.
        var edited = Reuse.content
        edited.posts[0].caption = "new caption"
        #expect(Self.feeds(edited, at: Reuse.moment("2026-11-20T12:00:00Z"), orders: orders).comments["p2"]?.map(\.id) == ["c1"])
    }

    @Test("made again when a comment, a post or its author, the settings or the shown comments change", arguments: 0..<7)
    func madeAgain(change: Int) throws {
        let (before, (content, moment)) = (Reuse.before, Reuse.changed(change))
        var orders = try Self.stored(Reuse.content, at: before)
        orders.byPost = orders.byPost.map { $0.reversed() }
        let rebuilt = Self.feeds(content, at: moment, orders: orders)
        let fresh = SiteFeeds(content: content, config: SiteConfig(), moment: moment)
        #expect(rebuilt.comments == fresh.comments)
        #expect(rebuilt.commentsOnPostsBy == fresh.commentsOnPostsBy)
        // The orders it keeps are its own, not the planted ones.
        #expect(rebuilt.orders != orders)
    }

    @Test("orders whose places are not among the comments are made again")
    func outOfPlace() throws {
        let moment = Reuse.moment("2026-11-21T12:00:00Z")
        var orders = try Self.stored(Reuse.content, at: moment)
        orders.byPost[0] = [7]
        let rebuilt = Self.feeds(Reuse.content, at: moment, orders: orders)
        #expect(rebuilt.comments == SiteFeeds(content: Reuse.content, config: SiteConfig(), moment: moment).comments)
    }

    @Test("read back from bytes as they were; bytes cut short or grown are none")
    func bytes() throws {
        let orders = try Self.stored(Reuse.content, at: Reuse.moment("2026-11-21T12:00:00Z"))
        let bytes = orders.bytes
        #expect(CommentOrders(bytes: bytes[...]) == orders)
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            #expect(CommentOrders(bytes: bytes[..<cut]) == nil, "\(cut)")
        }
        #expect(CommentOrders(bytes: (bytes + [0])[...]) == nil)
    }
}

/// Issue 14: `serve` hands each build the indexes' shape of the one before (`IndexMemo`): taken only
/// when every post sits in the same groups and says the same to the indexes' warnings, and the
/// users and the hashtag limit are the same; then filled with this build's posts.
@Suite("Indexes kept between rebuilds")
struct IndexMemoTests {
    static let moment = SiteFeedsReuseTests.moment("2026-11-20T12:00:00Z")

    static func post(_ id: String, _ author: String, _ caption: String, place: String? = nil, day: Int) -> Post {
        Post(id: id, author: author, createdAt: Fixed.at("2026-11-0\(day)T10:00:00Z"), caption: caption, location: place.map { Location(name: $0) })
    }

    static let content = SiteContent(
        users: [User(id: "ana", follows: ["ben"]), User(id: "ben")],
        posts: [
            post("p1", "ana", "#sea at dawn", place: "Porto", day: 1), post("p2", "ben", "#sea #sky", day: 2),
            post("p3", "ana", "plain", place: "Lisbon", day: 3),
        ])

    /// The previous build's reuse with its indexes' shape and neighbours replaced by markers: a
    /// build that takes them shows the markers.
    static func planted() -> SiteFeeds.Reuse {
        var reuse = SiteFeeds(content: content, config: SiteConfig(), moment: moment, forNextBuild: true).reuse!
        reuse.indexes?.shape.tags = [SiteIndexes.PlacedGroup(id: "planted", name: "planted", slug: "planted", places: [0])]
        reuse.indexes?.neighbours = ["planted": PostNeighbours()]
        return reuse
    }

    static func feeds(_ content: SiteContent, config: SiteConfig = SiteConfig()) -> SiteFeeds {
        SiteFeeds(content: content, config: config, moment: moment, reusing: planted(), forNextBuild: true)
    }

    @Test("taken when a caption edit leaves every post in its groups, and filled with this build's posts")
    func taken() {
        var edited = Self.content
        edited.posts[2].caption = "plain, edited"
        let feeds = Self.feeds(edited)
        #expect(feeds.indexes.tags.map(\.id) == ["planted"])
        #expect(feeds.authorNeighbours.keys.sorted() == ["planted"])
        // Place 0 is the newest post, p3: the edited one, as this build has it.
        #expect(feeds.indexes.tags[0].posts.map(\.caption) == ["plain, edited"])
        // And the memo the next build gets holds this build's inputs.
        #expect(feeds.reuse?.indexes?.placements.map(\.id) == ["p3", "p2", "p1"])
    }

    @Test("made again when a post's tags, author, place, origin or presence, a user, or the hashtag limit change", arguments: 0..<8)
    func madeAgain(change: Int) {
        var content = Self.content
        var config = SiteConfig()
        switch change {
        case 0: content.posts[2].caption = "plain #sea"
        case 1: content.posts[2].author = "ben"
        case 2: content.posts[2].location = Location(name: "Évora")
        case 3: content.posts[1].origin = SourceLocation(path: "content/posts.json", line: 9, column: 3)
        case 4: content.posts.removeLast()
        case 5: content.users[1].name = "Ben"
        case 6: content.users[0].follows = []
        default: config.hashtagsPerPost = 1
        }
        let rebuilt = Self.feeds(content, config: config)
        let fresh = SiteFeeds(content: content, config: config, moment: Self.moment)
        #expect(rebuilt.indexes.tags.map(\.id) == fresh.indexes.tags.map(\.id))
        #expect(rebuilt.indexes.tags.map { $0.posts.map(\.id) } == fresh.indexes.tags.map { $0.posts.map(\.id) })
        #expect(rebuilt.indexes.users.map(\.name) == fresh.indexes.users.map(\.name))
        #expect(rebuilt.indexes.locations.map(\.slug) == fresh.indexes.locations.map(\.slug))
        #expect(rebuilt.indexes.diagnostics == fresh.indexes.diagnostics)
        #expect(rebuilt.authorNeighbours == fresh.authorNeighbours)
        #expect(rebuilt.followers == fresh.followers)
    }
}
