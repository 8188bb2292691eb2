@testable import DaybookRender
import Testing

/// A cards file is its cards joined: a build that renumbers results (a post added or gone) moves
/// the last build's cards to their new files by splitting those files, so splitting must give
/// back each card exactly, whatever its text holds.
@Suite("Search index: card fragments")
struct SearchCardFragmentTests {
    static let cards = [
        SearchDocument(kind: .post, slug: "a", title: "Ana", text: #"a "quoted" [bracket] \ back\slash"#, number: 3, thumbnail: "", texts: [], keys: []),
        SearchDocument(kind: .comment, slug: "b", title: "]", text: "line\nbreak \u{1}control ],[", number: 0, thumbnail: "images/b.webp", texts: [], keys: []),
        {
            var entry = SearchDocument(kind: .entry, slug: "c", title: "夜景", text: #"ends with a backslash \"#, number: 12, thumbnail: "", texts: [], keys: [])
            entry.lang = "ja"
            entry.titleInLanguage = true
            return entry
        }(),
    ]

    @Test("each card of a cards file splits out as cardJSON writes it, and joined again they are the file")
    func roundTrip() throws {
        let file = SearchIndex.cardsJSON(cards: Self.cards, number: 7)
        let parts = try #require(SearchIndex.cardFragments(of: file.bytes))
        #expect(parts.map { Array(file.bytes[$0]) } == Self.cards.map(SearchIndex.cardJSON))
        let joined = SearchIndex.cardsJSON(fragments: parts.map { file.bytes[$0] }, number: 7)
        #expect(joined == file)
        #expect(String(decoding: SearchIndex.cardJSON(Self.cards[1]), as: UTF8.self) == #"["c","b","]","line break \u0001control ],[",0,"images/b.webp"]"#)
    }

    @Test("an empty cards file has no cards; bytes that are not an array of arrays give none")
    func notCards() {
        #expect(SearchIndex.cardFragments(of: SearchIndex.cardsJSON(cards: [], number: 0).bytes) == [])
        #expect(SearchIndex.cardFragments(of: Array(#"[["a"]"#.utf8)) == nil)
        #expect(SearchIndex.cardFragments(of: Array(#"[["a"]]]"#.utf8)) == nil)
        #expect(SearchIndex.cardFragments(of: Array(#"[["a]]"#.utf8)) == nil)
        #expect(SearchIndex.cardFragments(of: Array("{}".utf8)) == nil)
    }
}
