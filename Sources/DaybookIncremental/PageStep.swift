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
    static let format: UInt64 = 1

    /// The previous build's table, `nil` when the memo holds none (or one that does not read whole).
    package static func previous(in memo: MemoTable) -> PageFactTable? {
        if let held = memo.decoded(facts, 0, version: format, as: PageFactTable.self) { return held }
        return memo.value(facts, 0, version: format).flatMap(PageFactTable.init(bytes:))
    }

    /// Keeps `table` for the next build.
    package static func keep(_ table: PageFactTable, previous: PageFactTable?, memo: inout MemoTable) {
        guard table != previous else { return }
        memo.store(facts, 0, version: format, decoded: table) { table.bytes }
    }
}

extension PageFactTable {
    /// The facts (a kind and a name each), the count the table was made whole at, then each
    /// page's path and its facts' places.
    package var bytes: [UInt8] {
        var writer = MemoWriter(reserving: 24 * facts.count + 8 * pages.count)
        writer.count(facts.count)
        for fact in facts {
            writer.count(Int(fact.kind))
            writer.string(fact.name)
        }
        writer.count(wholeCount)
        writer.count(pages.count)
        for (path, places) in pages {
            writer.string(path)
            writer.count(places.count)
            for place in places { writer.count(Int(place)) }
        }
        return writer.bytes
    }

    /// Reads `bytes`; `nil` when they do not read whole, or a page names a fact the table lacks.
    package init?(bytes: ArraySlice<UInt8>) {
        var reader = MemoReader(bytes)
        guard let facts = reader.elements({ reader -> PageFact? in
            guard let kind = reader.unsigned(), kind <= UInt64(UInt8.max), let name = reader.string() else { return nil }
            return PageFact(kind: UInt8(kind), name: name)
        }), let wholeCount = reader.unsigned(), wholeCount <= UInt64(facts.count), let pageCount = reader.count() else { return nil }
        var pages: [String: [Int32]] = [:]
        pages.reserveCapacity(pageCount)
        for _ in 0..<pageCount {
            guard let path = reader.string(),
                let places = reader.elements({ $0.unsigned().flatMap { $0 < UInt64(facts.count) ? Int32($0) : nil } }),
                pages.updateValue(places, forKey: path) == nil
            else { return nil }
        }
        guard reader.atEnd else { return nil }
        self.init(facts: facts, pages: pages, wholeCount: Int(wholeCount))
    }
}
