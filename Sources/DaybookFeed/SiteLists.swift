import DaybookModel
import DaybookParallel

/// The lists the change report names. Raw values are stable because the next build compares
/// against the names it finds in the manifest; the case order is the report's order.
package enum ListName: String, Sendable, CaseIterable {
    case journal
    case timeline
    case tags
    case users
    case locations
}

/// The ordered lists of a build by name, each with item versions, for the change report.
package enum SiteLists {
    package static func snapshots(of feeds: SiteFeeds) -> [String: ListSnapshot] { snapshots(of: feeds, reusing: nil, forNextBuild: false).lists }

    /// The snapshots, taking the version of each post whose record, author's name and comments
    /// equal those `memo` stored (`serve`'s previous build), and this build's versions as a memo.
    /// - Parameter forNextBuild: whether to make the memo, for the next build of a long-lived
    ///   process; a build that is the last of its process (`daybook build`) skips it, as holding
    ///   every post with its comments cost a tenth of its lists.
    /// - Parameter kept: by place in `feeds.posts`, each post's version as a build in another
    ///   process kept it (`KeptVersions`), where it still holds; `nil` where it does not.
    /// - Returns: also every post's version, by place, for the next build to keep.
    package static func snapshots(of feeds: SiteFeeds, reusing memo: ListVersionMemo?, kept: [UInt64?]? = nil, forNextBuild: Bool = true)
        -> (lists: [String: ListSnapshot], memo: ListVersionMemo?, postVersions: [UInt64])
    {
        let (lists, next, versions) = lists(of: feeds, reusing: memo, kept: kept, forNextBuild: forNextBuild)
        return (Dictionary(uniqueKeysWithValues: lists.map { ($0.key.rawValue, $0.value) }), next, versions)
    }

    static func lists(of feeds: SiteFeeds, reusing memo: ListVersionMemo? = nil, kept: [UInt64?]? = nil, forNextBuild: Bool = true)
        -> ([ListName: ListSnapshot], ListVersionMemo?, [UInt64])
    {
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
        let remembers = memo != nil || forNextBuild
        let versions = Parallel.mapBlocking(Array(feeds.posts.indices)) { position -> (id: String, inputs: VersionInputs?, value: UInt64) in
            let post = feeds.posts[position]
            if let kept, position < kept.count, let version = kept[position] { return (post.id, nil, version) }
            let name = feeds.usersByID[post.author]?.displayName ?? ""
            let comments = feeds.comments[post.id] ?? []
            let inputs = remembers ? VersionInputs(post: post, authorName: name, comments: comments) : nil
            if let inputs, let version = memo?.value(post.id, inputs: inputs, at: position) { return (post.id, inputs, version) }
            // Every field of the post and its comments, by the content keys the page keys take too.
            var hash = StableHash()
            hash.combine(bits: post.contentKey)
            hash.combine(name)
            for comment in comments { hash.combine(bits: comment.contentKey) }
            return (post.id, inputs, hash.value)
        }
        let postVersions = Dictionary(versions.map { ($0.id, $0.value) }, uniquingKeysWith: { _, last in last })
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
        let lists: [ListName: ListSnapshot] = [
            .journal: journal,
            .timeline: timeline,
            .tags: groups(feeds.indexes.tags),
            .users: users,
            .locations: groups(feeds.indexes.locations),
        ]
        return (lists, forNextBuild ? ListVersionMemo(versions.compactMap { entry in entry.inputs.map { (entry.id, $0, entry.value) } }) : nil, versions.map(\.value))
    }

    /// The order lists appear in the report.
    package static let reportOrder = ListName.allCases.map(\.rawValue)
}

/// The timeline versions of the previous build of a long-lived process (`serve`), each with what
/// it was made of: hashing 20,000 posts and their comments again was a twelfth of a rebuild.
package typealias ListVersionMemo = InputMemo<SiteLists.VersionInputs, UInt64>

extension SiteLists {
    /// What a post's timeline version is made of.
    package struct VersionInputs: Sendable, Equatable {
        var post: Post
        var authorName: String
        var comments: [Comment]
    }
}
