import DaybookModel
import DaybookParallel

/// Suggested people (CONTRACT §13): for one person, the people followed by those they follow,
/// leaving out the person and whom they follow already; most such followers first, ties by id.
///
/// A query like any other list of the feed core, made of the follow graph alone: a profile asks
/// for its own, and the page's key takes its answer (`FactVersions`, `.profile`).
package struct PeopleSuggestions: Sendable {
    package struct Suggestion: Sendable, Hashable {
        package var id: String
        /// The people `for` follows who follow this one, in the order `for`'s follows are written.
        package var followedBy: [String]

        package init(id: String, followedBy: [String]) {
            self.id = id
            self.followedBy = followedBy
        }
    }

    /// The most suggestions a profile shows.
    package static let limit = 5

    package let usersByID: [String: User]

    package init(usersByID: [String: User]) { self.usersByID = usersByID }

    /// Up to `limit` suggestions for `id`; none for a person with no record or no follows.
    package func suggestions(for id: String, limit: Int = Self.limit) -> [Suggestion] {
        guard let user = usersByID[id] else { return [] }
        let follows = Set(user.follows)
        var followedBy: [String: [String]] = [:]
        var seen = Set<String>()
        for followed in user.follows where seen.insert(followed).inserted {
            var counted = Set<String>()
            for candidate in usersByID[followed]?.follows ?? []
            where candidate != id && !follows.contains(candidate) && usersByID[candidate] != nil && counted.insert(candidate).inserted {
                followedBy[candidate, default: []].append(followed)
            }
        }
        return followedBy.map { Suggestion(id: $0.key, followedBy: $0.value) }
            .sorted { $0.followedBy.count != $1.followedBy.count ? $0.followedBy.count > $1.followedBy.count : $0.id < $1.id }
            .prefix(limit).map { $0 }
    }

    /// Every person's suggestions that has any, by id, on all cores: the table a build hands
    /// its pages (`RenderInput.suggestions`), where each profile's page and key read their own.
    package func all(limit: Int = Self.limit) -> [String: [Suggestion]] {
        let ids = Array(usersByID.keys)
        var table: [String: [Suggestion]] = [:]
        for (id, found) in zip(ids, Parallel.mapBlocking(ids) { suggestions(for: $0, limit: limit) }) where !found.isEmpty { table[id] = found }
        return table
    }

    /// A version of everything suggestions read, the follow graph: who is there and whom each
    /// follows, in order. Equal versions give equal suggestions.
    package static func graphVersion(of usersByID: [String: User]) -> UInt64 {
        var hash = StableHash()
        hash.combine("daybook-follow-graph-1")
        for id in usersByID.keys.sorted() {
            hash.combine(id)
            let follows = usersByID[id]?.follows ?? []
            hash.combine(follows.count)
            for followed in follows { hash.combine(followed) }
        }
        return hash.value
    }
}
