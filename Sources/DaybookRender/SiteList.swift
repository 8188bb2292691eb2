import DaybookFeed

/// One paginated list of the site (CONTRACT §4): a new list is a new case here and a new
/// description in `PageBuilder.describe(_:)`; the plan, the pagination and the page follow.
///
/// Each list's items come from one query of the feed core (`SiteFeeds`), already ordered;
/// `Paginator` cuts every one of them the same way.
enum SiteList: Sendable, Hashable {
    /// CONTRACT §3's journal order.
    case journal
    /// The timeline, viewer filter applied.
    case timeline
    /// `/tags/`, `/users/` or `/locations/`: the groups themselves.
    case index(GroupKind)
    /// One tag's, user's or location's posts, by the group's position in its index.
    case group(GroupKind, index: Int)

    /// Every list of a site, in plan order: journal, timeline, then each index followed by its groups.
    static func all(in feeds: SiteFeeds) -> [SiteList] {
        [.journal, .timeline]
            + GroupKind.allCases.flatMap { kind in
                [.index(kind)] + kind.groups(in: feeds.indexes).indices.map { .group(kind, index: $0) }
            }
    }

    /// How many items the list holds.
    func count(in feeds: SiteFeeds) -> Int {
        switch self {
        case .journal: feeds.journal.count
        case .timeline: feeds.timeline.count
        case .index(let kind): kind.groups(in: feeds.indexes).count
        case .group(let kind, let index): kind.groups(in: feeds.indexes)[index].posts.count
        }
    }

    /// The path of the list's first page (`tags/`, `tags/swift/`); later pages add `page/K/`.
    func base(in feeds: SiteFeeds) -> String {
        switch self {
        case .journal: SiteURLs.journal
        case .timeline: SiteURLs.timeline
        case .index(let kind): SiteURLs.index(kind)
        case .group(let kind, let index): SiteURLs.group(kind, slug: kind.groups(in: feeds.indexes)[index].slug)
        }
    }
}

extension GroupKind {
    /// The index's groups, in index order.
    func groups(in indexes: SiteIndexes) -> [PostGroup] {
        switch self {
        case .tags: indexes.tags
        case .users: indexes.users
        case .locations: indexes.locations
        }
    }

    /// The navigation section the index and its groups belong to.
    var section: SiteSection {
        switch self {
        case .tags: .tags
        case .users: .users
        case .locations: .locations
        }
    }
}
