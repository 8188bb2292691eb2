/// One list's query: which items belong to it and in what order.
///
/// A new list on the site is a new query, not new code: the journal, the timeline and every
/// tag, user and location list are values of this type fed through the same `PageLoader`.
public struct FeedQuery<Item: Sendable>: Sendable {
    public var includes: @Sendable (Item) -> Bool
    /// A strict total order: ties must be broken (by id) so output never depends on input order.
    public var precedes: @Sendable (Item, Item) -> Bool

    public init(includes: @escaping @Sendable (Item) -> Bool = { _ in true }, precedes: @escaping @Sendable (Item, Item) -> Bool) {
        self.includes = includes
        self.precedes = precedes
    }

    /// O(n log n).
    public func run(_ items: [Item]) -> [Item] { items.filter(includes).sorted(by: precedes) }

    /// The same order over fewer items.
    public func narrowed(to filter: @escaping @Sendable (Item) -> Bool) -> FeedQuery<Item> {
        let includes = self.includes
        return FeedQuery(includes: { includes($0) && filter($0) }, precedes: precedes)
    }
}

/// Knows one query and yields pages of it.
public struct PageLoader<Item: Sendable>: Sendable {
    public var query: FeedQuery<Item>
    public var paginator: Paginator

    public init(query: FeedQuery<Item>, paginator: Paginator) {
        self.query = query
        self.paginator = paginator
    }

    public func pages(from items: [Item]) -> [Page<Item>] { paginator.pages(of: query.run(items)) }
}
