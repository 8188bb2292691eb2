@testable import DaybookRender
import Testing

/// CONTRACT §12: a description is plain text on one line, cut to at most 200 characters.
@Suite("Page descriptions")
struct PageSummaryTests {
    @Test("every run of Unicode whitespace is one space, none at the ends; no text is no description")
    func oneLine() {
        #expect(PageSummary.description("  Fog\ton the\n\nriver\u{00A0}\u{3000}at\r\ndawn  ") == "Fog on the river at dawn")
        #expect(PageSummary.description("Café, naïve 東京 👩‍👩‍👧") == "Café, naïve 東京 👩‍👩‍👧")
        #expect(PageSummary.description(" \n\t\u{2028}") == nil)
        #expect(PageSummary.description("") == nil)
        #expect(PageSummary.description("\u{0B}ascii\u{0C}only\r\n") == "ascii only", "the ASCII path: vertical tab and form feed too")
    }

    @Test("whitespace is exactly Unicode's White_Space, as the standard library knows it, and nothing else")
    func whiteSpaceProperty() {
        var mismatched: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = scalar.properties.isWhitespace ? "a b" : "a\(scalar)b"
            if PageSummary.oneLine("a\(scalar)b") != expected { mismatched.append(String(value, radix: 16)) }
        }
        #expect(mismatched == [])
    }

    @Test("200 characters stay whole, however many bytes; 201 are cut at a word with '…' to at most 200")
    func length() throws {
        let exact = String(repeating: "é", count: 200)
        #expect(PageSummary.description(exact) == exact, "400 bytes, 200 characters")
        let long = String(repeating: "word ", count: 40) + "end"
        let cut = try #require(PageSummary.description(long))
        #expect(cut.count <= 200)
        #expect(cut.hasSuffix("word…"))
        #expect(PageSummary.description(String(repeating: "x", count: 201))?.count == 200)
    }
}
