import DaybookMarkdown
import Testing

/// The excerpt on journal lists: the first paragraph as CommonMark reads the body.
@Suite("First paragraph")
struct MarkdownExcerptTests {
    @Test("the first paragraph, with headings, lists, quotes and code before it skipped", arguments: [
        ("One.\n\nTwo.", "One."),
        ("# Title\n\nThe text\ngoes on.\n\nMore.", "The text\ngoes on."),
        ("- a\n- b\n\nAfter the list.", "After the list."),
        ("> quoted\n\nPlain.", "Plain."),
        ("    indented code\n\nText.", "Text."),
        ("2024 was a year.\n\nNext.", "2024 was a year."),
        ("# Only a heading", nil),
        ("", nil),
    ])
    func paragraphs(markdown: String, expected: String?) {
        #expect(Markdown.firstParagraph(of: markdown) == expected)
    }

    @Test("a fenced code block with a blank line inside is skipped whole")
    func fencedCodeWithBlankLine() {
        let markdown = "```\nlet a = 1\n\nlet b = 2\n```\n\nThe real text."
        #expect(Markdown.firstParagraph(of: markdown) == "The real text.")
    }

    @Test("CRLF and CR line breaks split paragraphs too")
    func lineBreaks() {
        #expect(Markdown.firstParagraph(of: "# T\r\n\r\nFirst\r\nline two.\r\n\r\nSecond.") == "First\nline two.")
        #expect(Markdown.firstParagraph(of: "First.\r\rSecond.") == "First.")
    }
}
