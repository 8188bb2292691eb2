/// One page of an ordered list.
package struct Page<Item: Sendable>: Sendable {
    /// 1-based.
    package var number: Int
    package var items: [Item]
    package var pageCount: Int
    /// The position of `items.first` in the whole list, 0-based.
    package var offset: Int

    package var previousNumber: Int? { number > 1 ? number - 1 : nil }
    package var nextNumber: Int? { number < pageCount ? number + 1 : nil }
}

/// Cuts any ordered list into pages. Every paginated list of the site goes through this one type.
///
/// CONTRACT §3: page 1 always exists, even when empty; page k ≥ 2 exists while it has items.
package struct Paginator: Sendable {
    package var pageSize: Int

    package init(pageSize: Int) {
        precondition(pageSize > 0, "page size is validated when site.yml is read")
        self.pageSize = pageSize
    }

    /// The number of pages a list of `count` items needs: at least one. O(1).
    package func pageCount(for count: Int) -> Int { max(1, (count + pageSize - 1) / pageSize) }

    /// Page `number` (1-based) of `items`; O(pageSize), so rendering pages one by one stays linear.
    package func page<Item: Sendable>(_ number: Int, of items: [Item]) -> Page<Item> {
        page(number, count: items.count) { Array(items[$0]) }
    }

    /// Page `number` (1-based) of a list of `count` items, built by `items` from the positions the
    /// page covers: a list need not exist as one array of views, only its page does. O(pageSize).
    package func page<Item: Sendable>(_ number: Int, count: Int, items: (Range<Int>) -> [Item]) -> Page<Item> {
        let pages = pageCount(for: count)
        precondition((1...pages).contains(number), "page \(number) of \(pages)")
        let start = (number - 1) * pageSize
        let end = min(count, start + pageSize)
        return Page(number: number, items: items(start..<end), pageCount: pages, offset: start)
    }
}
