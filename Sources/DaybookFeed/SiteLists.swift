import DaybookModel

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
    /// The snapshots of `feeds`' lists. Items are versioned by what their pages show, as the
    /// caller worked it out once for the page keys: an item whose page changed is an update of
    /// every list that holds it, and no second hash of the same item can disagree with the first.
    /// - Parameters:
    ///   - postVersions: each shown post's version, by id.
    ///   - entryVersions: each journal entry's version, in journal order.
    package static func snapshots(of feeds: SiteFeeds, postVersions: [String: UInt64], entryVersions: [UInt64]) -> [String: ListSnapshot] {
        Dictionary(uniqueKeysWithValues: lists(of: feeds, postVersions: postVersions, entryVersions: entryVersions).map { ($0.key.rawValue, $0.value) })
    }

    static func lists(of feeds: SiteFeeds, postVersions: [String: UInt64], entryVersions: [UInt64]) -> [ListName: ListSnapshot] {
        var journal = ListSnapshot()
        for (entry, version) in zip(feeds.journal, entryVersions) {
            journal.ids.append(entry.promptID)
            journal.versions[entry.promptID] = version
        }
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
    package static let reportOrder = ListName.allCases.map(\.rawValue)
}
