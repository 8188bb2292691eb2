import DaybookModel
import Testing

/// Output paths and ids are sorted by Unicode scalar, not by Swift's `<` (which orders by
/// canonical equivalence): the order of the build record and sitemap must not depend on it.
@Suite("Scalar order")
struct ScalarOrderTests {
    @Test("scalarsPrecede orders as the scalars do, across byte lengths, prefixes and the empty string")
    func matchesScalars() {
        let words = ["", "a", "ab", "b", "B", "é", "e\u{301}", "z", "日本", "日", "🙂", "\u{7F}", "\u{80}", "\u{FFFF}", "\u{10000}", "a/b", "a b",
            // Longer than a small string's 15 bytes: compared in their own storage.
            "posts/a-rather-long-name/index.html", "posts/a-rather-long-name/index.htm", "posts/a-rather-long-namé/index.html",
            "posts/a-rather-long-name/index.html\u{10000}"]
        for x in words {
            for y in words {
                #expect(x.scalarsPrecede(y) == x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars), "\(x) < \(y)")
            }
        }
        #expect(["é", "e\u{301}", "z"].sorted { $0.scalarsPrecede($1) } == ["e\u{301}", "z", "é"])
    }
}
