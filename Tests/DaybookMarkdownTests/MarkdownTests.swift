import DaybookMarkdown
import Testing

@Suite("Markdown")
struct MarkdownTests {
    @Test("CommonMark renders")
    func renders() {
        #expect(Markdown.html(from: "Hello *you*") == "<p>Hello <em>you</em></p>\n")
    }

    @Test("raw HTML is not passed through")
    func rawHTML() {
        let html = Markdown.html(from: "<script>alert(1)</script>\n\nok <b onclick=\"x\">b</b>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b "))
    }

    @Test("javascript: links are dropped")
    func javascriptLinks() {
        let html = Markdown.html(from: "[click](javascript:alert(1)) [ok](https://example.org)")
        #expect(!html.contains("javascript:"))
        #expect(html.contains("href=\"https://example.org\""))
    }
}
