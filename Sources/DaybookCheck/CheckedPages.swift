import DaybookModel

/// The HTML pages of one check, by their index in path order: their facts over one string
/// table, and every id each page holds, for the fragment of a link from any other page.
struct CheckedPages: Sendable {
    let paths: [String]
    /// `nil` for a page that could not be read. A page taken from the cache holds its titles and
    /// ids alone until it is to be checked (`complete`).
    private(set) var facts: [IndexedFacts?]
    let table: StringTable
    /// The index of each page whose facts were read, by path.
    let indexes: [String: Int]
    /// Each (page, id) pair as one integer: page index above, string index below. One set for
    /// the site rather than a set per page: 32,000 pages hold some 200,000 ids.
    private let ids: Set<UInt64>
    /// A hash of each page's ids, by their strings: what a cached verdict that looked up a
    /// fragment on the page read of it (`FileVerdict.targetsHash`).
    private let pageIdsHashes: [UInt64]

    init(paths: [String], facts: [IndexedFacts?], table: StringTable) {
        var indexes: [String: Int] = [:]
        indexes.reserveCapacity(paths.count)
        var ids = Set<UInt64>()
        var hashes = [UInt64](repeating: 0, count: facts.count)
        for (index, page) in facts.enumerated() {
            guard let page else { continue }
            indexes[paths[index]] = index
            var hash = StableHash()
            for id in page.ids {
                ids.insert(UInt64(index) << 32 | UInt64(id.text))
                hash.combine(table[id.text])
            }
            hashes[index] = hash.value
        }
        (self.paths, self.facts, self.table, self.indexes, self.ids, self.pageIdsHashes) = (paths, facts, table, indexes, ids, hashes)
    }

    /// Gives page `index` its whole facts (the same ids, and the rest), before it is checked.
    mutating func complete(_ index: Int, with whole: IndexedFacts) {
        facts[index] = whole
    }

    /// One hash of the ids of `pages` (indexes in path order, each below `paths.count`), in order.
    func idsHash(of pages: [UInt32]) -> UInt64 {
        var hash = StableHash()
        for page in pages { hash.combine(bits: pageIdsHashes[Int(page)]) }
        return hash.value
    }

    /// Whether page `page` has an element with the id at `id` (`nil`: a string no page holds).
    func has(id: UInt32?, on page: Int) -> Bool {
        guard let id else { return false }
        return ids.contains(UInt64(page) << 32 | UInt64(id))
    }
}
