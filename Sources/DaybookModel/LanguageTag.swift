/// A BCP 47 language tag (CONTRACT §11): the site's `language` and an item's `lang`.
///
/// Only well-formedness is checked (RFC 5646 §2.1 syntax), as HTML's `lang` does: a tag of a
/// language Daybook ships no words for is still a language, and falls back to English words
/// with a warning. The tag keeps the case it was written in, so `<html lang>` says what the
/// author wrote; comparisons fold case, as BCP 47 says they do.
package struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    package let text: String

    /// `nil` when `text` is not a well-formed tag ("english", "en_US", "e", "en--gb").
    package init?(_ text: String) {
        guard Self.isWellFormed(text) else { return nil }
        self.text = text
    }

    package static let english = LanguageTag(unchecked: "en")

    private init(unchecked text: String) { self.text = text }

    package var description: String { text }

    package static func == (a: LanguageTag, b: LanguageTag) -> Bool { a.text.lowercased() == b.text.lowercased() }
    package func hash(into hasher: inout Hasher) { hasher.combine(text.lowercased()) }

    /// The primary language subtag, lower-cased: `pt` of `pt-BR`.
    package var language: String { String(text.split(separator: "-", maxSplits: 1)[0]).lowercased() }

    /// The tag and its shorter prefixes, longest first (`zh-Hant-TW`, `zh-Hant`, `zh`): the
    /// order in which words are looked for, as BCP 47's lookup (RFC 4647 §3.4) truncates.
    package var lookupChain: [String] {
        var parts = text.split(separator: "-").map(String.init)
        var chain: [String] = []
        while !parts.isEmpty {
            chain.append(parts.joined(separator: "-"))
            parts.removeLast()
            // A single-letter subtag (an extension's or `x`'s singleton) never ends a prefix.
            while let last = parts.last, last.count == 1 { parts.removeLast() }
        }
        return chain
    }

    /// Whether text in this language runs right to left: by its script subtag when it has one
    /// (`az-Arab`, `pa-Arab`), else by its language's usual script.
    package var isRightToLeft: Bool {
        let subtags = text.split(separator: "-").map { $0.lowercased() }
        if let script = subtags.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return Self.rightToLeftScripts.contains(script)
        }
        return Self.rightToLeftLanguages.contains(language)
    }

    /// `rtl` or `ltr`, for `dir`.
    package var direction: String { isRightToLeft ? "rtl" : "ltr" }

    /// Languages whose usual script runs right to left (CLDR's likely scripts Arab, Hebr,
    /// Thaa, Syrc, Nkoo, Adlm, Rohg).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "khw", "ks", "lrc", "mzn", "nqo", "pnb", "ps", "sd",
        "syr", "ug", "ur", "yi", "ji", "bal", "bqi", "glk", "sdh", "azb", "prs",
    ]
    static let rightToLeftScripts: Set<String> = ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "mand", "samr", "mend", "yezi"]

    // MARK: - Well-formedness (RFC 5646 §2.1)

    /// The tags RFC 5646 keeps for compatibility ("grandfathered"), which the syntax below does not produce.
    private static let irregular: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo", "i-navajo", "i-pwn",
        "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de", "art-lojban", "cel-gaulish", "no-bok", "no-nyn",
        "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ]

    /// RFC 5646's `Language-Tag` production, case-insensitively:
    /// `language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse]`,
    /// or a private-use tag (`x-…`), or an irregular one. Tags are at most 64 characters here,
    /// a bound on untrusted input that no real tag approaches.
    static func isWellFormed(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 64, text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        let lower = text.lowercased()
        if irregular.contains(lower) { return true }
        let subtags = lower.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        func alpha(_ s: String, _ range: ClosedRange<Int>) -> Bool { range.contains(s.count) && s.allSatisfy { $0.isASCII && $0.isLetter } }
        func digits(_ s: String, _ count: Int) -> Bool { s.count == count && s.allSatisfy { $0.isASCII && $0.isNumber } }
        func alnum(_ s: String, _ range: ClosedRange<Int>) -> Bool {
            range.contains(s.count) && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        var i = 0
        /// `privateuse = "x" 1*("-" (1*8alphanum))`, the rest of the tag.
        func privateUse() -> Bool {
            guard i < subtags.count, subtags[i] == "x", i + 1 < subtags.count else { return false }
            return subtags[(i + 1)...].allSatisfy { alnum($0, 1...8) }
        }
        if privateUse() { return true }
        // language: 2-3 letters (with up to three extlang subtags) or 4-8 letters.
        guard i < subtags.count, alpha(subtags[i], 2...8) else { return false }
        let short = subtags[i].count <= 3
        i += 1
        if short {
            var extlangs = 0
            while i < subtags.count, extlangs < 3, alpha(subtags[i], 3...3) {
                i += 1
                extlangs += 1
            }
        }
        if i < subtags.count, alpha(subtags[i], 4...4) { i += 1 }
        if i < subtags.count, alpha(subtags[i], 2...2) || digits(subtags[i], 3) { i += 1 }
        var variants = Set<String>()
        while i < subtags.count,
            alnum(subtags[i], 5...8) || (subtags[i].count == 4 && subtags[i].first!.isNumber && alnum(subtags[i], 4...4))
        {
            // RFC 5646 §2.2.5: a variant appears once.
            guard variants.insert(subtags[i]).inserted else { return false }
            i += 1
        }
        var singletons = Set<String>()
        while i < subtags.count, subtags[i].count == 1, subtags[i] != "x", alnum(subtags[i], 1...1) {
            guard singletons.insert(subtags[i]).inserted else { return false }
            i += 1
            var parts = 0
            while i < subtags.count, alnum(subtags[i], 2...8) {
                i += 1
                parts += 1
            }
            guard parts > 0 else { return false }
        }
        if i == subtags.count { return true }
        return privateUse()
    }
}
