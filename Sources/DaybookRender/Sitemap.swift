import DaybookModel

/// `sitemap.xml`: every page the build writes, by its pretty URL (`x/index.html` is `x/`).
///
/// The sitemap protocol allows 50,000 URLs per file, so a larger site gets a sitemap index at
/// `sitemap.xml` listing `sitemap-1.xml`, `sitemap-2.xml`, …, each within the limit.
/// `404.html` is not a page anyone should land on from a search engine, so it is left out.
enum Sitemap {
    static let path = "sitemap.xml"
    static let maxURLs = 50_000

    /// The sitemap files for `pagePaths`: one, or an index and its parts.
    static func paths(pageCount: Int, maxURLs: Int = maxURLs) -> [String] {
        let parts = (max(0, pageCount - 1) + maxURLs - 1) / maxURLs
        return parts <= 1 ? [path] : [path] + (1...parts).map { "sitemap-\($0).xml" }
    }

    /// `lastModified` gives `<lastmod>` for the pages whose content has a date (by output path).
    static func render(
        pagePaths: [String], lastModified: [String: Instant] = [:], urls: SiteURLs, maxURLs: Int = maxURLs
    ) -> [(path: String, text: String)] {
        let pages = pagePaths.filter { $0 != "404.html" }
        func urlset(_ slice: ArraySlice<String>) -> String {
            var xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

                """
            for path in slice {
                let pretty = SiteURLs.pagePath(ofFile: path)
                let lastmod = lastModified[path].map { "<lastmod>\($0.utcText)</lastmod>" } ?? ""
                xml += "<url><loc>\(XML.escape(urls.absolute(SiteURLs.percentEncoded(pretty))))</loc>\(lastmod)</url>\n"
            }
            return xml + "</urlset>\n"
        }
        if pages.count <= maxURLs { return [(path, urlset(pages[...]))] }
        var files: [(path: String, text: String)] = []
        var index = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for (number, start) in stride(from: 0, to: pages.count, by: maxURLs).enumerated() {
            let name = "sitemap-\(number + 1).xml"
            files.append((name, urlset(pages[start..<min(pages.count, start + maxURLs)])))
            index += "<sitemap><loc>\(XML.escape(urls.absolute(name)))</loc></sitemap>\n"
        }
        return [(path, index + "</sitemapindex>\n")] + files
    }
}
