@testable import DaybookCheck
import Testing

/// The resolver runs over a million times a check, so it has fast paths for the links Daybook
/// writes; each answer must be the one a static server gives, whichever path found it.
@Suite("Link resolution")
struct LinkResolverTests {
    let resolver = LinkResolver(
        files: ["index.html", "posts/p1/index.html", "café/index.html", ".well-known/x", "feed.xml", "a b/index.html"],
        baseURL: "https://example.org/blog/")

    @Test("each form of link resolves as a server would")
    func forms() {
        let cases: [(String, String, LinkResolver.Resolution)] = [
            ("/blog/posts/p1/", "index.html", .file("posts/p1/index.html", fragment: nil)),
            ("/blog/posts/p1", "index.html", .file("posts/p1/index.html", fragment: nil)),
            ("/blog/./posts/p1/", "index.html", .file("posts/p1/index.html", fragment: nil)),
            ("/blog/posts/x/../p1/#c1", "index.html", .file("posts/p1/index.html", fragment: "c1")),
            ("  /blog/feed.xml\t", "index.html", .file("feed.xml", fragment: nil)),
            ("\u{3000}/blog/feed.xml", "index.html", .file("feed.xml", fragment: nil)),
            ("/blog/caf%C3%A9/", "index.html", .file("café/index.html", fragment: nil)),
            ("/blog/café/?q=1#intro", "index.html", .file("café/index.html", fragment: "intro")),
            // As a browser finds the target: `top` (any ASCII case) and an empty fragment are the
            // top of the page, and a text directive is not part of the fragment.
            ("/blog/café/#TOP", "index.html", .file("café/index.html", fragment: nil)),
            ("#top", "posts/p1/index.html", .ignored),
            ("#", "posts/p1/index.html", .ignored),
            ("#:~:text=Tram", "posts/p1/index.html", .ignored),
            ("#c1:~:text=Tram", "posts/p1/index.html", .file("posts/p1/index.html", fragment: "c1")),
            ("#topic", "posts/p1/index.html", .file("posts/p1/index.html", fragment: "topic")),
            ("/blog/a%20b/", "index.html", .file("a b/index.html", fragment: nil)),
            ("/blog/.well-known/x", "index.html", .file(".well-known/x", fragment: nil)),
            ("https://example.org/blog/posts/p1/#c%20d", "index.html", .file("posts/p1/index.html", fragment: "c d")),
            ("../../", "posts/p1/index.html", .file("index.html", fragment: nil)),
            ("#x", "posts/p1/index.html", .file("posts/p1/index.html", fragment: "x")),
            ("?q", "posts/p1/index.html", .ignored),
            ("/blog/posts/p2/", "index.html", .missing),
            ("/elsewhere/", "index.html", .problem("link to /elsewhere/ leaves the site's base path /blog/")),
            ("/blog/../x", "index.html", .problem("link to /blog/../x leaves the site")),
            ("/blog/%E9", "index.html", .problem("link to /blog/%E9 has invalid percent-encoding")),
            ("https://other.example/", "index.html", .external("https://other.example/")),
            ("mailto:me@example.org", "index.html", .ignored),
        ]
        for (raw, page, expected) in cases {
            #expect(resolver.resolve(raw, from: page) == expected, "\(raw) from \(page)")
        }
    }

    @Test("only links that name neither the page nor its folder are remembered across pages")
    func memo() async {
        #expect(LinkResolver.meansTheSameEverywhere("/blog/x"))
        #expect(LinkResolver.meansTheSameEverywhere(" https://example.org/"))
        #expect(LinkResolver.meansTheSameEverywhere("\u{3000}/blog/x"))
        #expect(!LinkResolver.meansTheSameEverywhere("#top"))
        #expect(!LinkResolver.meansTheSameEverywhere("../x"))
        #expect(!LinkResolver.meansTheSameEverywhere("?q"))
        var table = StringTable()
        let links = ["#x", "../../", "/blog/posts/p1/#x", "/blog/feed.xml"].map { table.intern($0) }
        let start = IndexedFacts.Position(line: 1, column: 1)
        let href = table.intern("href")
        let facts = IndexedFacts(
            ids: [IndexedFacts.Named(text: table.intern("x"), position: start)],
            links: links.map { IndexedFacts.Link(url: $0, attribute: href, position: start) })
        let pages = CheckedPages(paths: ["index.html", "posts/p1/index.html"], facts: [facts, facts], table: table)
        let shared = await LinkAnswers.everywhere(resolver: resolver, pages: pages)
        var answers = LinkAnswers(shared)
        func described(_ answer: LinkAnswers.Answer) -> String {
            switch answer {
            case .file(let path, let target, let fragment): "\(path) \(target.map(String.init) ?? "-") \(fragment?.text ?? "-")"
            case .problem(let message): message
            default: "\(answer)"
            }
        }
        #expect(described(answers.answer(links[0], from: 0)) == "index.html 0 x")
        #expect(described(answers.answer(links[0], from: 1)) == "posts/p1/index.html 1 x")
        #expect(described(answers.answer(links[1], from: 1)) == "index.html 0 -")
        #expect(described(answers.answer(links[1], from: 0)) == "link to ../../ leaves the site")
        #expect(described(answers.answer(links[2], from: 0)) == "posts/p1/index.html 1 x")
        #expect(described(answers.answerFromRoot(links[3])) == "feed.xml - -")
    }

    @Test("a scheme is letters, then letters, digits, + - or ., then ':'; it is lower-cased")
    func schemes() {
        #expect(LinkResolver.scheme(of: "HTTPS://x") == "https")
        #expect(LinkResolver.scheme(of: "web+cal.x-1:y") == "web+cal.x-1")
        #expect(LinkResolver.scheme(of: "mailto:") == "mailto")
        #expect(LinkResolver.scheme(of: "1http://x") == nil)
        #expect(LinkResolver.scheme(of: ":x") == nil)
        #expect(LinkResolver.scheme(of: "http") == nil)
        #expect(LinkResolver.scheme(of: "a b:c") == nil)
        #expect(LinkResolver.scheme(of: "/x:y") == nil)
    }
}
