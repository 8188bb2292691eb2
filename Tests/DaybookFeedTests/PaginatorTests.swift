import DaybookFeed
import Testing

@Suite("Paginator")
struct PaginatorTests {
    let paginator = Paginator(pageSize: 3)

    @Test("page sizes at 0, 1, pageSize and pageSize + 1 items", arguments: [
        (0, [[Int]()]),
        (1, [[0]]),
        (3, [[0, 1, 2]]),
        (4, [[0, 1, 2], [3]]),
        (7, [[0, 1, 2], [3, 4, 5], [6]]),
    ])
    func pages(count: Int, expected: [[Int]]) {
        let pages = paginator.pages(of: Array(0..<count))
        #expect(pages.map(\.items) == expected)
        #expect(pages.map(\.number) == Array(1...expected.count))
        #expect(pages.allSatisfy { $0.pageCount == expected.count })
    }

    @Test("neighbours: the first page has no previous, the last no next")
    func neighbours() {
        let pages = paginator.pages(of: Array(0..<7))
        #expect(pages.map(\.previousNumber) == [nil, 1, 2])
        #expect(pages.map(\.nextNumber) == [2, 3, nil])
        #expect(pages.map(\.offset) == [0, 3, 6])
    }

    @Test("a page loader runs its query, then paginates")
    func loader() {
        let evensDescending = FeedQuery<Int>(includes: { $0 % 2 == 0 }, precedes: { $0 > $1 })
        let pages = PageLoader(query: evensDescending, paginator: paginator).pages(from: Array(0..<9))
        #expect(pages.map(\.items) == [[8, 6, 4], [2, 0]])
    }
}
