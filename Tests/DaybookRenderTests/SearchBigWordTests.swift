@testable import DaybookRender
import Testing

/// A big word's entry (CONTRACT §10's 256 KiB for a first one-word query): its postings file
/// holds its count and best results in the order `search.js` ranks them; its whole list is in
/// the big files, cut at segment boundaries; and the layout's files fit the budget.
@Suite("Search index: big words")
struct SearchBigWordTests {
    /// 40 results, 3 people/hashtags/places first; split above 4 results, best 3, segments of 16.
    static func layout() -> SearchIndex.Layout {
        var layout = SearchIndex.Layout(pages: 1_000, documents: 40)
        layout.splitting(above: 4, head: 3, width: 16, documents: 40)
        layout.groupResults = 3
        return layout
    }

    @Test("the postings file: a small word's list as distances, a big word's count and best three (leading results, then most often, then newest)")
    func postingsFile() {
        // "sea": results 1 (a hashtag), 5, 17 (twice), 18, 30, 33 (twice): six, so big.
        let postings: SearchIndex.Postings = ["sea": [1, 5, 17, -2, 18, 30, 33, -2], "tram": [2, 20]]
        let file = SearchIndex.postingsJSON(postings, number: 0, layout: Self.layout())
        #expect(String(decoding: file.bytes, as: UTF8.self) == #"{"sea":{"n":6,"top":[1,33,-2,17,-2]},"tram":[2,18]}"#)
    }

    @Test("the big files: each segment of a big word's list in its own file, distances from 0; small words nowhere")
    func bigFiles() {
        let postings: SearchIndex.Postings = ["sea": [1, 5, 17, -2, 18, 30, 33, -2], "tram": [2, 20]]
        let layout = Self.layout()
        #expect(layout.segments == 3)
        let files = SearchIndex.bigJSON(bucket: 0, postings: [postings], layout: layout)
        #expect(files.map(\.path) == ["search/b/0.json", "search/b/1.json", "search/b/2.json"])
        #expect(files.map { String(decoding: $0.bytes, as: UTF8.self) } == [#"{"sea":[1,4]}"#, #"{"sea":[17,-2,1,12]}"#, #"{"sea":[33,-2]}"#])
    }

    @Test("the layout at large's size: within one file per 50 pages and 20, entries' cards half as many to a file")
    func largeLayout() {
        var layout = SearchIndex.Layout(pages: 154_383, documents: 621_442, entries: 4_420)
        #expect(layout.lexiconFiles == 128 && layout.postingFiles == 512)
        #expect(layout.segments == 10 && layout.bigBuckets == 16 && layout.bigResults == 1_024)
        #expect(layout.cardsPerFile == 288 && layout.entryCardsPerFile == 144)
        #expect(layout.paths.count == 2_974 && layout.paths.count <= 154_383 / 50 + 20)
        // The first entry starts a file; the last result is in the last file.
        #expect(layout.cardFile(of: 621_442 - 4_420, documents: 621_442) == (621_442 - 4_420 + 287) / 288)
        #expect(layout.cardFile(of: 621_441, documents: 621_442) == layout.cardFiles - 1)
        #expect(layout.results(ofCardFile: layout.cardFiles - 1, documents: 621_442) == 621_342..<621_442)
        // A site smaller than a big word has no big files, and its entries share the one card file.
        layout = SearchIndex.Layout(pages: 30, documents: 25, entries: 5)
        #expect(layout.bigFiles == 0 && layout.entries == 0 && layout.cardFiles == 1)
    }
}
