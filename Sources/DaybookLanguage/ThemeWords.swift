import DaybookModel

/// The theme's own words in the site's language (CONTRACT §11): one table, read by every
/// template through `{{words.key}}` and by the page builder for the labels it composes.
///
/// The table is whole: English first, then the language's shipped words, then the site's own
/// (`Templates/i18n/<language>.yml`), each key overriding the one before, so a key a
/// translation lacks still reads in English and never as a blank.
package struct ThemeWords: Sendable {
    /// A word or sentence, or one form per CLDR plural category, chosen by a count.
    package enum Entry: Sendable, Hashable {
        case text(String)
        case plural([PluralCategory: String])

        /// The form for `category`; `other` when the entry has no such form (CLDR's rule: every
        /// language has `other`).
        func form(_ category: PluralCategory) -> String {
            switch self {
            case .text(let text): text
            case .plural(let forms): forms[category] ?? forms[.other] ?? forms.values.sorted().first ?? ""
            }
        }
    }

    package let language: LanguageTag
    package let entries: [String: Entry]
    /// Each entry's plain word (a plural's `other`), looked up once per `{{words.key}}` on every page.
    let texts: [String: String]
    let rules: PluralRules

    package init(language: LanguageTag, entries: [String: Entry]) {
        self.language = language
        self.entries = entries
        self.texts = entries.mapValues { $0.form(.other) }
        self.rules = PluralRules(language: language.text)
    }

    /// The word under `key`: a plural entry gives its `other` form. A key the table does not
    /// have reads as the key itself, so a template's typo shows on the page rather than vanish.
    package subscript(key: String) -> String { texts[key] ?? key }

    /// The word under `key`, `nil` when the table has none.
    package func word(_ key: String) -> String? { texts[key] }

    /// `key`'s sentence with its `{placeholders}` filled in.
    package func text(_ key: String, _ values: KeyValuePairs<String, String>) -> String {
        Self.fill(self[key], values)
    }

    /// `key`'s form for `count` by the language's plural rules, with `{count}` as `written`
    /// (the number as the language writes it) and the other placeholders filled in.
    package func count(_ key: String, _ count: Int, written: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let form = (entries[key] ?? .text(key)).form(rules.category(count))
        return Self.fill(form) { name in name == "count" ? written : values.first { $0.key == name }?.value }
    }

    /// `text` with each `{name}` that `value` knows replaced; other braces stay as written.
    /// Labels are filled for every card of every page (a comment count on 20,000 cards), so the
    /// text is scanned once rather than searched once a name.
    static func fill(_ text: String, _ value: (Substring) -> String?) -> String {
        let utf8 = text.utf8
        guard var open = utf8.firstIndex(of: UInt8(ascii: "{")) else { return text }
        var out = ""
        var copied = text.startIndex
        // Braces are ASCII, so each index found in the UTF-8 view is a character boundary.
        while let close = utf8[open...].firstIndex(of: UInt8(ascii: "}")) {
            if let filled = value(text[utf8.index(after: open)..<close]) {
                out += text[copied..<open]
                out += filled
                copied = utf8.index(after: close)
            }
            guard let next = utf8[utf8.index(after: close)...].firstIndex(of: UInt8(ascii: "{")) else { break }
            open = next
        }
        out += text[copied...]
        return out
    }

    static func fill(_ text: String, _ values: KeyValuePairs<String, String>) -> String {
        fill(text) { name in values.first { $0.key == name }?.value }
    }
}
