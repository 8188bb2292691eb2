import DaybookModel
@testable import DaybookRender
import DaybookTestSupport
import Testing

/// `HTML.escape` works on bytes; it must give what escaping scalar by scalar gives.
@Suite("HTML escaping")
struct HTMLEscapeTests {
    /// Escaping as it was written first: one scalar at a time.
    static func reference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where !DocumentCharacter.isAllowed(scalar): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
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

    @Test("every pair and many mixes of tricky pieces escape as scalar-by-scalar escaping does")
    func matchesReference() {
        for a in Self.pieces {
            for b in Self.pieces {
                let text = a + b + "x" + a
                #expect(HTML.escape(text) == Self.reference(text), "\(Array(text.unicodeScalars.map(\.value)))")
            }
        }
        var generator = SeededGenerator(seed: 14)
        for _ in 0..<2_000 {
            let count = Int(generator.next() % 12)
            let text = (0..<count).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }.joined()
            #expect(HTML.escape(text) == Self.reference(text))
        }
    }
}
