import DaybookModel

/// CONTRACT §3: the timeline's order and the order of every other list of posts.
package enum TimelineFeed {
    /// Newest `createdAt` first, ties by post id ascending; posts after now only with `--future`,
    /// drafts only with `--drafts`.
    package static func query(_ moment: BuildMoment) -> FeedQuery<Post> {
        FeedQuery(
            includes: { moment.isVisible($0.createdAt, draft: $0.isDraft) },
            key: { -$0.createdAt.secondsSince1970 }, id: \.id)
    }

    /// The timeline proper: with a viewer, only their posts and those of the users they follow
    /// (not transitively). Tag, user and location lists use `query` without this filter.
    package static func timelineQuery(_ moment: BuildMoment, viewer: User?) -> FeedQuery<Post> {
        guard let viewer else { return query(moment) }
        let authors = Set([viewer.id] + viewer.follows)
        return query(moment).narrowed { authors.contains($0.author) }
    }

    /// Comments on a post page: oldest first, ties by id; after now only with `--future`, drafts
    /// only with `--drafts`.
    package static func commentQuery(_ moment: BuildMoment) -> FeedQuery<Comment> {
        FeedQuery(
            includes: { moment.isVisible($0.createdAt, draft: $0.isDraft) },
            key: { $0.createdAt.secondsSince1970 }, id: \.id)
    }

    /// A person's comments feed (CONTRACT §4, `/users/<id>/comments.xml`): the same comments as
    /// the post pages show, newest `createdAt` first, ties by id.
    package static func commentFeedQuery(_ moment: BuildMoment) -> FeedQuery<Comment> {
        FeedQuery(
            includes: commentQuery(moment).includes,
            key: { -$0.createdAt.secondsSince1970 }, id: \.id)
    }
}
