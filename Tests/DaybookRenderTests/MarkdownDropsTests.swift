import DaybookMarkdown
import DaybookModel
@testable import DaybookRender
import Testing

/// Each Markdown text's dropped targets, judged against this build's files every build, from the
/// targets the build hands in (the incremental layer's) or from a parse of the text.
@Suite("Markdown drops")
struct MarkdownDropsTests {
    let links = MarkdownLinks(root: "/", sitePaths: ["journal/index.html"])

    static func urls(_ drops: [UInt64: [(url: String, reason: String)]]) -> [UInt64: String] {
        drops.mapValues { $0.map(\.url).joined(separator: " ") }
    }

    static func key(_ text: String) -> UInt64 { RenderInput.textKey(text) }

    @Test("parsed: each text that loses a target, with what it loses; a text that loses none is left out")
    func parsed() {
        let drops = PageBuilder.drops(["[a](/journal/) [b](/gone/)", "[c](rel)", "plain", "[d](/journal/)"], links: links)
        #expect(Self.urls(drops) == [Self.key("[a](/journal/) [b](/gone/)"): "/gone/", Self.key("[c](rel)"): "rel"])
    }

    @Test("targets handed in are taken instead of parsing, and judged against this build's files")
    func handedIn() {
        // Targets that say more than their text show where they were used.
        let (plain, linked) = (Self.key("plain"), Self.key("[c](/journal/) ![i](/missing.png)"))
        let targets = [plain: ["/gone/", "/journal/", "rel"], linked: ["/journal/", "/missing.png"]]
        let drops = PageBuilder.drops(targets: targets, links: links)
        #expect(Self.urls(drops) == [plain: "/gone/ rel", linked: "/missing.png"])
        // The same targets under other files: /gone/ now exists and /journal/ is gone.
        let later = PageBuilder.drops(targets: [plain: targets[plain]!], links: MarkdownLinks(root: "/", sitePaths: ["gone/index.html"]))
        #expect(Self.urls(later) == [plain: "/journal/ rel"])
    }
}
