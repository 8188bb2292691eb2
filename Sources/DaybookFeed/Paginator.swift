/// One page of an ordered list.
public struct Page<Item: Sendable>: Sendable {
    /// 1-based.
    public var number: Int
    public var items: [Item]
    public var pageCount: Int
    /// The position of `items.first` in the whole list, 0-based.
    public var offset: Int

    public var previousNumber: Int? { number > 1 ? number - 1 : nil }
    public var nextNumber: Int? { number < pageCount ? number + 1 : nil }
}

/// Cuts any ordered list into pages. Every paginated list of the site goes through this one type.
///
/// CONTRACT §3: page 1 always exists, even when empty; page k ≥ 2 exists while it has items.
public struct Paginator: Sendable {
    public var pageSize: Int

    public init(pageSize: Int) {
        precondition(pageSize > 0, "page size is validated when site.yml is read")
        self.pageSize = pageSize
    }

    /// The number of pages a list of `count` items needs: at least one. O(1).
    public func pageCount(for count: Int) -> Int { max(1, (count + pageSize - 1) / pageSize) }

    /// Page `number` (1-based) of `items`; O(pageSize), so rendering pages one by one stays linear.
    public func page<Item: Sendable>(_ number: Int, of items: [Item]) -> Page<Item> {
        let count = pageCount(for: items.count)
        precondition((1...count).contains(number), "page \(number) of \(count)")
        let start = (number - 1) * pageSize
        let end = min(items.count, start + pageSize)
        return Page(number: number, items: Array(items[start..<end]), pageCount: count, offset: start)
    }

    /// Every page of `items`. O(n): each item is copied into exactly one page.
    public func pages<Item: Sendable>(of items: [Item]) -> [Page<Item>] {
        (1...pageCount(for: items.count)).map { page($0, of: items) }
    }
}
