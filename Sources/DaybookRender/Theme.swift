import DaybookModel
import Mustache

/// A theme's files: Mustache templates by name and static assets by path.
///
/// The default theme is embedded in the binary; a site's `Templates/` folder overrides it file by
/// file. Templates arrive here as strings, so rendering never reads a disk.
package struct Theme: Sendable {
    /// `page` for `page.mustache`; each value is the template source and where it came from.
    package var templates: [String: (source: String, path: String)]
    /// Files copied to the output root as they are (`style.css`).
    package var assets: [String: [UInt8]]
    /// The words files (`i18n/pt.yml`) by language tag as the file names it (`pt`), with where
    /// they came from: the default theme's first, then the site's, which overrides it key by key
    /// (`words(for:at:)`). Never published.
    package var words: [String: [(bytes: [UInt8], path: String)]]

    package init(
        templates: [String: (source: String, path: String)] = [:], assets: [String: [UInt8]] = [:],
        words: [String: [(bytes: [UInt8], path: String)]] = [:]
    ) {
        self.templates = templates
        self.assets = assets
        self.words = words
    }

    /// The folder of the words files inside `Templates/`.
    package static let wordsFolder = "i18n/"

    /// Files a theme folder holds, by path inside it (`page.mustache`, `i18n/pt.yml`,
    /// `style.css`): the one rule for what is a template, a words file or an asset, for the
    /// embedded theme and a site's own alike. `false` when a template is not UTF-8.
    package mutating func add(_ relative: String, bytes: [UInt8], path: String) -> Bool {
        if relative.hasSuffix(".mustache") {
            guard let text = String(validating: bytes, as: UTF8.self) else { return false }
            templates[String(relative.dropLast(".mustache".count))] = (text, path)
        } else if relative.hasPrefix(Self.wordsFolder), relative.hasSuffix(".yml"), !relative.dropFirst(Self.wordsFolder.count).contains("/") {
            words[String(relative.dropFirst(Self.wordsFolder.count).dropLast(".yml".count)), default: []].append((bytes, path))
        } else {
            assets[relative] = bytes
        }
        return true
    }

    /// Templates the renderer calls by name; a theme missing one cannot render a site.
    static let requiredTemplates = TemplateName.themeTemplates.map(\.rawValue)

    /// Builds the theme a site renders with: the site's own files win over the default theme's.
    package func overridden(by site: Theme) -> Theme {
        Theme(
            templates: templates.merging(site.templates) { _, own in own },
            assets: assets.merging(site.assets) { _, own in own },
            words: words.merging(site.words) { base, own in base + own })
    }

    /// Parses every template; each syntax error becomes a diagnostic at its line and column.
    /// - Parameter typedWalk: whether pages render through the compiled walk where the templates
    ///   allow it (`false` only to compare it with swift-mustache's).
    package func compile(typedWalk: Bool = true) -> (templates: ThemeTemplates?, diagnostics: [Diagnostic]) {
        var library = MustacheLibrary()
        var diagnostics: [Diagnostic] = []
        ThemeEscaping.register()
        for name in templates.keys.sorted() {
            let (source, path) = templates[name]!
            do {
                library.register(try MustacheTemplate(string: ThemeEscaping.pragma + source), named: name)
            } catch let error as MustacheTemplate.ParserError {
                // Lines are counted in the template as written, without the pragma line.
                diagnostics.append(
                    .error(
                        "template error: \(Self.describe(error.error))",
                        at: SourceLocation(path: path, line: max(1, error.context.lineNumber - 1), column: error.context.columnNumber)))
            } catch {
                diagnostics.append(.error("template error: \(error)", at: SourceLocation(path: path)))
            }
        }
        // The Mustache library renders a partial it does not have as nothing, silently.
        for name in templates.keys.sorted() {
            let (source, path) = templates[name]!
            for call in PartialCall.calls(in: source) where templates[call.name] == nil {
                diagnostics.append(
                    .error(
                        "template '\(name)' includes the partial '\(call.name)', which the theme does not have; add Templates/\(call.name).mustache or fix the name",
                        at: SourceLocation(path: path, line: call.line, column: call.column)))
            }
        }
        for name in Self.requiredTemplates where templates[name] == nil {
            diagnostics.append(
                .error("the theme has no '\(name).mustache'; add it or remove Templates/ to use the default theme", at: SourceLocation(path: "Templates")))
        }
        return (diagnostics.hasErrors ? nil : ThemeTemplates(library: library, names: templates.keys.sorted(), compiling: typedWalk), diagnostics)
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "a section is closed with a different name than it was opened with"
        case .unfinishedName: "a tag is not closed with }}"
        case .expectedSectionEnd: "a section is opened but never closed"
        case .invalidSetDelimiter: "invalid set-delimiter tag"
        default: "\(error)"
        }
    }
}

/// A `{{>name}}` (or `{{<name}}`, a parent) tag in a template's source, with its place.
///
/// swift-mustache keeps its tokens to itself and renders a missing partial as nothing, so the
/// theme finds the calls by scanning the text: comments (`{{! … }}`) are skipped, dynamic names
/// (`{{>*name}}`) are left alone, and only the default `{{ }}` delimiters are understood.
struct PartialCall: Equatable {
    var name: String
    var line: Int
    var column: Int

    static func calls(in source: String) -> [PartialCall] {
        let scalars = Array(source.unicodeScalars)
        var calls: [PartialCall] = []
        var line = 1
        var column = 1
        var index = 0
        func at(_ offset: Int, _ text: String) -> Bool {
            let want = Array(text.unicodeScalars)
            return offset + want.count <= scalars.count && Array(scalars[offset..<offset + want.count]) == want
        }
        func advance() {
            if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 1
        }
        while index < scalars.count {
            guard at(index, "{{") else { advance(); continue }
            let tagLine = line
            let tagColumn = column
            let sigil = index + 2 < scalars.count ? scalars[index + 2] : " "
            var end = index + 2
            while end < scalars.count && !at(end, "}}") { end += 1 }
            if sigil == ">" || sigil == "<" {
                let inner = String(String.UnicodeScalarView(scalars[(index + 3)..<end])).trimmingWhitespace
                if !inner.isEmpty && !inner.hasPrefix("*") {
                    calls.append(PartialCall(name: inner, line: tagLine, column: tagColumn))
                }
            }
            while index < min(end + 2, scalars.count) { advance() }
        }
        return calls
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(String.UnicodeScalarView(unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()))
    }
}
