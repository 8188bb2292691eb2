import DaybookLanguage
import Mustache

/// `{{words.key}}` in a template: the theme's words in the site's language (§11).
///
/// It sits under every page's and item's own view as the outermost context, and every field
/// table passes the name `words` outwards (`ViewFieldTable.wordsName`), so a partial reads it
/// however deep it renders, while any other name a view lacks still stops at that view.
struct WordsView: ViewModel {
    let words: ThemeWords

    /// No stored fields: the words are the same on every page of a build, and the page keys hold
    /// the theme and the language already.
    static let fields = ViewFieldTable<Self>([])

    /// A key the table does not have reads as the key itself: a typo in a template shows on the
    /// page instead of leaving a blank.
    func child(named name: String) -> Any? { words[name] }

    func templateChild(named name: String) -> TemplateValue? { .text(words[name]) }
}

/// The context under a rendering's own view: it holds `words`, and nothing else.
struct WordsRoot: ViewModel {
    let view: WordsView

    static let fields = ViewFieldTable<Self>([])

    func child(named name: String) -> Any? { name == ViewFieldTable<Self>.wordsName ? view : nil }

    func templateChild(named name: String) -> TemplateValue? { name == ViewFieldTable<Self>.wordsName ? .model(view) : nil }
}

/// swift-mustache renders from one context: this one answers `words` and hands every other
/// name to the view, as the compiled walk's stack of two does.
struct WordsAndView: MustacheParent {
    let root: WordsRoot
    let view: any ViewModel

    func child(named name: String) -> Any? { name == ViewFieldTable<WordsRoot>.wordsName ? root.view : view.child(named: name) }
}

extension ThemeWords {
    /// The entries under `keys` as a JSON object, for a script to show: a plural entry keeps each
    /// of its forms by category name, and the script chooses with the browser's CLDR rules.
    func json(keys: [String]) -> String {
        var json = JSONText()
        json.open("{")
        for key in keys {
            guard let entry = entries[key] else { continue }
            json.key(key)
            switch entry {
            case .text(let text): json.string(text)
            case .plural(let forms):
                json.open("{")
                for category in PluralCategory.allCases {
                    guard let form = forms[category] else { continue }
                    json.key(category.rawValue)
                    json.string(form)
                }
                json.close("}")
            }
        }
        json.close("}")
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
