import Mustache

/// What `{{ }}` does in the theme's templates: Mustache's HTML escaping (the same five characters,
/// the same entities), done by `HTML.escape`.
///
/// swift-mustache escapes Character by Character through a dictionary, which was a tenth of a
/// full build's CPU. A template chooses its escaping with a `CONTENT_TYPE` pragma; the theme's
/// templates get this one as a first line of their own when compiled, so a site's templates are
/// written as plain Mustache and still render the same bytes.
struct ThemeEscaping: MustacheContentType {
    static let name = "DAYBOOK_HTML"
    /// The line put before each template's source; a pragma alone on its line leaves no output.
    static let pragma = "{{% CONTENT_TYPE: \(name) }}\n"

    func escapeText(_ text: String) -> String { HTML.escape(text) }

    /// Registers the content type under `name` (swift-mustache's registry is process-wide; the
    /// same value under the same name every time).
    static func register() { MustacheContentTypes.register(ThemeEscaping(), named: name) }
}
