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
    let rules: PluralRules

    package init(language: LanguageTag, entries: [String: Entry]) {
        self.language = language
        self.entries = entries
        self.rules = PluralRules(language: language.text)
    }

    /// The word under `key`: a plural entry gives its `other` form. A key the table does not
    /// have reads as the key itself, so a template's typo shows on the page rather than vanish.
    package subscript(key: String) -> String { entries[key]?.form(.other) ?? key }

    /// `key`'s sentence with its `{placeholders}` filled in.
    package func text(_ key: String, _ values: KeyValuePairs<String, String>) -> String {
        Self.fill(self[key], values)
    }

    /// `key`'s form for `count` by the language's plural rules, with `{count}` as `written`
    /// (the number as the language writes it) and the other placeholders filled in.
    package func count(_ key: String, _ count: Int, written: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let form = (entries[key] ?? .text(key)).form(rules.category(count))
        var filled: [(String, String)] = [("count", written)]
        filled += values.map { ($0.key, $0.value) }
        return Self.fill(form, filled)
    }

    /// Replaces each `{name}` of `values` in `text`; other braces stay as written.
    static func fill(_ text: String, _ values: some Sequence<(key: String, value: String)>) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = text
        for (key, value) in values { out = out.replacing("{\(key)}", with: value) }
        return out
    }

    static func fill(_ text: String, _ values: [(String, String)]) -> String {
        fill(text, values.lazy.map { (key: $0.0, value: $0.1) })
    }
}
