@testable import DaybookIncremental
@testable import DaybookRender
import Testing

/// Results come in runs, made only when a file asks for one of theirs (`SearchResults`).
@Suite("Search results made as needed")
struct SearchResultsTests {
    static func document(_ slug: String) -> SearchDocument {
        SearchDocument(kind: .post, slug: slug, title: slug, text: slug, number: 0, thumbnail: "", texts: [slug], keys: [])
    }

    /// Runs "a" (2 results, given), "b" (none), "c" (3, to make), "d" (1, to make).
    static func results(_ made: RunCounter) -> SearchResults {
        let runs: [[SearchDocument]] = [["a1", "a2"], [], ["c1", "c2", "c3"], ["d1"]].map { $0.map(document) }
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
        #expect(results.all().map(\.slug) == ["a1", "a2", "c1", "c2", "c3", "d1"])
        #expect(made.value == 2 && results.runsMade == 4)
    }

    @Test("every result at once makes the missing runs together")
    func all() {
        let made = RunCounter()
        let results = Self.results(made)
        #expect(results.all().map(\.slug) == ["a1", "a2", "c1", "c2", "c3", "d1"])
        #expect(made.value == 2)
    }

    @Test("a run made with fewer results than its versions say gives empty cards, never a trap")
    func shortRun() {
        let results = SearchResults(runs: [(nil, [Self.document("x"), Self.document("y")].map(SearchStep.Versions.init))]) { _ in [Self.document("x")] }
        #expect(results.all().map(\.slug) == ["x", ""])
        #expect(results.document(at: 1).slug == "")
    }
}
