import DaybookMarkdown
@testable import DaybookRender
import Testing

/// Each Markdown text's dropped targets, judged against this build's files every build, from the
/// targets the build hands in (the incremental layer's) or from a parse of the text.
@Suite("Markdown drops")
struct MarkdownDropsTests {
    let links = MarkdownLinks(root: "/", sitePaths: ["journal/index.html"])

    static func urls(_ drops: [String: [(url: String, reason: String)]]) -> [String: String] {
        drops.mapValues { $0.map(\.url).joined(separator: " ") }
    }

    @Test("parsed: each text that loses a target, with what it loses; a text that loses none is left out")
    func parsed() {
        let drops = PageBuilder.drops(["[a](/journal/) [b](/gone/)", "[c](rel)", "plain", "[d](/journal/)"], links: links)
        #expect(Self.urls(drops) == ["[a](/journal/) [b](/gone/)": "/gone/", "[c](rel)": "rel"])
    }

    @Test("targets handed in are taken instead of parsing, and judged against this build's files; a text they lack is parsed")
    func handedIn() {
        // Targets that say more than their text show where they were used.
        let targets = ["plain": ["/gone/", "/journal/", "rel"]]
        let drops = PageBuilder.drops(["plain", "[c](/journal/) ![i](/missing.png)"], links: links, targets: targets)
        #expect(Self.urls(drops) == ["plain": "/gone/ rel", "[c](/journal/) ![i](/missing.png)": "/missing.png"])
        // The same targets under other files: /gone/ now exists and /journal/ is gone.
        let later = PageBuilder.drops(["plain"], links: MarkdownLinks(root: "/", sitePaths: ["gone/index.html"]), targets: targets)
        #expect(Self.urls(later) == ["plain": "/journal/ rel"])
    }
}
