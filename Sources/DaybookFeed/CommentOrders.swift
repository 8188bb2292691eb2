import DaybookModel
import DaybookParallel

/// A build's two comment orders, as places among `FeedPlan.comments`: each post's shown comments
/// oldest first, and the newest shown comments on each author's posts (their comments feed).
/// Grouping and sorting a site's 100,000 comments twice is the most of the feeds; places rather
/// than comments are what a later build can keep and take back (`FeedStep`).
package struct CommentOrders: Sendable, Hashable {
    /// By place in `FeedPlan.posts`: the places of the post's shown comments, oldest first.
    package var byPost: [[Int]]
    /// The authors of shown posts, in the order of `byAuthor` (first posted first).
    package var authors: [String]
    /// By author: the places of the newest shown comments on their posts, newest first, at most `feedSize`.
    package var byAuthor: [[Int]]

    package init(byPost: [[Int]], authors: [String], byAuthor: [[Int]]) {
        (self.byPost, self.authors, self.byAuthor) = (byPost, authors, byAuthor)
    }

    /// Both orders of `plan`'s comments, side by side on all cores.
    package init(_ plan: FeedPlan) {
        let (posts, comments, moment) = (plan.posts, plan.comments, plan.moment)
        let postPlaces = Dictionary(posts.indices.map { (posts[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        var authorIDs: [String] = []
        var authorPlaces: [String: Int] = [:]
        for post in posts where authorPlaces[post.author] == nil {
            authorPlaces[post.author] = authorIDs.count
            authorIDs.append(post.author)
        }
        let authors = authorIDs
        let postAuthors = posts.map { authorPlaces[$0.author] ?? 0 }
        let feedSize = plan.feedSize
        let (byPost, byAuthor) = Parallel.all(
            { TimelineFeed.commentQuery(moment).runGroupedPlaces(comments, count: posts.count) { postPlaces[$0.postID] } },
            {
                TimelineFeed.commentFeedQuery(moment).runGroupedPlaces(comments, count: authors.count) { comment in
                    postPlaces[comment.postID].map { postAuthors[$0] }
                }.map { Array($0.prefix(feedSize)) }
            })
        self.init(byPost: byPost, authors: authors, byAuthor: byAuthor)
    }

    /// Whether these orders can be orders of `plan`: a group per post, every place among its
    /// comments. Orders read back from an untrusted cache folder are checked before they are used.
    package func fits(_ plan: FeedPlan) -> Bool {
        let count = plan.comments.count
        let fits = { (group: [Int]) in group.allSatisfy { $0 >= 0 && $0 < count } }
        return byPost.count == plan.posts.count && byAuthor.count == authors.count && byPost.allSatisfy(fits) && byAuthor.allSatisfy(fits)
    }

    /// The orders as the feeds hold them: comments by post id, and by author id.
    package struct Keyed: Sendable {
        package var byPost: [String: [Comment]]
        package var byAuthor: [String: [Comment]]
        /// When each post's shown comments last changed (the latest `createdAt` or `updatedAt`), by
        /// post id: the sitemap dates every post page by it on every build, and `serve` keeps the
        /// orders keyed from build to build, where going over 100,000 comments again was a
        /// twentieth of a save.
        package var lastChanged: [String: Instant]
    }

    /// The orders as the feeds hold them, of `plan`'s comments.
    package func keyed(_ plan: FeedPlan) -> Keyed {
        let (posts, comments) = (plan.posts, plan.comments)
        let ((byPost, lastChanged), byAuthor) = Parallel.all(
            {
                let byPost = Self.keyed(self.byPost, by: posts.map(\.id), of: comments)
                return (byPost, byPost.mapValues { group in group.dropFirst().reduce(group[0].lastChanged) { max($0, $1.lastChanged) } })
            },
            { Self.keyed(self.byAuthor, by: authors, of: comments) })
        return Keyed(byPost: byPost, byAuthor: byAuthor, lastChanged: lastChanged)
    }

    /// Groups of places among `items`, as items by the key of their group; empty groups are left out.
    static func keyed(_ groups: [[Int]], by keys: [String], of items: [Comment]) -> [String: [Comment]] {
        var keyed: [String: [Comment]] = [:]
        keyed.reserveCapacity(groups.count { !$0.isEmpty })
        for (key, group) in zip(keys, groups) where !group.isEmpty { keyed[key] = group.map { items[$0] } }
        return keyed
    }
}
