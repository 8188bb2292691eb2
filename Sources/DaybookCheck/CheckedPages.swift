/// The HTML pages of one check, by their index in path order: their facts over one string
/// table, and every id each page holds, for the fragment of a link from any other page.
struct CheckedPages: Sendable {
    let paths: [String]
    /// `nil` for a page that could not be read.
    let facts: [IndexedFacts?]
    let table: StringTable
    /// The index of each page whose facts were read, by path.
    let indexes: [String: Int]
    /// Each (page, id) pair as one integer: page index above, string index below. One set for
    /// the site rather than a set per page: 32,000 pages hold some 200,000 ids.
    private let ids: Set<UInt64>

    init(paths: [String], facts: [IndexedFacts?], table: StringTable) {
        var indexes: [String: Int] = [:]
        indexes.reserveCapacity(paths.count)
        var ids = Set<UInt64>()
        for (index, page) in facts.enumerated() {
            guard let page else { continue }
            indexes[paths[index]] = index
            for id in page.ids { ids.insert(UInt64(index) << 32 | UInt64(id.text)) }
        }
        (self.paths, self.facts, self.table, self.indexes, self.ids) = (paths, facts, table, indexes, ids)
    }

    /// Whether page `page` has an element with the id at `id` (`nil`: a string no page holds).
    func has(id: UInt32?, on page: Int) -> Bool {
        guard let id else { return false }
        return ids.contains(UInt64(page) << 32 | UInt64(id))
    }
}
