@testable import DaybookIncremental
import Testing

/// Each Markdown text's link targets, parsed the first time the text is seen and kept under a
/// hash of it.
@Suite("Markdown step")
struct MarkdownStepTests {
    @Test("targets are parsed once, a text without any left out, then taken from the memo (in memory or through its container); a text no longer shown leaves")
    func kept() {
        var memo = MemoTable()
        let texts = ["[a](/journal/) ![i](/p.png)", "plain", "[j](javascript:x) [b](rel)"]
        let first = MarkdownStep.targets(of: texts, memo: &memo)
        #expect(first == [MarkdownStep.id(of: "[a](/journal/) ![i](/p.png)"): ["/journal/", "/p.png"], MarkdownStep.id(of: "[j](javascript:x) [b](rel)"): ["rel"]])
        var saved = MemoTable(container: memo.encoded()[...])
        #expect(MarkdownStep.targets(of: texts, memo: &saved) == first)
        #expect(!saved.changed, "nothing parsed, nothing stored")

        // Targets in the memo are taken as they are: a memo that says more than the text shows it.
        var planted = MemoTable()
        let id = MarkdownStep.id(of: "plain")
        planted.store(MarkdownStep.targets, id, version: id, value: MarkdownStep.encode(["/from-memo/"]))
        #expect(MarkdownStep.targets(of: ["plain"], memo: &planted) == [id: ["/from-memo/"]])

        _ = MarkdownStep.targets(of: ["plain"], memo: &saved)
        let after = MemoTable(container: saved.encoded()[...])
        let gone = MarkdownStep.id(of: "[a](/journal/) ![i](/p.png)")
        #expect(after.value(MarkdownStep.targets, gone, version: gone) == nil)
        #expect(after.value(MarkdownStep.targets, id, version: id) != nil)
    }
}
