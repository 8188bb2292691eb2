@testable import DaybookIncremental
@testable import DaybookRender
import Testing

/// Results come in runs, made only when a file asks for one of theirs (`SearchResults`).
@Suite("Search results made as needed")
struct SearchResultsTests {
    static func document(_ slug: String) -> SearchDocument {
        SearchDocument(kind: .post, slug: slug, title: slug, text: slug, number: 0, thumbnail: "", texts: [slug], keys: [])
    }

    /// Runs "a" (2 results), "b" (none), "c" (3) and "d" (1).
    static let runs: [[SearchDocument]] = [["a1", "a2"], [], ["c1", "c2", "c3"], ["d1"]].map { $0.map(document) }

    /// `runs`, "a" given and the others to make.
    static func results(_ made: RunCounter) -> SearchResults {
        let runs = Self.runs
        return SearchResults(runs: runs.enumerated().map { ($0.offset == 0 ? $0.element : nil, $0.element.map(SearchStep.Versions.init)) }) { place in
            made.add()
            return runs[place]
        }
    }

    @Test("a result asked for makes its run once, and no other; every result comes in order")
    func lazily() {
        let made = RunCounter()
        let results = Self.results(made)
        #expect(results.count == 6)
        #expect(results.documents(0..<2).map(\.slug) == ["a1", "a2"])
        #expect(made.value == 0)
        #expect(results.document(at: 3).slug == "c2")
        #expect(results.document(at: 4).slug == "c3")
        #expect(made.value == 1)
        #expect(results.documents(1..<6).map(\.slug) == ["a2", "c1", "c2", "c3", "d1"])
        #expect(made.value == 2)
        #expect(results.documents(0..<results.count).map(\.slug) == ["a1", "a2", "c1", "c2", "c3", "d1"])
        #expect(made.value == 2 && results.runsMade == 4)
    }

    @Test("every result at once makes the missing runs together")
    func all() {
        let made = RunCounter()
        let results = Self.results(made)
        #expect(results.documents(0..<results.count).map(\.slug) == ["a1", "a2", "c1", "c2", "c3", "d1"])
        #expect(made.value == 2)
    }

    @Test("a run made with fewer results than its versions say gives empty cards, never a trap")
    func shortRun() {
        let results = SearchResults(runs: [(nil, [Self.document("x"), Self.document("y")].map(SearchStep.Versions.init))]) { _ in [Self.document("x")] }
        #expect(results.documents(0..<results.count).map(\.slug) == ["x", ""])
        #expect(results.document(at: 1).slug == "")
    }

    /// `runs` as a first build has them: counted, none made.
    static func counted(_ made: RunCounter) -> SearchResults {
        let runs = Self.runs
        return SearchResults(counts: runs.map(\.count)) { place in
            made.add()
            return runs[place]
        }
    }

    @Test("a first build's results learn their versions as their runs are made, and no sooner")
    func versionsLearnt() {
        let made = RunCounter()
        let results = Self.counted(made)
        #expect(results.count == 6 && made.value == 0)
        let expected = ["a1", "a2", "c1", "c2", "c3", "d1"].map { SearchStep.Versions(Self.document($0)) }
        #expect(Array(results.versions(2..<4)) == Array(expected[2..<4]))
        #expect(made.value == 1 && results.runsMade == 1)
        #expect(results.documents(0..<6).map(\.slug) == ["a1", "a2", "c1", "c2", "c3", "d1"])
        #expect(made.value == 3)
        #expect(results.versions == expected)
        #expect(made.value == 3)
    }

    @Test("every version asked for at once makes the runs not made yet")
    func allVersions() {
        let made = RunCounter()
        let results = Self.counted(made)
        #expect(results.versions == ["a1", "a2", "c1", "c2", "c3", "d1"].map { SearchStep.Versions(Self.document($0)) })
        #expect(made.value == 3)
    }

    @Test("runs forgotten are let go of, and made again if asked for; results given whole are kept")
    func forgotten() {
        let made = RunCounter()
        let results = Self.counted(made)
        _ = results.documents(0..<6)
        #expect(results.runsMade == 3)
        // "c" ends at result 5: it goes with "a"; "d" stays.
        results.forget(below: 5)
        #expect(results.runsMade == 1)
        #expect(results.document(at: 3).slug == "c2")
        #expect(made.value == 4)
        let whole = SearchResults(documents: ["x", "y"].map(Self.document))
        whole.forget(below: 2)
        #expect(whole.documents(0..<whole.count).map(\.slug) == ["x", "y"])
    }

    @Test("a first build's run made short has the versions of empty cards in its missing places")
    func shortCountedRun() {
        let results = SearchResults(counts: [2]) { _ in [Self.document("x")] }
        let empty = SearchDocument(kind: .post, slug: "", title: "", text: "", number: 0, thumbnail: "", texts: [], keys: [])
        #expect(results.versions == [SearchStep.Versions(Self.document("x")), SearchStep.Versions(empty)])
        #expect(results.documents(0..<results.count).map(\.slug) == ["x", ""])
    }
}
