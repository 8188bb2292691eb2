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
    /// When each post's visible comments last changed, by post id (`CommentOrders.Keyed.lastChanged`).
    package var commentsLastChanged: [String: Instant]
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

    /// The feeds of `content` at `moment`: the plan, then the comment orders beside the indexes.
    package init(content: SiteContent, config: SiteConfig, moment: BuildMoment) {
        let plan = FeedPlan(content: content, config: config, moment: moment)
        let (orders, indexes) = Parallel.all({ CommentOrders(plan) }, { FeedIndexes(plan) })
        self.init(plan, orders: orders, indexes: indexes)
    }

    /// The feeds of `plan`, with its comments' orders and its indexes however they were come by
    /// (worked out now, or kept by the incremental layer): each is a function of the plan alone.
    package init(_ plan: FeedPlan, orders: CommentOrders, indexes: FeedIndexes) {
        self.init(plan, comments: orders.keyed(plan), indexes: indexes)
    }

    /// The same, with the orders already keyed: a long-lived process keeps them so between builds.
    package init(_ plan: FeedPlan, comments keyed: CommentOrders.Keyed, indexes: FeedIndexes) {
        (journal, responses, moment) = (plan.journal, plan.responses, plan.moment)
        (posts, timeline, usersByID) = (plan.posts, plan.timeline, plan.usersByID)
        (comments, commentsOnPostsBy, commentsLastChanged) = (keyed.byPost, keyed.byAuthor, keyed.lastChanged)
        (postTags, self.indexes, authorNeighbours, followers) = (indexes.postTags, indexes.indexes, indexes.neighbours, indexes.followers)
        diagnostics = plan.diagnostics + indexes.indexes.diagnostics
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

    /// When each post's page last changed, in `posts`' order: the post's date or edit, or its
    /// newest comment or comment edit. All at once: asked a post at a time from another module,
    /// each post (its dozen strings and arrays) was copied to be passed, two thirds of the
    /// sitemap's dates, worked out on every build.
    package var postPagesLastChanged: [Instant] {
        posts.map { post in commentsLastChanged[post.id].map { max(post.lastChanged, $0) } ?? post.lastChanged }
    }
}
