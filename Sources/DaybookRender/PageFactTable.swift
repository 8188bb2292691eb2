/// The facts each page of a build read, for the next build to ask which pages moved: the
/// incremental layer keeps it between builds (`PageStep`). Facts are held once each (a person is
/// read by thousands of pages) and a page names its facts by place, so a 32,000-page site keeps
/// a few megabytes and the next build versions each fact once.
///
/// Pages are held in the order of the plan of the build that made the table, each with its shape
/// and key, and each fact with its version then: a next build whose plan is the same pages (any
/// edit that adds or removes none) takes a page by its place rather than by its path, and a page
/// whose shape and facts are as they were has the key it had, without hashing its facts again.
/// Looking 32,000 paths up and hashing their keys was most of a rebuild's triage.
package struct PageFactTable: Sendable, Equatable {
    /// Every fact some page read.
    package var facts: [PageFact] = []
    /// Each fact's version in the build that made the table, in the order of `facts`; empty when
    /// that build did not version them.
    package var versions: [UInt64] = []
    /// The pages, in plan order.
    package var pages: [Page] = []
    /// How many facts the table held when it was last made whole: pages built again add their
    /// facts at the end, and the table is made whole again once it has grown by half.
    package var wholeCount = 0
    /// What every page read in the build that made the table (`FactVersions.context`): a page's
    /// key is its key now only when this is the same.
    package var context: UInt64 = 0

    /// A page: its output path, its facts by place in `facts` (in the order it read them), its
    /// shape (`FactVersions.shape(of:)`) and the key its file was written under.
    package struct Page: Sendable, Equatable {
        package var path: String
        package var places: [Int32]
        package var shape: UInt64
        package var key: UInt64

        package init(path: String, places: [Int32], shape: UInt64 = 0, key: UInt64 = 0) {
            (self.path, self.places, self.shape, self.key) = (path, places, shape, key)
        }
    }

    package init(facts: [PageFact] = [], versions: [UInt64] = [], pages: [Page] = [], wholeCount: Int = 0, context: UInt64 = 0) {
        (self.facts, self.versions, self.pages, self.wholeCount, self.context) = (facts, versions, pages, wholeCount, context)
    }

    /// Each page's place in `pages`, by path.
    package func places() -> [String: Int] {
        var places = [String: Int](minimumCapacity: pages.count)
        for (place, page) in pages.enumerated() { places[page.path] = place }
        return places
    }

    /// Whether the table's pages are `paths`, in that order (the pages of a build whose edit
    /// added and removed none): each page is then at its place in the plan.
    package func isInOrder(of paths: [String]) -> Bool {
        pages.count == paths.count && zip(pages, paths).allSatisfy { $0.path == $1 }
    }

    /// The table of this build: the pages it kept read what they read before (`kept`, their
    /// places in `previous`), the pages it built read `built`. Pages gone from the site drop out.
    package static func next(previous: PageFactTable?, kept: [(path: String, places: [Int32])], built: [(path: String, facts: [PageFact])]) -> PageFactTable {
        var next = Builder(previous: previous, versions: nil, previousVersions: nil, pageCount: kept.count + built.count)
        let old = previous?.places() ?? [:]
        for (position, page) in kept.enumerated() {
            if let place = old[page.path] { next.keep(at: position, previous: place, shape: 0, key: 0) }
        }
        for (offset, page) in built.enumerated() { _ = next.add(at: kept.count + offset, path: page.path, shape: 0, facts: page.facts) }
        return next.table()
    }

    /// Makes a build's table page by page, as the pages are triaged and rendered: a rendered
    /// batch is filed while the next renders. Pages are filed by their place in the plan, in any
    /// order; a place left unfiled holds no page.
    package struct Builder {
        private var building: PageFactTable
        private var placed: [Page?]
        /// New facts, each once; the old ones are not looked up, which would hash every fact of
        /// the table on a one-page rebuild.
        private var added: [PageFact: Int32] = [:]
        /// What the build's facts are, and each new fact's version by its place after the old ones.
        private let versions: FactVersions?
        private var addedVersions: [UInt64] = []
        private let firstAdded: Int
        /// Whether every fact of the table is versioned in this build: the old ones by the triage.
        private let versioned: Bool

        /// - Parameters:
        ///   - versions: what this build's facts are, for the keys of the pages added.
        ///   - previousVersions: the previous table's facts versioned in this build (`SiteRenderer.Triage`).
        ///   - pageCount: how many pages the plan has.
        package init(previous: PageFactTable?, versions: FactVersions?, previousVersions: [UInt64]?, pageCount: Int) {
            building = PageFactTable(facts: previous?.facts ?? [], pages: previous?.pages ?? [], wholeCount: previous?.wholeCount ?? 0)
            versioned = versions != nil && (previousVersions?.count ?? 0) == building.facts.count
            building.versions = versioned ? previousVersions ?? [] : []
            building.context = versions?.context ?? 0
            placed = Array(repeating: nil, count: pageCount)
            firstAdded = building.facts.count
            self.versions = versions
        }

        /// A page kept as it was, at `position` in the plan: it read what it read before, at
        /// `previous` in the previous table, and has the shape and key the triage found.
        package mutating func keep(at position: Int, previous: Int, shape: UInt64, key: UInt64) {
            placed[position] = Page(path: building.pages[previous].path, places: building.pages[previous].places, shape: shape, key: key)
        }

        /// A page built whole at `position` (home, search, 404): it reads no fact the table could
        /// hold, but keeps its place, so that the next build of the same pages finds every page
        /// by its place (`isInOrder(of:)`) rather than looking 32,000 paths up.
        package mutating func builtWhole(at position: Int, path: String) {
            placed[position] = Page(path: path, places: [])
        }

        /// A page built at `position` in the plan, of this shape, which read `facts`; its key.
        package mutating func add(at position: Int, path: String, shape: UInt64, facts: [PageFact]) -> UInt64 {
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
            var key: UInt64 = 0
            if let versions {
                // A built page's facts are all new ones: the old are never looked up.
                let (known, first) = (addedVersions, firstAdded)
                key = versions.key(shape: shape, facts: places.lazy.map { known[Int($0) - first] })
            }
            placed[position] = Page(path: path, places: places, shape: shape, key: key)
            return key
        }

        /// The table, once every page of the build was kept or added.
        package func table() -> PageFactTable {
            var table = building
            table.pages = placed.compactMap { $0 }
            table.versions = versioned ? table.versions + addedVersions : []
            return table.facts.count > max(1024, table.wholeCount + table.wholeCount / 2) ? table.madeWhole() : table
        }
    }

    /// The same pages over a table holding each fact they read once, and no other.
    func madeWhole() -> PageFactTable {
        var whole = PageFactTable(context: context)
        var places: [PageFact: Int32] = [:]
        var moved = [Int32](repeating: -1, count: facts.count)
        whole.pages.reserveCapacity(pages.count)
        for var page in pages {
            page.places = page.places.map { place in
                if moved[Int(place)] >= 0 { return moved[Int(place)] }
                let fact = facts[Int(place)]
                let new = places[fact] ?? {
                    let new = Int32(whole.facts.count)
                    whole.facts.append(fact)
                    if !versions.isEmpty { whole.versions.append(versions[Int(place)]) }
                    places[fact] = new
                    return new
                }()
                moved[Int(place)] = new
                return new
            }
            whole.pages.append(page)
        }
        whole.wholeCount = whole.facts.count
        return whole
    }
}
