import DaybookModel

/// What `daybook check` found.
package struct CheckReport: Sendable, Encodable {
    /// Sorted by path, line and column.
    package var diagnostics: [Diagnostic]
    package var pages: Int
    package var internalLinks: Int
    /// Distinct external URLs, sorted: listed, never fetched.
    package var externalLinks: [String]
    package var feeds: Int
    package var sitemapURLs: Int
    package var seconds: Double

    package var errorCount: Int { diagnostics.count { $0.severity == .error } }

    /// A report of nothing checked, for a problem that stops the check before it starts (a
    /// missing output folder), so that tools reading `--format json` always get one.
    package init(stoppedBy problem: Diagnostic) {
        self.init(diagnostics: [problem], pages: 0, internalLinks: 0, externalLinks: [], feeds: 0, sitemapURLs: 0, seconds: 0)
    }

    init(diagnostics: [Diagnostic], pages: Int, internalLinks: Int, externalLinks: [String], feeds: Int, sitemapURLs: Int, seconds: Double) {
        (self.diagnostics, self.pages, self.internalLinks, self.externalLinks) = (diagnostics, pages, internalLinks, externalLinks)
        (self.feeds, self.sitemapURLs, self.seconds) = (feeds, sitemapURLs, seconds)
    }

    enum CodingKeys: String, CodingKey {
        case diagnostics, pages, internalLinks, externalLinks, feeds, sitemapURLs, seconds, errors
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diagnostics.map(JSONDiagnostic.init), forKey: .diagnostics)
        try container.encode(pages, forKey: .pages)
        try container.encode(internalLinks, forKey: .internalLinks)
        try container.encode(externalLinks, forKey: .externalLinks)
        try container.encode(feeds, forKey: .feeds)
        try container.encode(sitemapURLs, forKey: .sitemapURLs)
        try container.encode(errorCount, forKey: .errors)
    }

    struct JSONDiagnostic: Encodable {
        var path: String
        var line: Int?
        var column: Int?
        var severity: String
        var message: String

        init(_ diagnostic: Diagnostic) {
            path = diagnostic.location.path
            line = diagnostic.location.line
            column = diagnostic.location.column
            severity = diagnostic.severity.rawValue
            message = diagnostic.message
        }
    }

    /// `checked 109 pages · 2,921 internal links · 12 external (not fetched) · 2 feeds · sitemap of 108 URLs · 0 errors · 0.21 s`
    package var summary: String {
        let errors = errorCount
        return [
            "checked \(pages.grouped) pages", "\(internalLinks.grouped) internal links",
            "\(externalLinks.count.grouped) external (not fetched)", "\(feeds) \(feeds == 1 ? "feed" : "feeds")",
            "sitemap of \(sitemapURLs.grouped) URLs", "\(errors.grouped) \(errors == 1 ? "error" : "errors")",
            "\((seconds * 100).rounded() / 100) s",
        ].joined(separator: " · ")
    }
}
