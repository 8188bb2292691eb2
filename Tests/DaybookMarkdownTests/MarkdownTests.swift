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

    @Test("a link with an unsafe or empty target is dropped and its text kept; no empty href")
    func unsafeLinks() {
        #expect(
            Markdown.html(from: "[click *me*](javascript:alert(1)) [v](VBScript:x) [d](data:text/html,x) [f](file:///etc/passwd) [e]() [ok](https://example.org)")
                == "<p>click <em>me</em> v d f e <a href=\"https://example.org\">ok</a></p>\n")
    }

    @Test("an image with an unsafe or empty target is dropped and its alt text kept; no empty src")
    func unsafeImages() {
        #expect(
            Markdown.html(from: "![a *cat*](javascript:alert(1)) ![e]() ![png](data:image/png;base64,AA) ![ok](/x.png)")
                == "<p>a <em>cat</em> e <img src=\"data:image/png;base64,AA\" alt=\"png\" /> <img src=\"/x.png\" alt=\"ok\" /></p>\n")
    }

    @Test("an image inside an unsafe link keeps its own safe target")
    func nested() {
        #expect(Markdown.html(from: "[![i](/i.png) t](javascript:x)") == "<p><img src=\"/i.png\" alt=\"i\" /> t</p>\n")
    }

    @Test("control characters other than tab and line breaks become U+FFFD")
    func controls() {
        #expect(Markdown.html(from: "a\u{0}b\u{1}c\u{1B}d\te") == "<p>a\u{FFFD}b\u{FFFD}c\u{FFFD}d\te</p>\n")
    }
}
