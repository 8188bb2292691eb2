import DaybookFeed
import DaybookModel
import DaybookParallel

/// The feeds through the memo. Grouping and sorting a site's 100,000 comments twice
/// (`CommentOrders`) was the most of the feeds in a one-post rebuild, and a post edit seldom moves
/// a comment: the orders are kept as places, and taken again while the comments, the posts and
/// their authors, and the settings are the ones they were made of, at a "now" that shows the same
/// comments. The rest of the feeds is worked out every build: it reads every post.
///
/// Kept as `feeds.comment-orders`, one entry, under a version of what the orders read but "now";
/// the value holds the dates that bound the "now"s showing the same comments.
package enum FeedStep {
    static let orders = MemoStep("feeds.comment-orders")
    /// The indexes as `serve` keeps them decoded between builds (never as bytes), filled with each
    /// build's own posts: grouping, slugging and sorting 20,000 posts again after a caption edit
    /// was a third of its feeds.
    static let indexes = MemoStep("feeds.indexes")
    /// Each post's hashtags as `serve` keeps them decoded, under the post's content key: reading
    /// 20,000 captions for hashtags again after one edit was most of what the indexes' version costs.
    static let postTags = MemoStep("feeds.post-tags")
    /// The indexes' shape (`SiteIndexes.Shape`) as `daybook build` keeps it between builds, under
    /// the indexes' version: a caption edit that keeps the post's hashtags, author and place
    /// finds it, and only fills it with the build's posts.
    static let shapes = MemoStep("feeds.index-shape")

    /// The feeds, and whether their comment orders came from the memo.
    package struct Result: Sendable {
        package var feeds: SiteFeeds
        /// Whether the orders were taken from the memo.
        package var reused = false
    }

    /// - Parameter commentsKey: what names the content's comments across builds
    ///   (`LoadedSite.commentsKey`: their files' cache keys and the ids they were checked
    ///   against). Without it the orders are worked out and not kept: comparing 100,000 comments
    ///   one by one would cost what sorting them does.
    package static func feeds(
        content: SiteContent, config: SiteConfig, moment: BuildMoment, commentsKey: UInt64?, memo: inout MemoTable
    ) -> Result {
        let plan = FeedPlan(content: content, config: config, moment: moment)
        let version = commentsKey.map { Self.version(of: plan, commentsKey: $0) }
        var stored: ArraySlice<UInt8>?
        var held: Held?
        if let version {
            held = memo.decoded(Self.orders, 0, version: version, as: Held.self).flatMap { $0.kept.bounds.show(moment) ? $0 : nil }
            if held == nil { stored = memo.value(Self.orders, 0, version: version) }
        }
        let (kept, keptBytes) = (held, stored)
        // Kept decoded (`serve`), the orders come keyed as the last build had them: the same
        // comments, since the version names their files.
        let order = { @Sendable () -> (kept: Kept, keyed: CommentOrders.Keyed, reused: Bool) in
            if let kept { return (kept.kept, kept.keyed, true) }
            if let keptBytes, let kept = Kept(bytes: keptBytes), kept.bounds.show(moment), kept.orders.fits(plan) {
                return (kept, kept.orders.keyed(plan), true)
            }
            let orders = CommentOrders(plan)
            return (Kept(orders: orders, bounds: Bounds(plan.comments, at: moment)), orders.keyed(plan), false)
        }
        // The indexes as the last build had them while every post sits in the same groups: kept
        // decoded (`serve`, with each post's hashtags while the post is the same), or their shape
        // kept as bytes (`daybook build`).
        let tags = memo.keepsDecoded ? Self.tags(of: plan.posts, memo: &memo) : Parallel.mapBlocking(Array(plan.posts.indices)) { plan.posts[$0].tags }
        let indexVersion = Self.indexVersion(of: plan, tags: tags)
        let heldIndexes = memo.decoded(Self.indexes, 0, version: indexVersion, as: FeedIndexes.self)
        let keptShape = memo.keepsDecoded ? nil : memo.value(Self.shapes, 0, version: indexVersion)
        let (ordered, (indexes, madeIndexes)) = Parallel.all(order) { @Sendable () -> (FeedIndexes, Bool) in
            if let heldIndexes { return (heldIndexes.refilled(with: plan), false) }
            if let shape = keptShape.flatMap({ SiteIndexes.Shape(bytes: $0, postCount: plan.posts.count) }) {
                return (FeedIndexes(plan, tags: tags, indexes: SiteIndexes(shape: shape, posts: plan.posts)), false)
            }
            return (FeedIndexes(plan, tags: tags), true)
        }
        if memo.keepsDecoded {
            if heldIndexes == nil { memo.keepDecoded(Self.indexes, 0, version: indexVersion, indexes) }
        } else if madeIndexes {
            let shape = indexes.indexes.shape
            memo.store(Self.shapes, 0, version: indexVersion, decoded: shape) { shape.bytes }
        }
        let feeds = SiteFeeds(plan, comments: ordered.keyed, indexes: indexes)
        guard let version else { return Result(feeds: feeds) }
        if !ordered.reused { memo.store(Self.orders, 0, version: version, value: ordered.kept.bytes) }
        if held == nil { memo.keepDecoded(Self.orders, 0, version: version, Held(kept: ordered.kept, keyed: ordered.keyed)) }
        return Result(feeds: feeds, reused: ordered.reused)
    }

    /// What the orders read, but "now": the comments (by their key), the posts in order with their
    /// authors, whether future and draft items show, and how many comments a feed holds.
    static func version(of plan: FeedPlan, commentsKey: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.combine(bits: commentsKey)
        hash.combine(plan.posts.count)
        for post in plan.posts {
            hash.combine(post.id)
            hash.combine(post.author)
        }
        hash.combine(plan.moment.includeFuture)
        hash.combine(plan.moment.includeDrafts)
        hash.combine(plan.feedSize)
        return hash.value
    }

    /// What the indexes read: what puts each post in its groups, in order (its id, author, place
    /// and hashtags, and where it was written, which their warnings name), every user, and the
    /// hashtag limit. A caption edit that keeps the post's hashtags leaves it the same.
    ///
    /// Each post is hashed on its own, on every core, and the version hashes those in order: in
    /// one pass, the 20,000 posts' strings were 11 ms of a `serve` rebuild on one core.
    static func indexVersion(of plan: FeedPlan, tags: [[String]]) -> UInt64 {
        let posts = Parallel.mapBlocking(Array(plan.posts.indices)) { index -> UInt64 in
            let (post, postTags) = (plan.posts[index], tags[index])
            var hash = StableHash()
            hash.combine(post.id)
            hash.combine(post.author)
            hash.combine(post.location?.name)
            hash.combine(postTags.count)
            postTags.forEach { hash.combine($0) }
            // Its parts, not its text: formatting 20,000 places was a third of the version.
            hash.combine(post.origin?.path)
            hash.combine(post.origin?.line ?? -1)
            hash.combine(post.origin?.column ?? -1)
            return hash.value
        }
        var hash = StableHash()
        hash.combine(plan.posts.count)
        posts.forEach { hash.combine(bits: $0) }
        hash.combine(plan.users.count)
        for user in plan.users { hash.combine(user) }
        hash.combine(plan.hashtagsPerPost)
        return hash.value
    }

    /// Each post's hashtags, in order, read again only from posts not kept decoded as they are.
    static func tags(of posts: [Post], memo: inout MemoTable) -> [[String]] {
        let kept = memo.decodedResults(of: postTags, as: [String].self)
        // Each id hashed once, on every core: hashed again for what the memo retains, 20,000 ids
        // were a fifth of this step under `serve`.
        let found = Parallel.mapBlocking(Array(posts.indices)) { position -> (id: UInt64, tags: [String], made: Bool) in
            let post = posts[position]
            let id = id(of: post)
            if let tags = kept.value(id, version: post.contentKey) { return (id, tags, false) }
            return (id, post.tags, true)
        }
        for (post, entry) in zip(posts, found) where entry.made { memo.keepDecoded(postTags, entry.id, version: post.contentKey, entry.tags) }
        memo.retain(postTags, ids: Set(found.lazy.map(\.id)))
        return found.map(\.tags)
    }

    /// A post's id in the memo: a hash of its id.
    static func id(of post: Post) -> UInt64 { MemoStep.id(post.id) }

    /// The latest comment date at or before "now", and the earliest after it: a "now" from the
    /// first up to (not including) the second shows exactly the same comments. With `--future`
    /// every comment shows whatever "now" is.
    package struct Bounds: Sendable, Equatable {
        var includeFuture: Bool
        var shownSince: Instant?
        var hiddenFrom: Instant?

        init(includeFuture: Bool, shownSince: Instant?, hiddenFrom: Instant?) {
            (self.includeFuture, self.shownSince, self.hiddenFrom) = (includeFuture, shownSince, hiddenFrom)
        }

        init(_ comments: [Comment], at moment: BuildMoment) {
            self.init(includeFuture: moment.includeFuture, shownSince: nil, hiddenFrom: nil)
            guard !includeFuture else { return }
            for comment in comments {
                let date = comment.createdAt
                if date <= moment.now {
                    if shownSince.map({ date > $0 }) ?? true { shownSince = date }
                } else if hiddenFrom.map({ date < $0 }) ?? true {
                    hiddenFrom = date
                }
            }
        }

        /// Whether a build at `moment` shows the comments one within these bounds showed.
        func show(_ moment: BuildMoment) -> Bool {
            if includeFuture { return true }
            if let shownSince, moment.now < shownSince { return false }
            if let hiddenFrom, moment.now >= hiddenFrom { return false }
            return true
        }
    }

    /// The orders as `serve` keeps them decoded, keyed as the feeds hold them.
    struct Held: Sendable {
        var kept: Kept
        var keyed: CommentOrders.Keyed
    }

    /// The memo's value: the orders with their bounds.
    package struct Kept: Sendable, Equatable {
        var orders: CommentOrders
        var bounds: Bounds

        package var bytes: [UInt8] {
            var writer = MemoWriter(reserving: 4 * (orders.byPost.count + orders.byAuthor.count) + 3 * 200_000)
            writer.count(bounds.includeFuture ? 1 : 0)
            for date in [bounds.shownSince, bounds.hiddenFrom] {
                writer.count(date == nil ? 0 : 1)
                if let date { writer.fixed(date.secondsSince1970.bitPattern) }
            }
            func places(_ groups: [[Int]]) {
                writer.count(groups.count)
                for group in groups {
                    writer.count(group.count)
                    for place in group { writer.count(place) }
                }
            }
            places(orders.byPost)
            writer.count(orders.authors.count)
            for author in orders.authors { writer.string(author) }
            places(orders.byAuthor)
            return writer.bytes
        }

        init(orders: CommentOrders, bounds: Bounds) {
            (self.orders, self.bounds) = (orders, bounds)
        }

        /// Reads `bytes`; `nil` when they do not read whole. Places are checked against the build's
        /// own comments before they are used (`CommentOrders.fits`).
        package init?(bytes: ArraySlice<UInt8>) {
            var reader = MemoReader(bytes)
            func date() -> Instant?? {
                switch reader.unsigned() {
                case 0: return .some(nil)
                // A NaN read back would not equal itself; no bound of a build is one.
                case 1: return reader.fixed().map { Double(bitPattern: $0) }.flatMap { $0.isFinite ? .some(Instant(secondsSince1970: $0)) : nil }
                default: return nil
                }
            }
            func places() -> [[Int]]? {
                reader.elements { $0.elements { $0.unsigned().flatMap { $0 <= UInt64(Int32.max) ? Int($0) : nil } } }
            }
            guard let future = reader.unsigned(), future <= 1, let shownSince = date(), let hiddenFrom = date(),
                let byPost = places(), let authors = reader.elements({ $0.string() }), let byAuthor = places(), reader.atEnd
            else { return nil }
            self.init(
                orders: CommentOrders(byPost: byPost, authors: authors, byAuthor: byAuthor),
                bounds: Bounds(includeFuture: future == 1, shownSince: shownSince, hiddenFrom: hiddenFrom))
        }
    }
}
