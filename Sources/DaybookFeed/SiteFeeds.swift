import DaybookModel
import DaybookParallel

/// Every ordered list of one build, computed once from the content and "now".
///
/// Ordering yields one array per list; every page shows a slice of one of these arrays, so
/// comparing two builds' lists is enough to know which pages changed.
package struct SiteFeeds: Sendable {
    package var journal: [JournalEntry]
    /// The timeline, viewer filter applied.
    package var timeline: [Post]
    /// Every post shown on the site (no viewer filter), in timeline order: each gets a page.
    package var posts: [Post]
    /// Visible comments of each visible post, oldest first.
    package var comments: [String: [Comment]]
    /// Shown responses of each listed entry, by prompt id, oldest first (CONTRACT §8).
    package var responses: [String: [Response]]
    /// The newest comments on each user's shown posts, newest first, as many as a feed shows
    /// (`feedSize`): their comments feed. Only those are kept: the rest of 500,000 comments would
    /// stand in memory a second time for nothing.
    package var commentsOnPostsBy: [String: [Comment]]
    /// Each shown post's neighbours among its author's posts, in timeline order.
    package var authorNeighbours: [String: PostNeighbours]
    /// The build's instant, for what a list dates by "now" (an empty feed, today's unsent prompt).
    package var moment: BuildMoment
    package var usersByID: [String: User]
    /// Tag, user and location lists over `posts`.
    package var indexes: SiteIndexes
    /// Who follows each user, in user order.
    package var followers: [String: [String]]
    /// Each shown post's hashtags (`Post.tags`), by post id: read from its caption once per build
    /// rather than once per card (a post has a card on its page, the timeline and each index).
    package var postTags: [String: [String]]
    package var diagnostics: [Diagnostic]
    /// The comment orders, hashtags and indexes with what they were made of, for the next build
    /// of a long-lived process; `nil` unless asked for (`forNextBuild`).
    package var reuse: Reuse?
    /// The comment orders as places, for a build in another process to take (`keepsOrders`);
    /// `nil` unless asked for, or when the comments have no key.
    package var orders: CommentOrders?

    /// The two orders of the comments (a site's 100,000, sorted twice), with everything they are
    /// made of: a build whose inputs are all equal to these takes the orders as they are. Also
    /// each post's hashtags: a post equal to the one they were read from takes them as they are.
    /// `serve` keeps the decoded records between rebuilds (`RecordCache.keepsDecoded`), so after
    /// a post edit the comments are the very same values and compare by reference.
    package struct Reuse: Sendable {
        var comments: [Comment] = []
        var moment: BuildMoment?
        /// The latest comment date at or before `moment.now`, and the earliest after it: a "now"
        /// from the first up to (not including) the second shows exactly the same comments.
        var shownSince: Instant?
        var hiddenFrom: Instant?
        var authors: [String: String] = [:]
        var feedSize = 0
        var byPost: [String: [Comment]] = [:]
        var byAuthor: [String: [Comment]] = [:]
        /// Each post's hashtags (read from its caption), with the post they were read from.
        var tags = InputMemo<Post, [String]>()
        /// The indexes' shape, the neighbours and the followers, with what they were made of.
        var indexes: IndexMemo?

        package init() {}

        init(comments: [Comment], moment: BuildMoment, authors: [String: String], feedSize: Int) {
            (self.comments, self.moment, self.authors, self.feedSize) = (comments, moment, authors, feedSize)
            (shownSince, hiddenFrom) = Self.bounds(comments, at: moment)
        }

        /// The latest comment date at or before `moment.now`, and the earliest after it.
        static func bounds(_ comments: [Comment], at moment: BuildMoment) -> (shownSince: Instant?, hiddenFrom: Instant?) {
            var (shownSince, hiddenFrom): (Instant?, Instant?) = (nil, nil)
            for comment in comments {
                let date = comment.createdAt
                if date <= moment.now {
                    if shownSince.map({ date > $0 }) ?? true { shownSince = date }
                } else if hiddenFrom.map({ date < $0 }) ?? true {
                    hiddenFrom = date
                }
            }
            return (shownSince, hiddenFrom)
        }

        /// Whether a build at `now` shows the comments one between those bounds showed.
        static func showsSame(at now: Instant, shownSince: Instant?, hiddenFrom: Instant?) -> Bool {
            if let shownSince, now < shownSince { return false }
            if let hiddenFrom, now >= hiddenFrom { return false }
            return true
        }

        /// This reuse for a build that takes its orders (`orders` gave them): the same comments, at
        /// a "now" that shows the same ones, so the dates around it hold too.
        func carried(to moment: BuildMoment) -> Reuse {
            var next = self
            next.moment = moment
            return next
        }

        /// The orders, when they were made of these very inputs, at a "now" that shows the same
        /// comments (the preview's clock moves on between rebuilds).
        func orders(comments: [Comment], moment: BuildMoment, authors: [String: String], feedSize: Int)
            -> (byPost: [String: [Comment]], byAuthor: [String: [Comment]])?
        {
            guard let previous = self.moment, previous.includeFuture == moment.includeFuture,
                previous.includeDrafts == moment.includeDrafts, self.feedSize == feedSize
            else { return nil }
            if !moment.includeFuture && !Self.showsSame(at: moment.now, shownSince: shownSince, hiddenFrom: hiddenFrom) { return nil }
            guard self.authors == authors, self.comments == comments else { return nil }
            return (byPost, byAuthor)
        }
    }

    /// - Parameters:
    ///   - reusing: the previous build's `reuse`, from a long-lived process; its orders and
    ///     indexes are taken only when made of inputs equal to this build's.
    ///   - forNextBuild: whether to make `reuse`, for the next build of a long-lived process. The
    ///     last build of its process skips it: a sweep of every comment and a memo of every post.
    ///   - commentsKey: what names `content.comments` (`LoadedSite.commentsKey`), when known:
    ///     without it no `orders` are taken or made.
    ///   - orders: the orders an earlier build made (`daybook build`, from its cache), taken when
    ///     they hold for this build (`CommentOrders.hold`).
    ///   - keepsOrders: whether to make `orders`, for a later build to take.
    package init(
        content: SiteContent, config: SiteConfig, moment: BuildMoment, reusing previous: Reuse? = nil, forNextBuild: Bool = false,
        commentsKey: UInt64? = nil, orders stored: CommentOrders? = nil, keepsOrders: Bool = false
    ) {
        let journal = JournalFeed(prompts: content.prompts, sentPrompts: content.sentPrompts).entries(at: moment)
        self.journal = journal.entries
        self.diagnostics = journal.diagnostics
        self.moment = moment
        let responses = ResponseFeed.shown(content.responses, prompts: content.prompts, entries: journal.entries, moment: moment)
        self.responses = responses.byPrompt
        self.diagnostics += responses.diagnostics
        let usersByID = Dictionary(content.users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let posts = TimelineFeed.query(moment).run(content.posts)
        self.usersByID = usersByID
        self.posts = posts
        let viewer = config.timelineViewer.flatMap { usersByID[$0] }
        self.timeline = TimelineFeed.timelineQuery(moment, viewer: viewer).run(posts)

        // The comment orders (or whether the previous build's still hold), the indexes and what
        // the next build reuses do not read each other: built at once, on all cores. One after
        // the other they were a tenth of a `serve` rebuild after a caption edit.
        let authors = Dictionary(posts.map { ($0.id, $0.author) }, uniquingKeysWith: { first, _ in first })
        let feedSize = max(1, config.feedSize)
        // Each post's hashtags, as the previous build read them when the post is the same.
        let tags = Parallel.mapBlocking(Array(posts.indices)) { position in
            previous?.tags.value(posts[position].id, inputs: posts[position], at: position) ?? posts[position].tags
        }
        self.postTags = Dictionary(zip(posts.map(\.id), tags), uniquingKeysWith: { first, _ in first })
        let (users, hashtagsPerPost) = (content.users, config.hashtagsPerPost)
        // The posts key only where stored orders are taken or made: a digest of 20,000 ids.
        let postsKey = commentsKey != nil && (stored != nil || keepsOrders) ? CommentOrders.postsKey(posts) : nil
        let (kept, placed, tagMemo) = Parallel.all(
            { () -> (byPost: [String: [Comment]], byAuthor: [String: [Comment]], stored: Bool)? in
                if let stored, let commentsKey, let postsKey, stored.hold(commentsKey: commentsKey, postsKey: postsKey, moment: moment, feedSize: feedSize),
                    let taken = stored.materialized(comments: content.comments, posts: posts)
                {
                    return (taken.byPost, taken.byAuthor, true)
                }
                return previous?.orders(comments: content.comments, moment: moment, authors: authors, feedSize: feedSize).map { ($0.byPost, $0.byAuthor, false) }
            },
            { () -> (indexes: SiteIndexes, memo: IndexMemo?, placements: [IndexMemo.Placement]) in
                let placements = forNextBuild ? zip(posts, tags).map { IndexMemo.Placement($0, tags: $1) } : []
                if forNextBuild, let memo = previous?.indexes?.matching(placements, users: users, hashtagsPerPost: hashtagsPerPost) {
                    return (SiteIndexes(shape: memo.shape, posts: posts), memo, placements)
                }
                return (SiteIndexes(posts: posts, users: users, hashtagsPerPost: hashtagsPerPost, tags: tags), nil, placements)
            },
            { forNextBuild ? InputMemo(zip(posts, tags).map { (id: $0.id, inputs: $0, value: $1) }) : nil })
        let indexes = placed.indexes
        self.indexes = indexes
        // Comments are grouped by their post's place in `posts`, and by their post's author's
        // place among the authors, and each group is ordered apart (`FeedQuery.runGroupedPlaces`).
        let postPlaces = kept == nil ? Dictionary(posts.indices.map { (posts[$0].id, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
        let comments = content.comments
        // Each order as places too, when made: what `orders` keeps.
        let (postOrder, authorOrder, people) = Parallel.all(
            { () -> (keyed: [String: [Comment]], places: [[Int]]?) in
                if let kept { return (kept.byPost, nil) }
                let places = TimelineFeed.commentQuery(moment).runGroupedPlaces(comments, count: posts.count) { postPlaces[$0.postID] }
                return (Self.keyed(places, by: posts.map(\.id), of: comments), places)
            },
            { () -> (keyed: [String: [Comment]], authors: [String], places: [[Int]]?) in
                if let kept { return (kept.byAuthor, [], nil) }
                let authorIDs = Array(Set(posts.map(\.author)))
                let authorPlaces = Dictionary(uniqueKeysWithValues: authorIDs.enumerated().map { ($1, $0) })
                let postAuthors = posts.map { authorPlaces[$0.author]! }
                let groups = TimelineFeed.commentFeedQuery(moment).runGroupedPlaces(comments, count: authorIDs.count) { comment in
                    postPlaces[comment.postID].map { postAuthors[$0] }
                }
                let places = groups.map { Array($0.prefix(feedSize)) }
                return (Self.keyed(places, by: authorIDs, of: comments), authorIDs, places)
            },
            { () -> (neighbours: [String: PostNeighbours], followers: [String: [String]], reuse: Reuse?) in
                let (neighbours, followers) = placed.memo.map { ($0.neighbours, $0.followers) }
                    ?? (Self.neighbours(indexes), Self.followers(indexes, usersByID: usersByID))
                guard forNextBuild else { return (neighbours, followers, nil) }
                var reuse = (kept?.stored == false ? previous?.carried(to: moment) : nil)
                    ?? Reuse(comments: content.comments, moment: moment, authors: authors, feedSize: feedSize)
                reuse.indexes = IndexMemo(
                    placements: placed.placements, users: users, hashtagsPerPost: hashtagsPerPost, shape: indexes.shape,
                    neighbours: neighbours, followers: followers)
                return (neighbours, followers, reuse)
            })
        let (neighbours, followers) = (people.neighbours, people.followers)
        let (byPost, byAuthor) = (postOrder.keyed, authorOrder.keyed)
        (self.comments, self.commentsOnPostsBy) = (byPost, byAuthor)
        if keepsOrders, let commentsKey, let postsKey {
            if let postPlaces = postOrder.places, let authorPlaces = authorOrder.places {
                let bounds = Reuse.bounds(comments, at: moment)
                orders = CommentOrders(
                    commentsKey: commentsKey, postsKey: postsKey, includeFuture: moment.includeFuture, includeDrafts: moment.includeDrafts,
                    shownSince: bounds.shownSince, hiddenFrom: bounds.hiddenFrom, feedSize: feedSize, byPost: postPlaces,
                    authors: authorOrder.authors, byAuthor: authorPlaces)
            } else {
                // Taken: the stored orders, which hold for this build as they are.
                orders = stored
            }
        }
        var reuse = people.reuse
        reuse?.tags = tagMemo ?? InputMemo()
        reuse?.byPost = byPost
        reuse?.byAuthor = byAuthor
        self.reuse = reuse
        self.authorNeighbours = neighbours
        self.diagnostics += indexes.diagnostics
        self.followers = followers
    }

    /// Groups of places among `items`, as items by the key of their group; empty groups are left out.
    static func keyed(_ groups: [[Int]], by keys: [String], of items: [Comment]) -> [String: [Comment]] {
        var keyed: [String: [Comment]] = [:]
        keyed.reserveCapacity(groups.count { !$0.isEmpty })
        for (key, group) in zip(keys, groups) where !group.isEmpty { keyed[key] = group.map { items[$0] } }
        return keyed
    }

    /// Each post's neighbours among its author's posts.
    private static func neighbours(_ indexes: SiteIndexes) -> [String: PostNeighbours] {
        var neighbours: [String: PostNeighbours] = [:]
        neighbours.reserveCapacity(indexes.users.reduce(0) { $0 + $1.posts.count })
        for group in indexes.users {
            for (index, post) in group.posts.enumerated() {
                neighbours[post.id] = PostNeighbours(
                    newer: index > 0 ? group.posts[index - 1].id : nil,
                    older: index + 1 < group.posts.count ? group.posts[index + 1].id : nil)
            }
        }
        return neighbours
    }

    /// Who follows each user, in user order.
    private static func followers(_ indexes: SiteIndexes, usersByID: [String: User]) -> [String: [String]] {
        var followers: [String: [String]] = [:]
        for group in indexes.users {
            for followed in usersByID[group.id]?.follows ?? [] { followers[followed, default: []].append(group.id) }
        }
        return followers
    }
}

/// A post's place among its author's posts (CONTRACT §5: `data-nav`), by post id.
package struct PostNeighbours: Sendable, Hashable {
    /// The author's next newer post; `nil` at the newest.
    package var newer: String?
    /// The author's next older post; `nil` at the oldest.
    package var older: String?

    package init(newer: String? = nil, older: String? = nil) {
        self.newer = newer
        self.older = older
    }
}

extension SiteFeeds {
    /// When an entry last changed (CONTRACT §4): the latest of its date (its sending, or the start
    /// of today for today's prompt not yet sent), its prompt's `updatedAt`, and the `createdAt`
    /// and `updatedAt` of its shown responses. The journal feed and the sitemap date it by this.
    package func lastChanged(_ entry: JournalEntry) -> Instant {
        var latest = entry.sentAt ?? moment.today.start(in: moment.timeZone)
        if let edited = entry.prompt?.updatedAt { latest = max(latest, edited) }
        for response in responses[entry.promptID] ?? [] { latest = max(latest, response.lastChanged) }
        return latest
    }

    /// When a post's page last changed: the post's date or edit, or its newest comment or comment edit.
    package func pageLastChanged(_ post: Post) -> Instant {
        (comments[post.id] ?? []).reduce(post.lastChanged) { max($0, $1.lastChanged) }
    }
}
