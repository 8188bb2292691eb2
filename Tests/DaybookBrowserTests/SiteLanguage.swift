import DaybookLanguage
import DaybookModel
import DaybookRender
import Foundation
import Testing

/// The language a browser test's site is set in (CONTRACT §11), and the shipped words it shows:
/// the same behaviour is asserted on an English site and on a right-to-left Arabic one.
struct SiteLanguage: Sendable, CustomTestStringConvertible {
    let tag: String

    static let english = SiteLanguage(tag: "en")
    static let arabic = SiteLanguage(tag: "ar")
    static let both = [english, arabic]

    var testDescription: String { tag }
    var isRightToLeft: Bool { LanguageTag(tag)?.isRightToLeft ?? false }

    /// The theme's words the site shows, from the default theme.
    var words: ThemeWords { Theme.embedded.words(for: LanguageTag(tag) ?? .english, at: nil).words }

    /// `key`'s sentence with its placeholders filled in.
    func text(_ key: String, _ values: KeyValuePairs<String, String> = [:]) -> String { words.text(key, values) }

    /// `key`'s form for `count`; the numbers the tests use are written alike in both languages.
    func count(_ key: String, _ count: Int) -> String { words.count(key, count, written: String(count)) }

    /// The key that steps to the next (older) post in the preview: the arrow that points where
    /// the text runs.
    var forward: String { isRightToLeft ? "ArrowLeft" : "ArrowRight" }
    var backward: String { isRightToLeft ? "ArrowRight" : "ArrowLeft" }

    /// `archive` with `language` set in its site.yml.
    func site(_ archive: String) -> String {
        archive.replacingOccurrences(of: "-- site.yml --\n", with: "-- site.yml --\nlanguage: \(tag)\n")
    }
}
