import DaybookParallel
import DaybookRender
import Foundation

/// Every result of the search index in order, with its versions, each result made only when a
/// file needs it: a caption edit rewrites one cards file and patches a few postings, and making
/// all 120,000 results again for that (the bios and entries through libcmark) was most of a
/// rebuild's search files. Results come in runs (a post and its comments, an entry, a person);
/// a run is made whole, once, by whichever file first needs one of its results.
///
/// Runs are made outside the lock, so two cores asking for one run may both make it; the
/// results are equal, and either stays.
package final class SearchResults: @unchecked Sendable {
    /// Each result's versions, in order.
    package let versions: [SearchStep.Versions]
    /// Where each run starts, in result numbers.
    private let starts: [Int]
    private let make: @Sendable (Int) -> [SearchDocument]
    private let lock = NSLock()
    private var made: [Int: [SearchDocument]]
    /// Set by `release()`: no result may be asked for after it.
    private var released = false

    /// Results already made, as one run.
    package convenience init(documents: [SearchDocument]) {
        self.init(documents: documents, versions: Parallel.mapBlocking(documents, SearchStep.Versions.init))
    }

    /// Results already made, as one run, with their versions.
    convenience init(documents: [SearchDocument], versions: [SearchStep.Versions]) {
        self.init(runs: [(documents, versions)]) { _ in [] }
    }

    /// - Parameters:
    ///   - runs: each run's results when at hand, and its versions.
    ///   - make: the results of the run at a place in `runs`, for the runs without them.
    init(runs: [(documents: [SearchDocument]?, versions: [SearchStep.Versions])], make: @escaping @Sendable (Int) -> [SearchDocument]) {
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
        (self.starts, self.versions, self.made, self.make) = (starts, versions, made, make)
    }

    package var count: Int { versions.count }

    private static let missing = SearchDocument(kind: .post, slug: "", title: "", text: "", number: 0, thumbnail: "", texts: [], keys: [])

    /// How many runs this holds made, given or made here: for tests.
    package var runsMade: Int { lock.withLock { made.count } }

    /// Lets go of every result made, once the last file that needs them is made: a full build
    /// of `large` holds 160 MB of results, which the postings and lexicon files, made after the
    /// cards, need not share memory with. Asking for a result after it is a bug.
    package func release() {
        lock.withLock {
            made = [:]
            released = true
        }
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

    /// Every result, run after run.
    package func all() -> [SearchDocument] {
        precondition(!lock.withLock { released }, "search results asked for after they were released")
        // Made all at once (a first build), the results are the one array they were made in.
        if starts.count == 1, let only = lock.withLock({ made[0] }), only.count == count { return only }
        prepare(runs: Set(starts.indices))
        return lock.withLock {
            var documents: [SearchDocument] = []
            documents.reserveCapacity(count)
            for place in starts.indices {
                let expected = (place + 1 < starts.count ? starts[place + 1] : count) - starts[place]
                let run = made[place] ?? []
                documents += run.prefix(expected)
                if run.count < expected { documents += repeatElement(Self.missing, count: expected - run.count) }
            }
            return documents
        }
    }

    /// Makes the runs that hold `numbers`, on all cores, before they are asked for one by one.
    package func prepare(numbers: some Sequence<Int>) { prepare(runs: Set(numbers.map(run(of:)))) }

    private func prepare(runs: Set<Int>) {
        let missing = lock.withLock { runs.filter { made[$0] == nil } }
        guard !missing.isEmpty else { return }
        let places = missing.sorted()
        let found = places.count == 1 ? [make(places[0])] : Parallel.mapBlocking(places, make)
        lock.withLock {
            for (place, documents) in zip(places, found) where made[place] == nil { made[place] = documents }
        }
    }

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
