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
        var next = Builder(previous: previous, versions: nil)
        for page in kept { next.keep(page.path) }
        for page in built { _ = next.add(page.path, shape: 0, facts: page.facts) }
        return next.table()
    }

    /// Makes a build's table page by page, as the pages are triaged and rendered: a rendered
    /// batch is filed while the next renders.
    package struct Builder {
        private var building: PageFactTable
        private let previousCount: Int
        /// New facts, each once; the old ones are not looked up, which would hash every fact of
        /// the table on a one-page rebuild.
        private var added: [PageFact: Int32] = [:]
        /// What the build's facts are, and each new fact's version by its place after the old ones.
        private let versions: FactVersions?
        private var addedVersions: [UInt64] = []
        private let firstAdded: Int
        /// The pages of this build, and how many of them the previous table has.
        private var paths: [String] = []
        private var covered = 0

        /// - Parameter versions: what this build's facts are, for the keys of the pages added.
        package init(previous: PageFactTable?, versions: FactVersions?) {
            building = previous ?? PageFactTable()
            previousCount = building.pages.count
            firstAdded = building.facts.count
            self.versions = versions
        }

        /// A page kept as it was: it read what it read before.
        package mutating func keep(_ path: String) {
            paths.append(path)
            covered += 1
        }

        /// A page built, of this shape, which read `facts`; its key.
        package mutating func add(_ path: String, shape: UInt64, facts: [PageFact]) -> UInt64 {
            paths.append(path)
            // Each fact once, where the page first read it.
            var seen = Set<Int32>(minimumCapacity: facts.count)
            var places: [Int32] = []
            places.reserveCapacity(facts.count)
            for fact in facts {
                let place = added[fact] ?? {
                    let place = Int32(building.facts.count)
                    building.facts.append(fact)
                    added[fact] = place
                    if let versions { addedVersions.append(versions.version(of: fact)) }
                    return place
                }()
                if seen.insert(place).inserted { places.append(place) }
            }
            if building.pages.updateValue(places, forKey: path) != nil { covered += 1 }
            guard let versions else { return 0 }
            let (known, first) = (addedVersions, firstAdded)
            return versions.key(shape: shape, facts: places.lazy.map { known[Int($0) - first] })
        }

        /// The table, once every page of the build was kept or added.
        package func table() -> PageFactTable {
            var table = building
            // Pages gone from the site leave with their facts.
            if covered < previousCount {
                let current = Set(paths)
                table.pages = table.pages.filter { current.contains($0.key) }
            }
            return table.facts.count > max(1024, table.wholeCount + table.wholeCount / 2) ? table.madeWhole() : table
        }
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
