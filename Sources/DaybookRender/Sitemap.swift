/// `sitemap.xml`: every page the build writes, by its pretty URL (`x/index.html` is `x/`).
///
/// `404.html` is not a page anyone should land on from a search engine, so it is left out.
enum Sitemap {
    static let path = "sitemap.xml"

    static func render(pagePaths: [String], urls: SiteURLs) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for path in pagePaths where path != "404.html" {
            let pretty = path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
            xml += "<url><loc>\(XML.escape(urls.absolute(SiteURLs.percentEncoded(pretty))))</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }
}
