/// One list's query: which items belong to it and in what order.
///
/// The journal's sending order (`JournalFeed.sendingQuery`), the timeline and the order of every
/// other list of posts (`TimelineFeed`) and the comments are values of this type. `SiteFeeds`
/// runs each once per build; tag, user and location lists are slices of the one post order
/// (`SiteIndexes`), and `Paginator` cuts every list into pages.
public struct FeedQuery<Item: Sendable>: Sendable {
    public var includes: @Sendable (Item) -> Bool
    /// A strict total order: ties must be broken (by id) so output never depends on input order.
    public var precedes: @Sendable (Item, Item) -> Bool
    /// A number the order follows first (a date, negated for newest first), `precedes` deciding
    /// only between equal numbers; it must agree with `precedes`. It lets `run` sort an array of
    /// numbers instead of items: on 100,000 comments, each comparison through `precedes` alone
    /// copied two comments out of the array, and sorting the comments themselves moved them.
    public var sortKey: (@Sendable (Item) -> Double)?

    public init(
        includes: @escaping @Sendable (Item) -> Bool = { _ in true }, sortKey: (@Sendable (Item) -> Double)? = nil,
        precedes: @escaping @Sendable (Item, Item) -> Bool
    ) {
        self.includes = includes
        self.sortKey = sortKey
        self.precedes = precedes
    }

    /// O(n log n).
    public func run(_ items: [Item]) -> [Item] {
        guard let sortKey else { return items.filter(includes).sorted(by: precedes) }
        // Positions and keys only: each item is copied once, into the result.
        var kept: [Int] = []
        var keys: [Double] = []
        for index in items.indices where includes(items[index]) {
            kept.append(index)
            keys.append(sortKey(items[index]))
        }
        let precedes = self.precedes
        let order = kept.indices.sorted { a, b in keys[a] != keys[b] ? keys[a] < keys[b] : precedes(items[kept[a]], items[kept[b]]) }
        return order.map { items[kept[$0]] }
    }

    /// The same order over fewer items.
    public func narrowed(to filter: @escaping @Sendable (Item) -> Bool) -> FeedQuery<Item> {
        let includes = self.includes
        return FeedQuery(includes: { includes($0) && filter($0) }, sortKey: sortKey, precedes: precedes)
    }
}
