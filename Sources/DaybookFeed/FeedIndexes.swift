import DaybookModel
import DaybookParallel

/// What the feeds group the posts into: each post's hashtags, the tag, user and location
/// indexes, each post's neighbours among its author's posts and each person's followers.
package struct FeedIndexes: Sendable {
    /// Each shown post's hashtags (`Post.tags`), by post id: read from its caption once per build
    /// rather than once per card (a post has a card on its page, the timeline and each index).
    package var postTags: [String: [String]]
    package var indexes: SiteIndexes
    package var neighbours: [String: PostNeighbours]
    /// Who follows each user, in user order.
    package var followers: [String: [String]]

    package init(_ plan: FeedPlan) {
        let posts = plan.posts
        self.init(plan, tags: Parallel.mapBlocking(Array(posts.indices)) { posts[$0].tags })
    }

    /// The same, with each post's hashtags (`Post.tags`, in `plan.posts`' order) however they were come by.
    package init(_ plan: FeedPlan, tags: [[String]]) {
        self.init(plan, tags: tags, indexes: SiteIndexes(posts: plan.posts, users: plan.users, hashtagsPerPost: plan.hashtagsPerPost, tags: tags))
    }

    /// The same, with the tag, user and location indexes however they were come by (the
    /// incremental layer keeps their shape).
    package init(_ plan: FeedPlan, tags: [[String]], indexes: SiteIndexes) {
        postTags = Dictionary(zip(plan.posts.map(\.id), tags), uniquingKeysWith: { first, _ in first })
        self.indexes = indexes
        neighbours = Self.neighbours(indexes)
        followers = Self.followers(indexes, usersByID: plan.usersByID)
    }

    /// These indexes over `plan`'s posts, which sit in the same groups as the posts these were
    /// made of (`SiteIndexes.refilled(with:)`): neighbours and followers are ids, and stay.
    package func refilled(with plan: FeedPlan) -> FeedIndexes {
        var refilled = self
        refilled.indexes = indexes.refilled(with: plan.posts)
        return refilled
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
