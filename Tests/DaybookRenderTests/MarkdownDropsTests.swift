import DaybookMarkdown
@testable import DaybookRender
import Testing

/// Each text's dropped targets, as one line of URLs.
private func urls(_ memo: MarkdownDropsMemo) -> [String] {
    memo.drops.map { $0.map(\.url).joined(separator: " ") }
}

/// `serve` keeps each Markdown text's dropped links between rebuilds (`MarkdownDropsMemo`).
@Suite("Markdown drops kept between builds")
struct MarkdownDropsTests {
    let links = MarkdownLinks(root: "/", sitePaths: ["journal/index.html"])

    @Test("texts in place, moved, edited and new each get the drops of their own text, from the memo or parsed")
    func keptAndParsed() {
        let first = PageBuilder.drops(["[a](/journal/) [b](/gone/)", "[c](rel)", "plain"], links: links).memo
        #expect(urls(first) == ["/gone/", "rel", ""])

        // The first text stays in place, the second moves behind a new one, the third is edited.
        let texts = ["[a](/journal/) [b](/gone/)", "[n](#top)", "[c](rel)", "plain [d](/journal/x)"]
        let second = PageBuilder.drops(texts, links: links, reusing: first).memo
        #expect(second.texts == texts)
        #expect(urls(second) == ["/gone/", "#top", "rel", "/journal/x"])
    }

    @Test("what the memo holds is taken, in place or moved, without parsing the text again")
    func taken() {
        // A memo that says more than the texts do shows where its answers were used.
        let memo = MarkdownDropsMemo(
            root: links.root, base: links.base, sitePaths: links.sitePaths, texts: ["one", "two"],
            drops: [[(url: "/from-memo-1", reason: "")], [(url: "/from-memo-2", reason: "")]])
        #expect(urls(PageBuilder.drops(["one", "new [x](rel)", "two"], links: links, reusing: memo).memo) == ["/from-memo-1", "rel", "/from-memo-2"])
    }

    @Test("a memo made under another link rule is not used")
    func otherRule() {
        let memo = PageBuilder.drops(["[a](/journal/)"], links: MarkdownLinks(root: "/", sitePaths: [])).memo
        #expect(urls(memo) == ["/journal/"])
        #expect(urls(PageBuilder.drops(["[a](/journal/)"], links: links, reusing: memo).memo) == [""])
        #expect(urls(PageBuilder.drops(["[a](/journal/)"], links: MarkdownLinks(root: "/blog/", sitePaths: []), reusing: memo).memo) == ["/journal/"])
        // The same root and files at another address: a full URL under it is judged again.
        let full = PageBuilder.drops(["[a](https://example.org/x)"], links: MarkdownLinks(root: "/", sitePaths: [])).memo
        #expect(urls(full) == [""])
        let moved = MarkdownLinks(root: "/", sitePaths: [], base: "https://example.org/")
        #expect(urls(PageBuilder.drops(["[a](https://example.org/x)"], links: moved, reusing: full).memo) == ["https://example.org/x"])
    }
}

/// `daybook build` keeps each Markdown text's link targets on disk (`MarkdownTargets`), and
/// applies the site's link rule to them again each build.
@Suite("Markdown targets kept between builds")
struct MarkdownTargetsTests {
    let links = MarkdownLinks(root: "/", sitePaths: ["journal/index.html"])

    @Test("kept targets are taken instead of parsing, and judged against this build's files")
    func taken() {
        // Kept targets that say more than their text show where they were used.
        var kept = MarkdownTargets()
        kept.byText[MarkdownTargets.key("plain")] = ["/gone/", "/journal/", "rel"]
        kept.byText[MarkdownTargets.key("no longer shown")] = ["/old/"]
        let (memo, next) = PageBuilder.drops(["plain", "[c](/journal/) ![i](/missing.png) [j](javascript:x)"], links: links, targets: kept)
        #expect(urls(memo) == ["/gone/ rel", "/missing.png"])
        // Every text of this build, parsed or taken, and no other; unsafe targets are not kept.
        #expect(next?.byText == [
            MarkdownTargets.key("plain"): ["/gone/", "/journal/", "rel"],
            MarkdownTargets.key("[c](/journal/) ![i](/missing.png) [j](javascript:x)"): ["/journal/", "/missing.png"],
        ])
        // The same targets under other files: /gone/ now exists and /journal/ is gone.
        let later = PageBuilder.drops(["plain"], links: MarkdownLinks(root: "/", sitePaths: ["gone/index.html"]), targets: next)
        #expect(urls(later.memo) == ["/journal/ rel"])
    }

    @Test("a build that keeps none (serve) hashes nothing and hands none back")
    func none() {
        let (memo, next) = PageBuilder.drops(["[b](/gone/)"], links: links)
        #expect(urls(memo) == ["/gone/"])
        #expect(next == nil)
    }

    @Test("bytes read back the same; cut, extended or with a key twice they are refused")
    func bytes() throws {
        var targets = MarkdownTargets()
        targets.byText[MarkdownTargets.key("a")] = ["/x/", "https://example.org/ü"]
        targets.byText[MarkdownTargets.key("b")] = []
        let bytes = targets.bytes
        #expect(MarkdownTargets(bytes: bytes[...]) == targets)
        #expect(MarkdownTargets(bytes: MarkdownTargets().bytes[...]) == MarkdownTargets())
        for cut in 0..<bytes.count {
            #expect(MarkdownTargets(bytes: bytes[..<cut]) == nil, "\(cut)")
        }
        #expect(MarkdownTargets(bytes: (bytes + [0])[...]) == nil)
        // Two entries under one key: the count says two, and the second entry repeats the first.
        var twice = MarkdownTargets.magic + [2, 0, 0, 0]
        let one = Array(MarkdownTargets(byKey: MarkdownTargets.key("a"), ["/x/"]).bytes.dropFirst(MarkdownTargets.magic.count + 4))
        twice += one + one
        #expect(MarkdownTargets(bytes: (MarkdownTargets.magic + [1, 0, 0, 0] + one)[...]) != nil)
        #expect(MarkdownTargets(bytes: twice[...]) == nil)
    }
}

extension MarkdownTargets {
    init(byKey key: UInt64, _ targets: [String]) {
        self.init()
        byText[key] = targets
    }
}
