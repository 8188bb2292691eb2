import DaybookModel

/// Every ordered list of one build, computed once from the content and "now".
///
/// Ordering yields one array per list; every page shows a slice of one of these arrays, so
/// comparing two builds' lists is enough to know which pages changed.
public struct SiteFeeds: Sendable {
    public var journal: [JournalEntry]
    /// The timeline, viewer filter applied.
    public var timeline: [Post]
    /// Every post shown on the site (no viewer filter), in timeline order: each gets a page.
    public var posts: [Post]
    /// Visible comments of each visible post, oldest first.
    public var comments: [String: [Comment]]
    public var usersByID: [String: User]
    /// Tag, user and location lists over `posts`.
    public var indexes: SiteIndexes
    /// Who follows each user, in user order.
    public var followers: [String: [String]]
    public var diagnostics: [Diagnostic]

    public init(content: SiteContent, config: SiteConfig, moment: BuildMoment) {
        let journal = JournalFeed(prompts: content.prompts, sentPrompts: content.sentPrompts).entries(at: moment)
        self.journal = journal.entries
        self.diagnostics = journal.diagnostics
        let usersByID = Dictionary(content.users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let posts = TimelineFeed.query(moment).run(content.posts)
        self.usersByID = usersByID
        self.posts = posts
        let viewer = config.timelineViewer.flatMap { usersByID[$0] }
        self.timeline = TimelineFeed.timelineQuery(moment, viewer: viewer).run(posts)

        let shownPosts = Set(posts.map(\.id))
        let commentOrder = TimelineFeed.commentQuery(moment).narrowed { shownPosts.contains($0.postID) }
        self.comments = Dictionary(grouping: commentOrder.run(content.comments), by: \.postID)
        self.indexes = SiteIndexes(posts: posts, users: content.users, hashtagsPerPost: config.hashtagsPerPost)
        self.diagnostics += indexes.diagnostics
        var followers: [String: [String]] = [:]
        for group in indexes.users {
            for followed in usersByID[group.id]?.follows ?? [] { followers[followed, default: []].append(group.id) }
        }
        self.followers = followers
    }
}
