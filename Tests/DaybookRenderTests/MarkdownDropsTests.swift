import DaybookMarkdown
@testable import DaybookRender
import Testing

/// `serve` keeps each Markdown text's dropped links between rebuilds (`MarkdownDropsMemo`).
@Suite("Markdown drops kept between builds")
struct MarkdownDropsTests {
    let links = MarkdownLinks(root: "/", sitePaths: ["journal/index.html"])

    func urls(_ memo: MarkdownDropsMemo) -> [String] {
        memo.drops.map { $0.map(\.url).joined(separator: " ") }
    }

    @Test("texts in place, moved, edited and new each get the drops of their own text, from the memo or parsed")
    func keptAndParsed() {
        let first = PageBuilder.drops(["[a](/journal/) [b](/gone/)", "[c](rel)", "plain"], links: links)
        #expect(urls(first) == ["/gone/", "rel", ""])

        // The first text stays in place, the second moves behind a new one, the third is edited.
        let texts = ["[a](/journal/) [b](/gone/)", "[n](#top)", "[c](rel)", "plain [d](/journal/x)"]
        let second = PageBuilder.drops(texts, links: links, reusing: first)
        #expect(second.texts == texts)
        #expect(urls(second) == ["/gone/", "#top", "rel", "/journal/x"])
    }

    @Test("what the memo holds is taken, in place or moved, without parsing the text again")
    func taken() {
        // A memo that says more than the texts do shows where its answers were used.
        let memo = MarkdownDropsMemo(
            root: links.root, sitePaths: links.sitePaths, texts: ["one", "two"],
            drops: [[(url: "/from-memo-1", reason: "")], [(url: "/from-memo-2", reason: "")]])
        #expect(urls(PageBuilder.drops(["one", "new [x](rel)", "two"], links: links, reusing: memo)) == ["/from-memo-1", "rel", "/from-memo-2"])
    }

    @Test("a memo made under another link rule is not used")
    func otherRule() {
        let memo = PageBuilder.drops(["[a](/journal/)"], links: MarkdownLinks(root: "/", sitePaths: []))
        #expect(urls(memo) == ["/journal/"])
        #expect(urls(PageBuilder.drops(["[a](/journal/)"], links: links, reusing: memo)) == [""])
        #expect(urls(PageBuilder.drops(["[a](/journal/)"], links: MarkdownLinks(root: "/blog/", sitePaths: []), reusing: memo)) == ["/journal/"])
    }
}
