@testable import DaybookModel
import DaybookTestSupport
import Testing

/// CONTRACT §2 hashtags and mentions, and §4 slugs.
@Suite("Hashtags, mentions and slugs")
struct HashtagTests {
    @Test("hashtags found in text", arguments: [
        ("#Swift and #swift", ["swift"]),
        ("C# is not a tag", []),
        ("foo#bar", []),
        ("#123", []),
        ("#123abc", ["123abc"]),
        ("#café", ["café"]),
        ("#cafe\u{301} decomposed", ["café"]),
        ("#日本", ["日本"]),
        ("#Straße", ["straße"]),
        ("#with_underscore", ["with_underscore"]),
        ("#fun!", ["fun"]),
        ("(#paren), #comma, #dot.", ["paren", "comma", "dot"]),
        ("🌅#sunrise ✨#sparkle✨", ["sunrise", "sparkle"]),
        ("##double", ["double"]),
        ("#", []),
        ("# space", []),
        ("a-#dash", ["dash"]),
        ("#one#two", ["one"]),
        ("é#after", []),
        ("#one @ana#two", ["one"]),
        ("plain text, no marks", []),
    ])
    func tags(text: String, expected: [String]) {
        #expect(Hashtag.tags(in: text) == expected)
    }

    @Test("mentions drop trailing dots and dashes")
    func mentions() {
        let tokens = Hashtag.tokens(in: "hi @alice. and @bob-smith- mail@example.com @")
        let mentions = tokens.compactMap { token -> String? in
            if case .mention(_, let id) = token { return id }
            return nil
        }
        #expect(mentions == ["alice", "bob-smith"])
    }

    @Test("a text without # or @ is one plain run, and an empty text none")
    func plainText() {
        #expect(Hashtag.tokens(in: "Sunset über Lisbon 🎉") == [.text("Sunset über Lisbon 🎉")])
        #expect(Hashtag.tokens(in: "") == [])
        #expect(Hashtag.tokens(in: "@ana@bob x") == [.mention(written: "@ana", userID: "ana"), .text("@bob x")])
    }

    @Test("tokens keep the text around them exactly")
    func tokensRoundTrip() {
        let text = "Sunset at #Lisbon with @ana! C# 🎉"
        let joined = Hashtag.tokens(in: text).map { token -> String in
            switch token {
            case .text(let s), .hashtag(let s, _), .mention(let s, _): s
            }
        }.joined()
        #expect(joined == text)
    }

    @Test("normalising a tags entry", arguments: [
        ("Swift", "swift"), ("café", "café"), ("日本", "日本"), ("123", nil), ("#swift", nil), ("two words", nil), ("", nil),
    ] as [(String, String?)])
    func normalise(raw: String, expected: String?) {
        #expect(Hashtag.normalise(raw) == expected)
    }

    @Test("slugs", arguments: [
        ("Swift", "swift"), ("café", "café"), ("日本", "日本"), ("Hello, World!", "hello-world"), ("--a--b--", "a-b"),
        ("../../etc/passwd", "etc-passwd"), ("a/b\\c", "a-b-c"), ("p.1", "p-1"), ("with_underscore", "with_underscore"),
        ("Straße", "straße"), ("🎉", ""), ("cafe\u{301}", "caf\u{E9}"), ("x\u{AC00}\u{11A8}", "x\u{AC01}"),
        ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"), ("\u{AC00}\u{11A8}\u{11A8}", "\u{AC01}\u{11A8}"), ("\u{AC01}\u{11A8}", "\u{AC01}\u{11A8}"),
        ("ΟΔΟΣ ΚΑΙ ΣΑΣ", "οδος-και-σας"), ("Σ", "σ"), ("ΑΣΑ", "ασα"),
    ])
    func slugs(text: String, expected: String) {
        // By scalars: `==` on strings is canonical equivalence, under which every normal form is equal.
        #expect(Array(Slug.make(text).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test("an ASCII text's slug, made on bytes, is the slug made scalar by scalar: every byte alone and in pairs")
    func asciiSlugs() {
        let bytes = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for a in bytes {
            #expect(Slug.makeASCII(a) == Slug.makeFromScalars(a), "\(Array(a.utf8))")
            for b in ["A", "z", "_", "-", " ", "/", "9"] {
                let text = "-" + a + b + a + "x" + b
                #expect(Slug.make(text) == Slug.makeFromScalars(text), "\(Array(text.utf8))")
            }
        }
    }

    /// The tags as the scanner of every token finds them: what `tags(in:)` was before it read
    /// ASCII on bytes, and still is for the rest.
    static func referenceTags(_ text: String) -> [String] {
        var result: [String] = []
        for case .hashtag(_, let tag) in Hashtag.tokens(in: text) where !result.contains(tag) { result.append(tag) }
        return result
    }

    static let pieces = [
        "#", "@", "#a", "#A1", "#1", "@b", "@b.c", "@b-", ".", "-", "_", "a", "Z", "9", " ", "!", "é", "e\u{301}", "❤️", "日",
        "#é", "x#y", "##", "@@", "#_", "\n", "#Tag", "#TAG", "@ana#two", "(#p)",
    ]

    @Test("tags read on bytes are the tags every token gives: all pairs and triples of tricky pieces, and 3,000 seeded mixes")
    func tagsOnBytes() {
        for a in Self.pieces {
            for b in Self.pieces {
                for text in [a + b, b + a + b, a + " " + b + a] {
                    #expect(Hashtag.tags(in: text) == Self.referenceTags(text), "\(text.debugDescription)")
                }
            }
        }
        var generator = SeededGenerator(seed: 14)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            #expect(Hashtag.tags(in: text) == Self.referenceTags(text), "\(text.debugDescription)")
        }
    }

    @Test("a caption of thousands of distinct tags gives each once, in order")
    func manyTags() {
        let text = (0..<5_000).map { "#t\($0 % 2_500)" }.joined(separator: " ")
        #expect(Hashtag.tags(in: text) == (0..<2_500).map { "t\($0)" })
    }

    @Test("a post's tags: caption hashtags then the tags field, normalised, each once")
    func postTags() {
        let post = Post(id: "p", author: "a", createdAt: Instant(secondsSince1970: 0), caption: "#Sea and #sky #SEA", extraTags: ["Sky", "sand"])
        #expect(post.tags == ["sea", "sky", "sand"])
    }
}
