import DaybookModel

/// One list's query: which items belong to it and in what order.
///
/// The journal's sending order (`JournalFeed.sendingQuery`), the timeline and the order of every
/// other list of posts (`TimelineFeed`) and the comments are values of this type. `SiteFeeds`
/// runs each once per build; tag, user and location lists are slices of the one post order
/// (`SiteIndexes`), and `Paginator` cuts every list into pages.
package struct FeedQuery<Item: Sendable>: Sendable {
    package var includes: @Sendable (Item) -> Bool
    /// The number the order follows (a date, negated for newest first). Written once, and with
    /// `id` the whole order: `run` sorts numbers rather than items (on 100,000 comments, each
    /// comparison of two items copied both out of the array), and no second description of the
    /// order (a comparison that had to agree with the numbers) exists to drift from it.
    package var key: @Sendable (Item) -> Double
    /// Between equal keys, the order of ids (`scalarsPrecede`): a strict total order, so output
    /// never depends on input order.
    package var id: @Sendable (Item) -> String

    package init(
        includes: @escaping @Sendable (Item) -> Bool = { _ in true }, key: @escaping @Sendable (Item) -> Double,
        id: @escaping @Sendable (Item) -> String
    ) {
        self.includes = includes
        self.key = key
        self.id = id
    }

    /// Whether `a` comes before `b`.
    package func precedes(_ a: Item, _ b: Item) -> Bool {
        let (first, second) = (key(a), key(b))
        return first != second ? first < second : id(a).scalarsPrecede(id(b))
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
    /// (`FeedStep`) while the items are the same.
    package func runGroupedPlaces(_ items: [Item], count: Int, by group: (Item) -> Int?) -> [[Int]] {
        var members = [[Int]](repeating: [], count: count)
        for index in items.indices where includes(items[index]) {
            if let number = group(items[index]) { members[number].append(index) }
        }
        return members.map { ordered($0, of: items) }
    }

    /// `positions` in this query's order: positions and keys are sorted, not items, so no item is copied.
    private func ordered(_ positions: [Int], of items: [Item]) -> [Int] {
        if positions.count < 2 { return positions }
        let keys = positions.map { key(items[$0]) }
        let order = positions.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a] < keys[b] : id(items[positions[a]]).scalarsPrecede(id(items[positions[b]]))
        }
        return order.map { positions[$0] }
    }

    /// The items of `ordered` this query includes, in their order: for items already in this
    /// query's order, as the output of a query it narrows is. The timeline is the post order
    /// narrowed to a viewer's people; running the whole query again filtered, keyed and sorted
    /// 20,000 posts that were in order already.
    package func filter(ordered items: [Item]) -> [Item] { items.filter(includes) }

    /// The same order over fewer items.
    package func narrowed(to filter: @escaping @Sendable (Item) -> Bool) -> FeedQuery<Item> {
        let includes = self.includes
        return FeedQuery(includes: { includes($0) && filter($0) }, key: key, id: id)
    }
}
