import DaybookModel

/// `/robots.txt` (issue 41): every page may be crawled, and the sitemap is named, as search
/// engines look for it there. A site's own `content/robots.txt` is published instead.
enum Robots {
    static let path = "robots.txt"

    /// Whether the build writes it: not when the site publishes its own.
    static func isWritten(_ input: RenderInput) -> Bool { !input.assetPaths.contains(path) }

    /// The sitemap line needs an absolute address; without one, only the rule is written.
    static func text(urls: SiteURLs) -> String {
        var text = "User-agent: *\nAllow: /\n"
        if SiteConfig.isAbsolute(urls.baseURL) { text += "\nSitemap: \(urls.absolute(Sitemap.path))\n" }
        return text
    }
}
