@testable import DaybookModel
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
        ("Straße", "straße"), ("🎉", ""), ("cafe\u{301}", "café"),
    ])
    func slugs(text: String, expected: String) {
        #expect(Slug.make(text) == expected)
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

    @Test("a post's tags: caption hashtags then the tags field, normalised, each once")
    func postTags() {
        let post = Post(id: "p", author: "a", createdAt: Instant(secondsSince1970: 0), caption: "#Sea and #sky #SEA", extraTags: ["Sky", "sand"])
        #expect(post.tags == ["sea", "sky", "sand"])
    }
}
