import DaybookFeed
import Testing

@Suite("Paginator")
struct PaginatorTests {
    let paginator = Paginator(pageSize: 3)

    func pages(_ items: [Int]) -> [Page<Int>] {
        (1...paginator.pageCount(for: items.count)).map { paginator.page($0, of: items) }
    }

    @Test("page sizes at 0, 1, pageSize and pageSize + 1 items", arguments: [
        (0, [[Int]()]),
        (1, [[0]]),
        (3, [[0, 1, 2]]),
        (4, [[0, 1, 2], [3]]),
        (7, [[0, 1, 2], [3, 4, 5], [6]]),
    ])
    func pages(count: Int, expected: [[Int]]) {
        let pages = pages(Array(0..<count))
        #expect(pages.map(\.items) == expected)
        #expect(pages.map(\.number) == Array(1...expected.count))
        #expect(pages.allSatisfy { $0.pageCount == expected.count })
    }

    @Test("neighbours: the first page has no previous, the last no next")
    func neighbours() {
        let pages = pages(Array(0..<7))
        #expect(pages.map(\.previousNumber) == [nil, 1, 2])
        #expect(pages.map(\.nextNumber) == [2, 3, nil])
        #expect(pages.map(\.offset) == [0, 3, 6])
    }

    @Test("a page of a counted list asks only for its own positions")
    func counted() {
        var asked: [Range<Int>] = []
        let page = paginator.page(2, count: 7) { range in
            asked.append(range)
            return range.map { "item \($0)" }
        }
        #expect(asked == [3..<6])
        #expect(page.items == ["item 3", "item 4", "item 5"])
        #expect(page.pageCount == 3)
    }

    @Test("a query orders, then the paginator cuts")
    func queryThenPages() {
        let evensDescending = FeedQuery<Int>(includes: { $0 % 2 == 0 }, key: { -Double($0) }, id: { String($0) })
        #expect(pages(evensDescending.run(Array(0..<9))).map(\.items) == [[8, 6, 4], [2, 0]])
    }
}
