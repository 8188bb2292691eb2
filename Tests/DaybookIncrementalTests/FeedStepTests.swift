@testable import DaybookIncremental
import DaybookFeed
import DaybookModel
import DaybookTestSupport
import Testing

/// The comment orders through the memo (`FeedStep`): taken only while the comments (by the
/// loader's key), the posts and their authors and the settings are the ones they were made of, at
/// a "now" that shows the same comments, so the feeds always equal a fresh build's.
@Suite("Comment orders through the memo")
struct FeedStepTests {
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

    /// What the loader's key stands for: the comments themselves, here hashed whole.
    static func key(_ comments: [DaybookModel.Comment]) -> UInt64 {
        var hash = StableHash()
        for comment in comments {
            hash.combine(comment)
            hash.combine(comment.id)
        }
        return hash.value
    }

    static func step(_ content: SiteContent, at moment: BuildMoment, memo: inout MemoTable, keyed: Bool = true) -> FeedStep.Result {
        FeedStep.feeds(content: content, config: SiteConfig(), moment: moment, commentsKey: keyed ? key(content.comments) : nil, memo: &memo)
    }

    static func fresh(_ content: SiteContent, at moment: BuildMoment) -> SiteFeeds {
        SiteFeeds(content: content, config: SiteConfig(), moment: moment)
    }

    /// A memo holding the orders a build of `content` at `moment` kept, with each post's places
    /// reversed and swapped between posts: a build that takes them shows it.
    static func planted(_ content: SiteContent, at moment: BuildMoment) throws -> MemoTable {
        var memo = MemoTable()
        _ = step(content, at: moment, memo: &memo)
        let version = FeedStep.version(of: FeedPlan(content: content, config: SiteConfig(), moment: moment), commentsKey: key(content.comments))
        var kept = try #require(memo.value(FeedStep.orders, 0, version: version).flatMap(FeedStep.Kept.init(bytes:)))
        kept.orders.byPost = kept.orders.byPost.reversed()
        memo.store(FeedStep.orders, 0, version: version, value: kept.bytes)
        // Through the container, as `daybook build` reads it.
        return MemoTable(container: memo.encoded()[...])
    }

    @Test("made of these comments, the kept orders give the feeds of a build that makes them")
    func equal() {
        let moment = Self.moment("2026-11-21T12:00:00Z")
        var memo = MemoTable()
        let first = Self.step(Self.content, at: moment, memo: &memo)
        #expect(!first.reused && memo.changed)
        var saved = MemoTable(container: memo.encoded()[...])
        let second = Self.step(Self.content, at: moment, memo: &saved)
        #expect(second.reused && !saved.changed, "taken, nothing stored")
        let fresh = Self.fresh(Self.content, at: moment)
        #expect(second.feeds.comments == fresh.comments)
        #expect(second.feeds.commentsOnPostsBy == fresh.commentsOnPostsBy)
        #expect(second.feeds.comments["p1"]?.map(\.id) == ["c1", "c3"])
    }

    @Test("taken when nothing they read changed, the clock having moved on short of the next comment")
    func taken() throws {
        let before = Self.moment("2026-11-20T12:00:00Z")
        // Newest post first: p2 with c2, p1 with c1; c3 is not shown yet. Planted: swapped.
        var memo = try Self.planted(Self.content, at: before)
        let later = Self.step(Self.content, at: Self.moment("2026-11-21T11:59:59Z"), memo: &memo)
        #expect(later.feeds.comments["p2"]?.map(\.id) == ["c1"])
        #expect(later.feeds.comments["p1"]?.map(\.id) == ["c2"])
        // A post edit that leaves ids and authors as they were keeps them too.
        var edited = Self.content
        edited.posts[0].caption = "new caption"
        var again = try Self.planted(Self.content, at: before)
        #expect(Self.step(edited, at: before, memo: &again).feeds.comments["p2"]?.map(\.id) == ["c1"])
    }

