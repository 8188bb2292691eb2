import DaybookMarkdown
import DaybookModel
import Testing

@Suite("Markdown link targets the site can keep")
struct MarkdownLinksTests {
    let links = MarkdownLinks(root: "/blog/", sitePaths: ["index.html", "journal/index.html", "journal/q1/index.html", "images/a b.png", "feed.xml"])

    @Test("a path names a file only with the same bytes: a link written decomposed to a folder named composed is dropped, as daybook check and a server would not find it")
    func exactBytes() {
        let links = MarkdownLinks(root: "/", sitePaths: ["locations/caf\u{E9}/index.html"])
        #expect(links.verdict(for: "/locations/caf\u{E9}/") == .keep("/locations/caf\u{E9}/"))
        #expect(links.verdict(for: "/locations/caf%C3%A9/") == .keep("/locations/caf%C3%A9/"))
        #expect(links.verdict(for: "/locations/cafe\u{301}/") == .drop(reason: "names no page or file of this site"))
        #expect(links.verdict(for: "/locations/cafe%CC%81/") == .drop(reason: "names no page or file of this site"))
    }

    @Test(
        "each target's verdict",
        arguments: [
            ("https://example.org/a", MarkdownLinks.Verdict.keep("https://example.org/a")),
            ("mailto:me@example.org", .keep("mailto:me@example.org")),
            ("/", .keep("/blog/")),
            ("/journal/", .keep("/blog/journal/")),
            ("/journal/q1", .keep("/blog/journal/q1")),
            ("/journal/?page=2", .keep("/blog/journal/?page=2")),
            ("/images/a%20b.png", .keep("/blog/images/a%20b.png")),
            ("/feed.xml", .keep("/blog/feed.xml")),
            ("/nowhere/", .drop(reason: "names no page or file of this site")),
            ("/journal/q2/", .drop(reason: "names no page or file of this site")),
            ("/images/a%2", .drop(reason: "names no page or file of this site")),
            ("/journal/#top", .drop(reason: "has a #fragment, which the build cannot check; link the page without it")),
            ("#top", .drop(reason: "is a #fragment, which the build cannot check; link a page from the site root or a full URL")),
            ("x.png", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            ("%22onmouseover=alert(1)", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            // A scheme is an ASCII letter, then letters, digits, +, - or ., then a colon of its own.
            ("svn+ssh.v-2:x", .keep("svn+ssh.v-2:x")),
            ("Z:", .keep("Z:")),
            ("2x:y", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            (":x", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            ("a_b:x", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            ("é:x", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            ("e\u{301}:x", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
            ("a:\u{301}x", .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")),
        ])
    func verdict(url: String, expected: MarkdownLinks.Verdict) {
        #expect(links.verdict(for: url) == expected)
    }

    @Test(
        "a full URL under the site's own address must name a page or file of it, and is kept as written; under any other, it is external",
        arguments: [
            ("https://example.org/blog/", MarkdownLinks.Verdict.keep("https://example.org/blog/")),
            ("https://example.org/blog/journal/q1/", .keep("https://example.org/blog/journal/q1/")),
            ("https://example.org/blog/images/a%20b.png?v=2", .keep("https://example.org/blog/images/a%20b.png?v=2")),
            ("https://example.org/blog/nowhere/", .drop(reason: "names no page or file of this site")),
            ("https://example.org/blog/journal/#top", .drop(reason: "has a #fragment, which the build cannot check; link the page without it")),
            ("https://example.org/blog", .keep("https://example.org/blog")),
            ("https://example.org/other/", .keep("https://example.org/other/")),
            ("http://example.org/blog/nowhere/", .keep("http://example.org/blog/nowhere/")),
            ("HTTPS://EXAMPLE.ORG/blog/nowhere/", .keep("HTTPS://EXAMPLE.ORG/blog/nowhere/")),
        ])
    func ownAddress(url: String, expected: MarkdownLinks.Verdict) {
        var links = links
        links.base = "https://example.org/blog/"
        #expect(links.verdict(for: url) == expected)
    }

    @Test("kept site paths are written under the root; the rest show their text")
    func rendered() {
        let html = Markdown.html(from: "[a](/journal/) [b](/nowhere/) [c](x.png) ![d](/images/a%20b.png) ![e](e.png)", links: links)
        #expect(html == "<p><a href=\"/blog/journal/\">a</a> b c <img src=\"/blog/images/a%20b.png\" alt=\"d\" /> e</p>\n")
    }

    @Test("the targets dropped, in order, once each per call")
    func dropped() {
        let found = Markdown.droppedTargets(in: "[a](/journal/) [b](/nowhere/) ![c](c.png) [j](javascript:x)", links: links)
        #expect(found.map(\.url) == ["/nowhere/", "c.png"])
    }

    /// (An autolink, `<https://…>`, always has a scheme: it is kept or unsafe, never dropped.)
    @Test(
        "a dropped target is found in every form of link and image",
        arguments: [
            "[a](/nowhere/)", "![a](/nowhere/)", "[a][r]\n\n[r]: /nowhere/", "[a][]\n\n[a]: /nowhere/", "[r]\n\n[r]: /nowhere/",
            "![r]\n\n[r]: /nowhere/", "[a]( /nowhere/ )", "[a](</nowhere/>)", "* [a](/nowhere/)", "> ![a](/nowhere/ \"t\")",
        ])
    func everyForm(text: String) {
        let found = Markdown.droppedTargets(in: text, links: links)
        #expect(found.count == 1, "\(text.debugDescription)")
    }

    @Test("a text without link syntax drops nothing, whatever paths it spells out")
    func noLinks() {
        for text in ["", "plain", "see /nowhere/ and https://x.org", "&lt;https://x.org/#a&gt;", "(/nowhere/)", "a [b c"] {
            #expect(Markdown.droppedTargets(in: text, links: links).isEmpty, "\(text)")
        }
    }
}
