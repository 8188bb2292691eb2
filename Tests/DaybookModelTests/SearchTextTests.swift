import DaybookModel
import Testing

/// CONTRACT §10's text rules, which `Templates/search.js` repeats: the browser tests hold the two
/// to the same results; these hold the Swift side to its words.
@Suite("Search text")
struct SearchTextTests {
    @Test("folding drops accents and case, composes, and reads a final sigma as sigma")
    func folding() {
        #expect(SearchText.fold("SÃO Jorge") == "sao jorge")
        #expect(SearchText.fold("Crème Brûlée") == "creme brulee")
        #expect(SearchText.fold("cafe\u{301}") == "cafe")
        #expect(SearchText.fold("ΟΔΟΣ") == "οδοσ")
        #expect(SearchText.fold("İstanbul") == "istanbul")
        #expect(SearchText.fold("東京") == "東京")
    }

    @Test("words: letters, marks, digits and _; an apostrophe inside a word is dropped; CJK runs as pairs")
    func words() {
        #expect(SearchText.tokens("Don't stop—the lighthouse's light!") == ["dont", "stop", "the", "lighthouses", "light"])
        #expect(SearchText.tokens("tram 28, #coast @ana_l") == ["tram", "28", "coast", "ana_l"])
        #expect(SearchText.tokens("東京都の夜景") == ["東京", "京都", "都の", "の夜", "夜景"])
        #expect(SearchText.tokens("Kyoto 京 tiles") == ["kyoto", "京", "tiles"])
        #expect(SearchText.tokens("서울 밤") == ["서울", "밤"])
        #expect(SearchText.tokens("dogs' toys ''x") == ["dogs", "toys", "x"])
        #expect(SearchText.tokens("") == [])
    }

    @Test("the file hash is FNV-1a over UTF-8, as search.js computes it")
    func hash() {
        // Reference values of 32-bit FNV-1a.
        #expect(SearchText.hash("") == 0x811C_9DC5)
        #expect(SearchText.hash("a") == 0xE40C_292C)
        #expect(SearchText.hash("foobar") == 0xBF9C_F968)
        #expect(SearchText.group("lighthouse") == "li")
        #expect(SearchText.group("東京") == "東京")
        #expect(SearchText.group("a") == "a")
    }
}
