import DaybookModel
@testable import DaybookRender
import DaybookTestSupport
import Testing

/// `HTML.escape`, `XML.escape` and `SiteURLs.percentEncoded` work on bytes; they must give what
/// working scalar by scalar gives.
@Suite("HTML escaping")
struct HTMLEscapeTests {
    /// Escaping as it was written first: one scalar at a time. HTML writes `'` as `&#39;` and a
    /// refused scalar as U+FFFD; XML writes `&apos;` and drops it.
    static func reference(_ text: String, xml: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += xml ? "&apos;" : "&#39;"
            case _ where !DocumentCharacter.isAllowed(scalar): out += xml ? "" : "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Percent-encoding as it was written first: scalar appends and a formatted number per byte.
    static func percentReference(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: ":"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = String(byte, radix: 16, uppercase: true)
                out += "%" + (digits.count == 1 ? "0" + digits : digits)
            }
        }
        return out
    }

    /// A one-scalar string; Swift literals refuse U+FFFE and U+FFFF.
    static func scalar(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }

    static let pieces: [String] = [
        "a", "Z", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
        "é", "ß", "日本", scalar(0xFDD0), scalar(0xFDEF), "\u{FDF0}", "\u{FFFD}", scalar(0xFFFE), scalar(0xFFFF), "\u{EFFF}", scalar(0x1FFFE),
        scalar(0x10FFFF), "\u{10000}", "🎉", "👩‍💻", "e\u{301}",
    ]

    @Test("exact strings: plain, entities, controls, noncharacters, letters and emoji")
    func exact() {
        #expect(HTML.escape("") == "")
        #expect(HTML.escape("plain text, 42") == "plain text, 42")
        #expect(HTML.escape("<a href=\"x\">Tom & Jerry's</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(HTML.escape("café 🎉 & co") == "café 🎉 &amp; co")
        #expect(HTML.escape("a\u{0}b\u{7F}c\u{85}d" + Self.scalar(0xFFFE) + "e" + Self.scalar(0xFDD5) + "f" + Self.scalar(0x10FFFF)) == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}")
        #expect(HTML.escape("tab\there\nline\r") == "tab\there\nline\r")
    }

    @Test("every pair and many mixes of tricky pieces escape as scalar-by-scalar escaping does, for HTML and XML, and percent-encode as before")
    func matchesReference() {
        func check(_ text: String) {
            let scalars = Array(text.unicodeScalars.map(\.value))
            #expect(HTML.escape(text) == Self.reference(text), "\(scalars)")
            #expect(XML.escape(text) == Self.reference(text, xml: true), "\(scalars)")
            #expect(SiteURLs.percentEncoded(text) == Self.percentReference(text), "\(scalars)")
        }
        for a in Self.pieces {
            for b in Self.pieces { check(a + b + "x" + a) }
        }
        var generator = SeededGenerator(seed: 14)
        for _ in 0..<2_000 {
            let count = Int(generator.next() % 12)
            check((0..<count).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }.joined())
        }
    }

    @Test("XML: exact strings, and a text of refused scalars only becomes empty")
    func xmlExact() {
        #expect(XML.escape("Tom & Jerry's <b>") == "Tom &amp; Jerry&apos;s &lt;b&gt;")
        #expect(XML.escape("\u{0}\u{7F}" + Self.scalar(0xFFFE)) == "")
        #expect(XML.escape("a\u{1}b") == "ab")
        #expect(SiteURLs.percentEncoded("/tags/café 1/") == "/tags/caf%C3%A9%201/")
    }
}
