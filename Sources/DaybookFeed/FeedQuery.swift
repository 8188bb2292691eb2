/// One list's query: which items belong to it and in what order.
///
/// The journal's sending order (`JournalFeed.sendingQuery`), the timeline and the order of every
/// other list of posts (`TimelineFeed`) and the comments are values of this type. `SiteFeeds`
/// runs each once per build; tag, user and location lists are slices of the one post order
/// (`SiteIndexes`), and `Paginator` cuts every list into pages.
package struct FeedQuery<Item: Sendable>: Sendable {
    package var includes: @Sendable (Item) -> Bool
    /// A strict total order: ties must be broken (by id) so output never depends on input order.
    package var precedes: @Sendable (Item, Item) -> Bool
    /// A number the order follows first (a date, negated for newest first), `precedes` deciding
    /// only between equal numbers; it must agree with `precedes`. It lets `run` sort an array of
    /// numbers instead of items: on 100,000 comments, each comparison through `precedes` alone
    /// copied two comments out of the array, and sorting the comments themselves moved them.
    package var sortKey: (@Sendable (Item) -> Double)?

    package init(
        includes: @escaping @Sendable (Item) -> Bool = { _ in true }, sortKey: (@Sendable (Item) -> Double)? = nil,
        precedes: @escaping @Sendable (Item, Item) -> Bool
    ) {
        self.includes = includes
        self.sortKey = sortKey
        self.precedes = precedes
    }

    /// O(n log n).
    package func run(_ items: [Item]) -> [Item] {
        ordered(items.indices.filter { includes(items[$0]) }, of: items).map { items[$0] }
    }

    /// The query run over each group of `items` apart, groups numbered `0..<count` by `group`
    /// (`nil`: in none): each group holds the places in `items` of what `run` gives, narrowed to
    /// the group, in the same order. Sorting each group (a post's five comments) costs far less
    /// than sorting all of a site's 100,000 and grouping them after, which also hashed each
    /// comment's key again. Places, not items: what a later build can store and take back
    /// (`CommentOrders`) while the items are the same.
    package func runGroupedPlaces(_ items: [Item], count: Int, by group: (Item) -> Int?) -> [[Int]] {
        var members = [[Int]](repeating: [], count: count)
        for index in items.indices where includes(items[index]) {
            if let number = group(items[index]) { members[number].append(index) }
        }
        return members.map { ordered($0, of: items) }
    }

    /// `positions` in this query's order. With a sort key, positions and keys are sorted, not
    /// items: no item is copied.
    private func ordered(_ positions: [Int], of items: [Item]) -> [Int] {
        if positions.count < 2 { return positions }
        let precedes = self.precedes
        guard let sortKey else { return positions.sorted { precedes(items[$0], items[$1]) } }
        let keys = positions.map { sortKey(items[$0]) }
        let order = positions.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a] < keys[b] : precedes(items[positions[a]], items[positions[b]])
        }
        return order.map { positions[$0] }
    }

    /// The same order over fewer items.
    package func narrowed(to filter: @escaping @Sendable (Item) -> Bool) -> FeedQuery<Item> {
        let includes = self.includes
        return FeedQuery(includes: { includes($0) && filter($0) }, sortKey: sortKey, precedes: precedes)
    }
}
