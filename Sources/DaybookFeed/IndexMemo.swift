import DaybookModel

/// The indexes' shape, each post's neighbours and each person's followers, with what they were
/// made of, for the next build of a long-lived process (`serve`).
///
/// After a caption or comment edit the posts sit in the same groups: the next build fills the
/// shape with its own posts instead of grouping, slugging and sorting 20,000 posts again. With the
/// neighbours, that was a third of the feeds' samples under perf; the feeds of a `serve` rebuild
/// went from about 44 to 32 ms.
struct IndexMemo: Sendable {
    /// What puts a post in its groups, and what the indexes' warnings say of it.
    struct Placement: Sendable, Equatable {
        var id: String
        var author: String
        var location: String?
        var tags: [String]
        var origin: SourceLocation?

        init(_ post: Post, tags: [String]) {
            (id, author, location, self.tags, origin) = (post.id, post.author, post.location?.name, tags, post.origin)
        }
    }

    /// Each post's placement, in timeline order.
    var placements: [Placement]
    var users: [User]
    var hashtagsPerPost: Int
    var shape: SiteIndexes.Shape
    var neighbours: [String: PostNeighbours]
    var followers: [String: [String]]

    /// This memo, when made of these very inputs.
    func matching(_ placements: [Placement], users: [User], hashtagsPerPost: Int) -> IndexMemo? {
        self.hashtagsPerPost == hashtagsPerPost && self.placements == placements && self.users == users ? self : nil
    }
}
