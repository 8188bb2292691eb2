import DaybookParallel
import DaybookRender
import Foundation

/// Every result of the search index in order, with its versions, each result made only when a
/// file needs it: a caption edit rewrites one cards file and patches a few postings, and making
/// all 120,000 results again for that (the bios and entries through libcmark) was most of a
/// rebuild's search files. Results come in runs (a post and its comments, an entry, a person);
/// a run is made whole, once, by whichever file first needs one of its results.
///
/// A first build knows no result's versions before it makes it (`init(counts:make:)`): each
/// run's versions are learnt as it is made, so that remaking every file takes the results a few
/// card files at a time and lets go of them (`forget(below:)`) instead of holding them all (160
/// MB on `large`, at the build's peak).
///
/// Runs are made outside the lock, so two cores asking for one run may both make it; the
/// results are equal, and either stays.
package final class SearchResults: @unchecked Sendable {
    package let count: Int
    /// Where each run starts, in result numbers.
    private let starts: [Int]
    private let make: @Sendable (Int) -> [SearchDocument]
    /// Whether a run let go of by `forget(below:)` can be made again: not when it was given whole.
    private let remakes: Bool
    private let lock = NSLock()
    private var made: [Int: [SearchDocument]]
    /// Each result's versions, in order: given, or learnt as its run is made (`unversioned`).
    private var known: [SearchStep.Versions]
    /// The runs whose versions are learnt by making them.
    private var unversioned: Set<Int>
    /// Set by `release()`: no result may be asked for after it.
    private var released = false
    /// The runs a first build keeps in the memo (`SearchStep.runs`), with the id and read version
    /// of each, by place: stored once their versions are known, after the files are made.
    package var runsToKeep: [(place: Int, id: UInt64, version: UInt64)]?

    /// Results already made, as one run.
    package convenience init(documents: [SearchDocument]) {
        self.init(runs: [(documents, Parallel.mapBlocking(documents, SearchStep.Versions.init))], remakes: false) { _ in [] }
    }

    /// - Parameters:
    ///   - runs: each run's results when at hand, and its versions.
    ///   - make: the results of the run at a place in `runs`, for the runs without them.
    convenience init(runs: [(documents: [SearchDocument]?, versions: [SearchStep.Versions])], make: @escaping @Sendable (Int) -> [SearchDocument]) {
        self.init(runs: runs, remakes: true, make: make)
    }

    private init(runs: [(documents: [SearchDocument]?, versions: [SearchStep.Versions])], remakes: Bool, make: @escaping @Sendable (Int) -> [SearchDocument]) {
        var starts: [Int] = []
        var versions: [SearchStep.Versions] = []
        var made: [Int: [SearchDocument]] = [:]
        starts.reserveCapacity(runs.count)
        versions.reserveCapacity(runs.reduce(0) { $0 + $1.versions.count })
        for (place, run) in runs.enumerated() {
            starts.append(versions.count)
            versions += run.versions
            // A run with no results has nothing to make.
            if let documents = run.documents ?? (run.versions.isEmpty ? [] : nil) { made[place] = documents }
        }
        (self.count, self.starts, self.known, self.made, self.make, self.remakes, self.unversioned) =
            (versions.count, starts, versions, made, make, remakes, [])
    }

    /// Runs of `counts` results each, none made yet and none of their versions known.
    package init(counts: [Int], make: @escaping @Sendable (Int) -> [SearchDocument]) {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var total = 0
        for count in counts {
            starts.append(total)
            total += count
        }
        (self.count, self.starts, self.make, self.remakes) = (total, starts, make, true)
        made = [:]
        known = Array(repeating: SearchStep.Versions(document: 0, terms: 0), count: total)
        unversioned = Set(counts.indices.filter { counts[$0] > 0 })
    }

    private static let missing = SearchDocument(kind: .post, slug: "", title: "", text: "", number: 0, thumbnail: "", texts: [], keys: [])

    /// How many runs this holds made, given or made here: for tests.
    package var runsMade: Int { lock.withLock { made.count } }

    /// Each result's versions, in order; the runs whose versions are not known yet are made.
    package var versions: [SearchStep.Versions] {
        let pending = lock.withLock { unversioned }
        if !pending.isEmpty { prepare(runs: pending) }
        return lock.withLock { known }
    }

    /// The versions of the results numbered `range`, their runs made when their versions are not known yet.
    package func versions(_ range: Range<Int>) -> ArraySlice<SearchStep.Versions> {
        guard !range.isEmpty else { return [] }
        let pending = lock.withLock { unversioned.intersection(run(of: range.lowerBound)...run(of: range.upperBound - 1)) }
        if !pending.isEmpty { prepare(runs: pending) }
        return lock.withLock { known[range] }
    }

    /// The results numbered `place`'s run holds.
    package func range(ofRun place: Int) -> Range<Int> { starts[place]..<end(of: place) }

    /// Lets go of every result made, once the last file that needs them is made: a full build
    /// of `large` holds 160 MB of results, which the postings and lexicon files, made after the
    /// cards, need not share memory with. Asking for a result after it is a bug.
    package func release() {
        lock.withLock {
            made = [:]
            released = true
        }
    }

    /// Lets go of the runs that end at or before result `number`, once the files that need them
    /// are made; one asked for again is made again.
    package func forget(below number: Int) {
        guard remakes else { return }
        lock.withLock { made = made.filter { place, _ in end(of: place) > number } }
    }

    /// The results numbered `range`.
    package func documents(_ range: Range<Int>) -> [SearchDocument] {
        guard !range.isEmpty else { return [] }
        precondition(!lock.withLock { released }, "search results asked for after they were released")
        prepare(runs: Set(run(of: range.lowerBound)...run(of: range.upperBound - 1)))
        return lock.withLock {
            range.map { number in
                let place = run(of: number)
                let run = made[place] ?? []
                // A run made with another count than its kept versions say is a fault of what
                // names its inputs (`SearchStep.identity`), which the property test holds; the
                // build shows an empty card rather than trap on it.
                return number - starts[place] < run.count ? run[number - starts[place]] : Self.missing
            }
        }
    }

    package func document(at number: Int) -> SearchDocument { documents(number..<(number + 1))[0] }

    /// Makes the runs that hold `numbers`, on all cores, before they are asked for one by one.
    package func prepare(numbers: some Sequence<Int>) { prepare(runs: Set(numbers.map(run(of:)))) }

    /// Makes the runs of `runs` not made yet, and learns the versions of those that need it.
    private func prepare(runs: Set<Int>) {
        // A run of no results has nothing to make.
        let (missing, learning) = lock.withLock { (runs.filter { made[$0] == nil && end(of: $0) > starts[$0] }, unversioned) }
        guard !missing.isEmpty else { return }
        let places = missing.sorted()
        let build = { @Sendable (place: Int) -> (documents: [SearchDocument], versions: [SearchStep.Versions]?) in
            let documents = self.make(place)
            guard learning.contains(place) else { return (documents, nil) }
            // As many versions as the run has places, a short run's last ones those of an empty card.
            let expected = self.end(of: place) - self.starts[place]
            let versions = documents.prefix(expected).map(SearchStep.Versions.init)
            return (documents, versions + repeatElement(SearchStep.Versions(Self.missing), count: expected - versions.count))
        }
        let found = places.count == 1 ? [build(places[0])] : Parallel.mapBlocking(places, build)
        lock.withLock {
            for (place, run) in zip(places, found) {
                if made[place] == nil && !released { made[place] = run.documents }
                if let versions = run.versions, unversioned.remove(place) != nil {
                    known.replaceSubrange(starts[place]..<end(of: place), with: versions)
                }
            }
        }
    }

    /// Where the run at `place` ends, in result numbers.
    private func end(of place: Int) -> Int { place + 1 < starts.count ? starts[place + 1] : count }

    /// The run that holds result `number`: the last that starts at or before it.
    private func run(of number: Int) -> Int {
        var (low, high) = (0, starts.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= number { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
