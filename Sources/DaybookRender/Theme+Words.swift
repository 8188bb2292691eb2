import DaybookContent
import DaybookLanguage
import DaybookModel
import DaybookTheme

extension Theme {
    /// The theme compiled into the binary (`DefaultTheme`), which a site's `Templates/` overrides.
    package static let embedded: Theme = {
        var theme = Theme()
        for (path, text) in DefaultTheme.files { _ = theme.add(path, bytes: Array(text.utf8), path: "Templates/" + path) }
        return theme
    }()

    /// The theme's words for `language` (CONTRACT §11): English, then the words of each
    /// shorter-to-longer form of the tag the theme has (`pt`, then `pt-BR`), the default theme's
    /// before the site's, each key overriding the last. A language no file speaks keeps English
    /// words, with a warning at `position` (where site.yml sets `language`) naming the file that
    /// would add them.
    package func words(for language: LanguageTag, at position: SourceLocation?) -> (words: ThemeWords, diagnostics: [Diagnostic]) {
        var byName: [String: [(bytes: [UInt8], path: String)]] = [:]
        for (name, files) in words { byName[name.lowercased(), default: []] += files }
        var entries: [String: ThemeWords.Entry] = [:]
        var diagnostics: [Diagnostic] = []
        func apply(_ name: String) -> Bool {
            guard let files = byName[name.lowercased()] else { return false }
            for file in files {
                let read = WordsReader.read(file.bytes, path: file.path)
                entries.merge(read.entries) { _, own in own }
                diagnostics += read.diagnostics
            }
            return true
        }
        _ = apply("en")
        var spoken = language.language == "en"
        for name in Self.wordFiles(for: language).reversed() where name.lowercased() != "en" {
            spoken = apply(name) || spoken
        }
        if !spoken {
            let file = "Templates/\(Self.wordsFolder)\(language.text).yml"
            diagnostics.append(Diagnostic(.noWordsForLanguage(language: language.text, file: file), at: position ?? SourceLocation(path: "site.yml")))
        }
        return (ThemeWords(language: language, entries: entries), diagnostics)
    }

    /// The words files that speak `language`, most specific first: its lookup chain, with
    /// Chinese's script made explicit, as CLDR's likely subtags do (`zh` and `zh-CN` are written
    /// in Simplified characters, `zh-TW`, `zh-HK` and `zh-MO` in Traditional).
    static func wordFiles(for language: LanguageTag) -> [String] {
        var chain = language.lookupChain
        if language.language == "zh", !chain.contains(where: { ["zh-hans", "zh-hant"].contains($0.lowercased()) }) {
            let region = language.text.split(separator: "-").dropFirst().first { $0.count == 2 }?.uppercased()
            chain.insert(["TW", "HK", "MO"].contains(region ?? "") ? "zh-Hant" : "zh-Hans", at: chain.count - 1)
        }
        return chain
    }
}

extension ThemeWords {
    /// The default theme's English words: what a render input has until a build gives it the site's.
    package static let english = Theme.embedded.words(for: .english, at: nil).words
}
