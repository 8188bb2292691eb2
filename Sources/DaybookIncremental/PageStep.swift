import DaybookModel
import DaybookRender

/// The facts each page of the last build read (`PageFactTable`), through the memo: the next build
/// versions them to find the pages that moved (`SiteRenderer.triage`), `build` and `serve` alike.
///
/// Kept as `pages.facts`: one value, the table, under its format's version. `serve` keeps it
/// decoded between saves.
package enum PageStep {
    static let facts = MemoStep("pages.facts")
    /// The table's format; a table of another is none.
    static let format: UInt64 = 2

    /// The previous build's table, `nil` when the memo holds none (or one that does not read whole).
    package static func previous(in memo: MemoTable) -> PageFactTable? {
        if let held = memo.decoded(facts, 0, version: format, as: PageFactTable.self) { return held }
        return memo.value(facts, 0, version: format).flatMap(PageFactTable.init(bytes:))
    }

    /// Whether the previous build's table is held decoded (`serve`): held with the rest of that
    /// build's memo, the output's record among it.
    package static func isHeld(in memo: MemoTable) -> Bool { memo.decoded(facts, 0, version: format, as: PageFactTable.self) != nil }

    /// Keeps `table` for the next build.
    package static func keep(_ table: PageFactTable, previous: PageFactTable?, memo: inout MemoTable) {
        guard table != previous else {
            // Held from here on (`serve`), as the record the same build wrote is: `isHeld`.
            if !isHeld(in: memo) { memo.keepDecoded(facts, 0, version: format, table) }
            return
        }
        memo.store(facts, 0, version: format, decoded: table) { table.bytes }
    }
}

extension PageFactTable {
    /// The facts (a kind and a name each) and their versions (a count, then each), the count the
    /// table was made whole at, its context, then each page's path, shape, key and its facts'
    /// places, in plan order.
    package var bytes: [UInt8] {
        var writer = MemoWriter(reserving: 32 * facts.count + 24 * pages.count)
        writer.count(facts.count)
        for fact in facts {
            writer.count(Int(fact.kind))
            writer.string(fact.name)
        }
        writer.count(versions.count)
        for version in versions { writer.fixed(version) }
        writer.count(wholeCount)
        writer.fixed(context)
        writer.count(pages.count)
        for page in pages {
            writer.string(page.path)
            writer.fixed(page.shape)
            writer.fixed(page.key)
            writer.count(page.places.count)
            for place in page.places { writer.count(Int(place)) }
        }
        return writer.bytes
    }

    /// Reads `bytes`; `nil` when they do not read whole, the versions are neither none nor one a
    /// fact, a page names a fact the table lacks, or two pages have one path.
    package init?(bytes: ArraySlice<UInt8>) {
        var reader = MemoReader(bytes)
        guard let facts = reader.elements({ reader -> PageFact? in
            guard let kind = reader.unsigned(), kind <= UInt64(UInt8.max), let name = reader.string() else { return nil }
            return PageFact(kind: UInt8(kind), name: name)
        }), let versions = reader.elements({ $0.fixed() }), versions.isEmpty || versions.count == facts.count,
            let wholeCount = reader.unsigned(), wholeCount <= UInt64(facts.count), let context = reader.fixed(),
            let pageCount = reader.count()
        else { return nil }
        var pages: [Page] = []
        pages.reserveCapacity(pageCount)
        var paths = Set<String>(minimumCapacity: pageCount)
        for _ in 0..<pageCount {
            guard let path = reader.string(), let shape = reader.fixed(), let key = reader.fixed(),
                let places = reader.elements({ $0.unsigned().flatMap { $0 < UInt64(facts.count) ? Int32($0) : nil } }),
                paths.insert(path).inserted
            else { return nil }
            pages.append(Page(path: path, places: places, shape: shape, key: key))
        }
        guard reader.atEnd else { return nil }
        self.init(facts: facts, versions: versions, pages: pages, wholeCount: Int(wholeCount), context: context)
    }
}
