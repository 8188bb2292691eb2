import DaybookContent
import DaybookLanguage
import DaybookModel
@testable import DaybookRender
import Testing

/// CONTRACT §11: the default theme's words in every language Daybook ships, held to English's
/// keys, their placeholders and each language's CLDR plural categories.
@Suite("The theme's words")
struct ThemeWordsTests {
    /// The languages Daybook ships words for; the README lists the same.
    static let shipped = [
        "ar", "de", "en", "es", "fr", "he", "hi", "it", "ja", "ko", "nl", "pl", "pt", "ru", "tr", "uk", "zh-Hans", "zh-Hant",
    ]

    /// One shipped file's entries, read as a site's would be.
    static func entries(_ language: String) throws -> [String: ThemeWords.Entry] {
        let file = try #require(Theme.embedded.words[language]?.first, "no i18n/\(language).yml")
        let read = WordsReader.read(file.bytes, path: file.path)
        #expect(read.diagnostics.isEmpty, "\(language): \(read.diagnostics)")
        return read.entries
    }

    /// The `{names}` a text fills in.
    static func placeholders(_ text: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    static func forms(_ entry: ThemeWords.Entry) -> [PluralCategory: String] {
        switch entry {
        case .text(let text): [.other: text]
        case .plural(let forms): forms
        }
    }

    @Test("the theme ships exactly these languages")
    func languages() {
        #expect(Theme.embedded.words.keys.sorted() == Self.shipped)
    }

    @Test("each language has English's keys, English's placeholders in every form, and exactly its CLDR plural categories",
        arguments: shipped)
    func complete(language: String) throws {
        let english = try Self.entries("en")
        let entries = try Self.entries(language)
        #expect(entries.keys.sorted() == english.keys.sorted(), "\(language)")
        let categories = PluralRules(language: language).categories
        for (key, base) in english {
            guard let entry = entries[key] else { continue }
            let wanted = Self.forms(base).values.reduce(into: Set<String>()) { $0.formUnion(Self.placeholders($1)) }
            switch (base, entry) {
            case (.text, .text(let text)):
                #expect(Self.placeholders(text) == wanted, "\(language).\(key)")
                #expect(!text.isEmpty, "\(language).\(key)")
            case (.plural, .plural(let forms)):
                #expect(Set(forms.keys) == Set(categories), "\(language).\(key) has \(forms.keys.map(\.rawValue).sorted())")
                for (category, form) in forms { #expect(Self.placeholders(form) == wanted, "\(language).\(key).\(category)") }
            default:
                Issue.record("\(language).\(key) is not the same kind of entry as English's")
            }
        }
    }

    static func words(_ tag: String) -> ThemeWords { Theme.embedded.words(for: LanguageTag(tag)!, at: nil).words }

    @Test("plural forms are chosen by the language's rules: Russian's three, Arabic's six, Portuguese's many")
    func plurals() {
        let ru = Self.words("ru")
        #expect([1, 2, 5, 11, 21, 22].map { ru.count("commentCount", $0, written: String($0)) } == [
            "1 комментарий", "2 комментария", "5 комментариев", "11 комментариев", "21 комментарий", "22 комментария",
        ])
        let ar = Self.words("ar")
        let arabic = [0, 1, 2, 3, 11, 100].map { ar.count("commentCount", $0, written: String($0)) }
        let forms = [PluralCategory.zero, .one, .two, .few, .many, .other].map { category -> String in
            guard case .plural(let forms) = ar.entries["commentCount"] else { return "" }
            return forms[category] ?? ""
        }
        #expect(arabic == zip([0, 1, 2, 3, 11, 100], forms).map { $1.replacing("{count}", with: String($0)) })
        #expect(Set(forms).count >= 3, "Arabic's forms differ")
        let pt = Self.words("pt")
        #expect([1, 2, 1_000_000].map { pt.count("commentCount", $0, written: String($0)) } == [
            "1 comentário", "2 comentários", "1000000 de comentários",
        ])
        #expect(Self.words("en").count("commentCount", 1, written: "1") == "1 comment")
        #expect(Self.words("en").count("commentCount", 0, written: "0") == "0 comments")
    }

    @Test("a tag finds its words by its shorter forms, and Chinese by its script: no warning for any of them")
    func lookup() {
        for (tag, word) in [("pt-BR", "Carregar mais"), ("en-GB", "Load more"), ("zh", "加载更多"), ("zh-CN", "加载更多"), ("zh-TW", "載入更多"), ("zh-Hant-HK", "載入更多")] {
            let (words, diagnostics) = Theme.embedded.words(for: LanguageTag(tag)!, at: nil)
            #expect(words["loadMore"] == word, "\(tag)")
            #expect(diagnostics.isEmpty, "\(tag)")
        }
    }

    @Test("a key the table lacks reads as the key, and placeholders are filled once")
    func templateLookup() {
        let words = Self.words("pt")
        #expect(words["loadMore"] == "Carregar mais")
        #expect(words["noSuchKey"] == "noSuchKey")
        #expect(words.text("pageOf", ["number": "2", "total": "5"]) == "Página 2 de 5")
        #expect(words.text("pageOf", ["number": "{total}"]) == "Página {total} de {total}", "a value is not filled again; a name not given stays")
    }
}

/// `{{words.key}}` through the compiled walk and through swift-mustache alike.
@Suite("Words in templates")
struct WordsInTemplatesTests {
    @Test("a partial inside a section reads {{words.key}} from the outermost context; a view's own field of another name still stops the climb")
    func depth() throws {
        var compiled = try CompiledTemplateTests.templates([
            "t": "{{#navigation}}{{>item}}{{/navigation}}|{{words.missingKey}}",
            "item": "[{{label}} {{words.loadMore}} {{siteTitle}}]",
        ])
        let layout = LayoutView(
            title: "T", siteTitle: "S", root: "/", bodyClass: "c", navigation: [LinkView(url: "/a/", label: "A")], feeds: [], footer: [],
            body: "", lang: "pt", scriptWords: nil)
        compiled.words = WordsRoot(view: WordsView(words: Theme.embedded.words(for: LanguageTag("pt")!, at: nil).words))
        #expect(compiled.isCompiled)
        #expect(compiled.render(layout, template: "t") == "[A Carregar mais ]|missingKey", "siteTitle is not the link's: it stops at the link")
        var fallback = try CompiledTemplateTests.templates(["t": "{{uppercased(words.loadMore)}} {{#navigation}}{{words.loadMore}}{{/navigation}}"])
        fallback.words = compiled.words
        #expect(!fallback.isCompiled)
        #expect(fallback.render(layout, template: "t") == "CARREGAR MAIS Carregar mais")
    }
}