    /// `content` at `before`, with one change the orders read: a comment, a post or its author,
    /// the settings or the shown comments.
    static func changed(_ change: Int) -> (content: SiteContent, moment: BuildMoment) {
        var content = Self.content
        var moment = Self.moment("2026-11-20T12:00:00Z")
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

    @Test("made again, and kept anew, when a comment, a post or its author, the settings or the shown comments change", arguments: 0..<7)
    func madeAgain(change: Int) throws {
        var memo = try Self.planted(Self.content, at: Self.moment("2026-11-20T12:00:00Z"))
        let (content, moment) = Self.changed(change)
        let rebuilt = Self.step(content, at: moment, memo: &memo)
        let fresh = Self.fresh(content, at: moment)
        #expect(!rebuilt.reused)
        #expect(rebuilt.feeds.comments == fresh.comments)
        #expect(rebuilt.feeds.commentsOnPostsBy == fresh.commentsOnPostsBy)
        // What it kept is its own: the next build at that moment takes it and shows the same.
        let next = Self.step(content, at: moment, memo: &memo)
        #expect(next.reused)
        #expect(next.feeds.comments == fresh.comments)
    }

    @Test("orders whose places are not among the comments are made again")
    func outOfPlace() throws {
        let moment = Self.moment("2026-11-21T12:00:00Z")
        var memo = MemoTable()
        _ = Self.step(Self.content, at: moment, memo: &memo)
        let version = FeedStep.version(of: FeedPlan(content: Self.content, config: SiteConfig(), moment: moment), commentsKey: Self.key(Self.content.comments))
        var kept = try #require(memo.value(FeedStep.orders, 0, version: version).flatMap(FeedStep.Kept.init(bytes:)))
        kept.orders.byPost[0] = [7]
        memo.store(FeedStep.orders, 0, version: version, value: kept.bytes)
        let rebuilt = Self.step(Self.content, at: moment, memo: &memo)
        #expect(!rebuilt.reused)
        #expect(rebuilt.feeds.comments == Self.fresh(Self.content, at: moment).comments)
    }

    @Test("without the comments' key the orders are made and not kept")
    func unkeyed() {
        var memo = MemoTable()
        let result = Self.step(Self.content, at: Self.moment("2026-11-21T12:00:00Z"), memo: &memo, keyed: false)
        #expect(memo.values(of: FeedStep.orders).isEmpty && !result.reused)
        #expect(result.feeds.comments == Self.fresh(Self.content, at: Self.moment("2026-11-21T12:00:00Z")).comments)
    }

    @Test("kept orders read back from their bytes as they were; bytes cut short or grown are none")
    func bytes() {
        let moment = Self.moment("2026-11-20T12:00:00Z")
        let plan = FeedPlan(content: Self.content, config: SiteConfig(), moment: moment)
        let kept = FeedStep.Kept(orders: CommentOrders(plan), bounds: FeedStep.Bounds(Self.content.comments, at: moment))
        #expect(kept.bounds.shownSince == Fixed.at("2026-11-04T10:00:00Z"))
        #expect(kept.bounds.hiddenFrom == Fixed.at("2026-11-21T12:00:00Z"))
        let bytes = kept.bytes
        #expect(FeedStep.Kept(bytes: bytes[...]) == kept)
        for cut in [0, 1, bytes.count / 2, bytes.count - 1] {
            #expect(FeedStep.Kept(bytes: bytes[..<cut]) == nil, "\(cut)")
        }
        #expect(FeedStep.Kept(bytes: (bytes + [0])[...]) == nil)
    }

    /// The fuzzer's find (CI, stop 45): a bound read back as NaN did not equal itself.
    @Test("a bound read back as a NaN or an infinity is none; a finite one reads back", arguments: [Double.nan, .infinity, -.infinity, 1e9])
    func unboundedBound(seconds: Double) {
        let empty = CommentOrders(byPost: [], authors: [], byAuthor: [])
        let kept = FeedStep.Kept(orders: empty, bounds: FeedStep.Bounds(includeFuture: false, shownSince: Instant(secondsSince1970: seconds), hiddenFrom: nil))
        #expect(FeedStep.Kept(bytes: kept.bytes[...]) == (seconds.isFinite ? kept : nil))
        // The fuzzer's input itself: a NaN shown-since, no hidden-from, no orders.
        #expect(FeedStep.Kept(bytes: [0, 1, 0xf7, 0xfb, 0xff, 0xff, 0xfb, 0xff, 0xff, 0xff, 0, 0, 0, 0][...]) == nil)
    }

    @Test("kept decoded (serve), the orders come keyed and the indexes whole from the last build while what they read is the same")
    func keptDecoded() throws {
        let moment = Self.moment("2026-11-21T12:00:00Z")
        var content = Self.content
        content.posts[0].caption = "#sea at dawn"
        var memo = MemoTable()
        memo.keepsDecoded = true
        let first = Self.step(content, at: moment, memo: &memo)
        #expect(!first.reused)
        let second = Self.step(content, at: moment, memo: &memo)
        #expect(second.reused)
        #expect(second.feeds.comments == first.feeds.comments)
        #expect(second.feeds.indexes.tags.map(\.id) == ["sea"])
        // A caption edit that keeps the hashtags: the indexes as they were, filled with the edited post.
        content.posts[0].caption = "#sea at noon"
        let edited = Self.step(content, at: moment, memo: &memo)
        #expect(edited.feeds.indexes.tags.map(\.id) == ["sea"])
        #expect(edited.feeds.indexes.tags.first?.posts.first?.caption == "#sea at noon")
        // One that moves the post to another tag: the indexes are made again, the orders kept.
        content.posts[0].caption = "#sky at dusk"
        let third = Self.step(content, at: moment, memo: &memo)
        #expect(third.reused)
        #expect(third.feeds.indexes.tags.map(\.id) == ["sky"])
        #expect(third.feeds.indexes.tags.first?.posts.first?.caption == "#sky at dusk")
        let fresh = Self.fresh(content, at: moment)
        #expect(third.feeds.comments == fresh.comments && third.feeds.commentsOnPostsBy == fresh.commentsOnPostsBy)
    }

    @Test("kept as bytes (daybook build), the indexes' shape is taken while every post sits in the same groups, and made again when one moves")
    func keptShape() throws {
        let moment = Self.moment("2026-11-21T12:00:00Z")
        var content = Self.content
        content.posts[0].caption = "#sea at dawn"
        content.posts[1].caption = "#sky #sea"
        var memo = MemoTable()
        _ = Self.step(content, at: moment, memo: &memo)
        // Planted: the kept shape names the tags the other way round, so a build that takes it shows it.
        let plan = FeedPlan(content: content, config: SiteConfig(), moment: moment)
        let version = FeedStep.indexVersion(of: plan, tags: plan.posts.map(\.tags))
        var shape = try #require(memo.value(FeedStep.shapes, 0, version: version).flatMap { SiteIndexes.Shape(bytes: $0, postCount: 2) })
        #expect(shape.tags.map(\.id) == ["sea", "sky"])
        shape.tags.reverse()
        memo.store(FeedStep.shapes, 0, version: version, value: shape.bytes)
        var saved = MemoTable(container: memo.encoded()[...])
        // A caption edit that keeps every hashtag: the shape is taken, filled with the edited post.
        content.posts[0].caption = "#sea at noon"
        let edited = Self.step(content, at: moment, memo: &saved)
        #expect(edited.feeds.indexes.tags.map(\.id) == ["sky", "sea"])
        #expect(edited.feeds.indexes.tags.last?.posts.map(\.caption) == ["#sky #sea", "#sea at noon"])
        #expect(!saved.changed, "taken, nothing stored")
        // One that moves the post to another tag: made again, as a fresh build makes them, and kept.
        content.posts[0].caption = "#sun at noon"
        let moved = Self.step(content, at: moment, memo: &saved)
        let fresh = Self.fresh(content, at: moment)
        #expect(moved.feeds.indexes.tags.map(\.id) == fresh.indexes.tags.map(\.id))
        #expect(moved.feeds.indexes.tags.map(\.id) == ["sea", "sky", "sun"])
        #expect(moved.feeds.indexes.users.map { $0.posts.map(\.id) } == fresh.indexes.users.map { $0.posts.map(\.id) })
        #expect(saved.changed)
    }

    @Test("a kept shape reads back as it was; bytes cut short or grown, or a place past the posts, are none")
    func shapeBytes() throws {
        var content = Self.content
        content.posts[0].caption = "#sea"
        content.posts[0].location = Location(name: "Oslo")
        content.posts[1].location = Location(name: "∅")
        let indexes = SiteIndexes(posts: content.posts, users: content.users, hashtagsPerPost: 0)
        #expect(indexes.shape.diagnostics.count == 2, "too many hashtags, and a place without a slug")
        let bytes = indexes.shape.bytes
        #expect(SiteIndexes.Shape(bytes: bytes[...], postCount: 2) == indexes.shape)
        #expect(SiteIndexes.Shape(bytes: bytes[...], postCount: 1) == nil, "a place past the posts")
        for cut in [0, 1, bytes.count / 2, bytes.count - 1] {
            #expect(SiteIndexes.Shape(bytes: bytes[..<cut], postCount: 2) == nil, "\(cut)")
        }
        #expect(SiteIndexes.Shape(bytes: (bytes + [0])[...], postCount: 2) == nil)
    }
}
