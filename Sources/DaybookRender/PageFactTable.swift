/// The facts each page of a build read, for the next build to ask which pages moved: the
/// incremental layer keeps it between builds (`PageStep`). Facts are held once each (a person is
/// read by thousands of pages) and a page names its facts by place, so a 32,000-page site keeps
/// a few megabytes and the next build versions each fact once.
package struct PageFactTable: Sendable, Equatable {
    /// Every fact some page read.
    package var facts: [PageFact] = []
    /// Each page's facts, by place in `facts`, in the order the page read them, by output path.
    package var pages: [String: [Int32]] = [:]
    /// How many facts the table held when it was last made whole: pages built again add their
    /// facts at the end, and the table is made whole again once it has grown by half.
    package var wholeCount = 0

    package init(facts: [PageFact] = [], pages: [String: [Int32]] = [:], wholeCount: Int = 0) {
        (self.facts, self.pages, self.wholeCount) = (facts, pages, wholeCount)
    }

    /// The table of this build: the pages it kept read what they read before (`kept`, their
    /// places in `previous`), the pages it built read `built`. Pages gone from the site drop out.
    package static func next(previous: PageFactTable?, kept: [(path: String, places: [Int32])], built: [(path: String, facts: [PageFact])]) -> PageFactTable {
        var table = PageFactTable(facts: previous?.facts ?? [], pages: previous?.pages ?? [:], wholeCount: previous?.wholeCount ?? 0)
        // Kept pages hold the places they held: the previous pages stand, unless some are gone.
        if table.pages.count != kept.count + built.count || built.contains(where: { table.pages[$0.path] == nil }) {
            table.pages = [:]
            table.pages.reserveCapacity(kept.count + built.count)
            for page in kept { table.pages[page.path] = page.places }
        }
        // New facts go at the end, each once; the old ones are not looked up, which would hash
        // every fact of the table on a one-page rebuild.
        var added: [PageFact: Int32] = [:]
        for page in built {
            table.pages[page.path] = page.facts.map { fact in
                if let place = added[fact] { return place }
                let place = Int32(table.facts.count)
                table.facts.append(fact)
                added[fact] = place
                return place
            }
        }
        return table.facts.count > max(1024, table.wholeCount + table.wholeCount / 2) ? table.madeWhole() : table
    }

    /// The same pages over a table holding each fact they read once, and no other.
    func madeWhole() -> PageFactTable {
        var whole = PageFactTable()
        var places: [PageFact: Int32] = [:]
        var moved = [Int32](repeating: -1, count: facts.count)
        whole.pages.reserveCapacity(pages.count)
        for (path, old) in pages {
            whole.pages[path] = old.map { place in
                if moved[Int(place)] >= 0 { return moved[Int(place)] }
                let fact = facts[Int(place)]
                let new = places[fact] ?? {
                    let new = Int32(whole.facts.count)
                    whole.facts.append(fact)
                    places[fact] = new
                    return new
                }()
                moved[Int(place)] = new
                return new
            }
        }
        whole.wholeCount = whole.facts.count
        return whole
    }
}
