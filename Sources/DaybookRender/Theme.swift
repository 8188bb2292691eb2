import DaybookModel
import Mustache

/// A theme's files: Mustache templates by name and static assets by path.
///
/// The default theme is embedded in the binary; a site's `Templates/` folder overrides it file by
/// file. Templates arrive here as strings, so rendering never reads a disk.
public struct Theme: Sendable {
    /// `page` for `page.mustache`; each value is the template source and where it came from.
    public var templates: [String: (source: String, path: String)]
    /// Files copied to the output root as they are (`style.css`).
    public var assets: [String: [UInt8]]

    public init(templates: [String: (source: String, path: String)] = [:], assets: [String: [UInt8]] = [:]) {
        self.templates = templates
        self.assets = assets
    }

    /// Templates the renderer calls by name; a theme missing one cannot render a site.
    static let requiredTemplates = TemplateName.themeTemplates.map(\.rawValue)

    /// Builds the theme a site renders with: the site's own files win over the default theme's.
    public func overridden(by site: Theme) -> Theme {
        Theme(
            templates: templates.merging(site.templates) { _, own in own },
            assets: assets.merging(site.assets) { _, own in own })
    }

    /// Parses every template; each syntax error becomes a diagnostic at its line and column.
    public func compile() -> (library: MustacheLibrary?, diagnostics: [Diagnostic]) {
        var library = MustacheLibrary()
        var diagnostics: [Diagnostic] = []
        for name in templates.keys.sorted() {
            let (source, path) = templates[name]!
            do {
                library.register(try MustacheTemplate(string: source), named: name)
            } catch let error as MustacheTemplate.ParserError {
                diagnostics.append(
                    .error(
                        "template error: \(Self.describe(error.error))",
                        at: SourceLocation(path: path, line: error.context.lineNumber, column: error.context.columnNumber)))
            } catch {
                diagnostics.append(.error("template error: \(error)", at: SourceLocation(path: path)))
            }
        }
        for name in Self.requiredTemplates where templates[name] == nil {
            diagnostics.append(
                .error("the theme has no '\(name).mustache'; add it or remove Templates/ to use the default theme", at: SourceLocation(path: "Templates")))
        }
        return (diagnostics.hasErrors ? nil : library, diagnostics)
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
