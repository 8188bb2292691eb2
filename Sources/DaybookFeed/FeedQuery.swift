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

    public init(includes: @escaping @Sendable (Item) -> Bool = { _ in true }, precedes: @escaping @Sendable (Item, Item) -> Bool) {
        self.includes = includes
        self.precedes = precedes
    }

    /// O(n log n). (Sorting positions instead, to move fewer strings, was measured slower: each
    /// comparison then copied two items out of the array.)
    public func run(_ items: [Item]) -> [Item] { items.filter(includes).sorted(by: precedes) }

    /// The same order over fewer items.
    public func narrowed(to filter: @escaping @Sendable (Item) -> Bool) -> FeedQuery<Item> {
        let includes = self.includes
        return FeedQuery(includes: { includes($0) && filter($0) }, precedes: precedes)
    }
}
