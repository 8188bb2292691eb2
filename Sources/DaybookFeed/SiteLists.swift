import DaybookModel
import DaybookParallel

/// The lists the change report names. Raw values are stable because the next build compares
/// against the names it finds in the manifest; the case order is the report's order.
public enum ListName: String, Sendable, CaseIterable {
    case journal
    case timeline
    case tags
    case users
    case locations
}

/// The ordered lists of a build by name, each with item versions, for the change report.
public enum SiteLists {
    public static func snapshots(of feeds: SiteFeeds) -> [String: ListSnapshot] {
        Dictionary(uniqueKeysWithValues: lists(of: feeds).map { ($0.key.rawValue, $0.value) })
    }

    static func lists(of feeds: SiteFeeds) -> [ListName: ListSnapshot] {
        var journal = ListSnapshot()
        for entry in feeds.journal {
            var hash = StableHash()
            hash.combine(entry.prompt?.title ?? "\u{0}skeleton")
            hash.combine(entry.prompt?.body ?? "")
            hash.combine(entry.isToday ? "today" : "")
            hash.combine(entry.sentAt)
            // The list item shows the response count and the latest response's excerpt; the feed dates by edits.
            hash.combine(entry.prompt?.updatedAt)
            for response in feeds.responses[entry.promptID] ?? [] {
                hash.combine(response.id)
                hash.combine(response.text)
                hash.combine(response.createdAt.secondsSince1970)
                hash.combine(response.updatedAt)
            }
            journal.ids.append(entry.promptID)
            journal.versions[entry.promptID] = hash.value
        }
        // On all cores: 20,000 posts and their 100,000 comments were a tenth of a `serve` rebuild on one.
        let versions = Parallel.mapBlocking(feeds.posts) { post -> (String, UInt64) in
            var hash = StableHash()
            for field in [post.author, post.caption ?? "", post.image ?? "", post.imageAlt ?? "", post.location?.name ?? ""] {
                hash.combine(field)
            }
            hash.combine(post.createdAt.secondsSince1970)
            hash.combine(post.updatedAt)
            post.extraTags.forEach { hash.combine($0) }
            hash.combine(feeds.usersByID[post.author]?.displayName ?? "")
            for comment in feeds.comments[post.id] ?? [] {
                hash.combine(comment.id)
                hash.combine(comment.author)
                hash.combine(comment.text)
                hash.combine(comment.createdAt.secondsSince1970)
                hash.combine(comment.updatedAt)
            }
            return (post.id, hash.value)
        }
        let postVersions = Dictionary(versions, uniquingKeysWith: { _, last in last })
        let timeline = ListSnapshot(ids: feeds.timeline.map(\.id), versions: postVersions)
        func groups(_ groups: [PostGroup]) -> ListSnapshot {
            var snapshot = ListSnapshot()
            for group in groups {
                var hash = StableHash()
                hash.combine(group.name)
                group.posts.forEach { hash.combine($0.id) }
                snapshot.ids.append(group.id)
                snapshot.versions[group.id] = hash.value
            }
            return snapshot
        }
        var users = groups(feeds.indexes.users)
        for user in feeds.indexes.users {
            guard let model = feeds.usersByID[user.id] else { continue }
            var hash = StableHash()
            hash.combine(users.versions[user.id].map { String($0) } ?? "")
            for field in [model.bio ?? "", model.avatar ?? ""] + model.follows { hash.combine(field) }
            users.versions[user.id] = hash.value
        }
        return [
            .journal: journal,
            .timeline: timeline,
            .tags: groups(feeds.indexes.tags),
            .users: users,
            .locations: groups(feeds.indexes.locations),
        ]
    }

    /// The order lists appear in the report.
    public static let reportOrder = ListName.allCases.map(\.rawValue)
}
