import DaybookModel
import DaybookParallel

/// The lists of one build that read no comment: the journal with its responses, the posts and
/// the timeline. `SiteFeeds` is made of this, the comments' two orders (`CommentOrders`) and the
/// indexes (`FeedIndexes`), each a function of the plan alone, so the incremental layer can keep
/// any of them between builds without the feeds knowing.
package struct FeedPlan: Sendable {
    package var moment: BuildMoment
    package var journal: [JournalEntry]
    /// Shown responses of each listed entry, by prompt id, oldest first (CONTRACT §8).
    package var responses: [String: [Response]]
    /// Every post shown on the site (no viewer filter), in timeline order.
    package var posts: [Post]
    /// The timeline, viewer filter applied.
    package var timeline: [Post]
    package var users: [User]
    package var usersByID: [String: User]
    /// Every comment as loaded: the orders name them by place.
    package var comments: [Comment]
    /// How many items a feed shows (`SiteConfig.feedSize`, at least one).
    package var feedSize: Int
    package var hashtagsPerPost: Int
    package var diagnostics: [Diagnostic]

    package init(content: SiteContent, config: SiteConfig, moment: BuildMoment) {
        // The journal, the post order and the people do not read each other: made side by side,
        // the post order's sort beside the rest, on the serial path of every rebuild.
        let ((journal, responses), posts, usersByID) = Parallel.all(
            {
                let journal = JournalFeed(prompts: content.prompts, sentPrompts: content.sentPrompts).entries(at: moment)
                return (journal, ResponseFeed.shown(content.responses, prompts: content.prompts, entries: journal.entries, moment: moment))
            },
            { TimelineFeed.query(moment).run(content.posts) },
            { Dictionary(content.users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) })
        let viewer = config.timelineViewer.flatMap { usersByID[$0] }
        self.moment = moment
        self.journal = journal.entries
        self.responses = responses.byPrompt
        self.posts = posts
        // Without a viewer, the timeline is every post: the very array.
        self.timeline = viewer == nil ? posts : TimelineFeed.timelineQuery(moment, viewer: viewer).filter(ordered: posts)
        self.users = content.users
        self.usersByID = usersByID
        self.comments = content.comments
        self.feedSize = max(1, config.feedSize)
        self.hashtagsPerPost = config.hashtagsPerPost
        self.diagnostics = journal.diagnostics + responses.diagnostics
    }
}
