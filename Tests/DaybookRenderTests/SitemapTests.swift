@testable import DaybookRender
import Testing

@Suite("Sitemap")
struct SitemapTests {
    let urls = SiteURLs(baseURL: "https://example.org/blog/")

    @Test("one file while the pages fit, 404 aside")
    func single() {
        let files = Sitemap.render(pagePaths: ["index.html", "404.html", "a/index.html"], urls: urls, maxURLs: 2)
        #expect(files.map(\.path) == ["sitemap.xml"])
        #expect(files[0].text.contains("<url><loc>https://example.org/blog/a/</loc></url>"))
        #expect(Sitemap.paths(pageCount: 3, maxURLs: 2) == ["sitemap.xml"])
    }

    @Test("past the protocol's limit, an index and parts of at most maxURLs each")
    func split() {
        let pages = ["index.html", "404.html", "a/index.html", "b/index.html", "c/index.html", "d/index.html"]
        let files = Sitemap.render(pagePaths: pages, urls: urls, maxURLs: 2)
        #expect(files.map(\.path) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        #expect(Sitemap.paths(pageCount: pages.count, maxURLs: 2) == files.map(\.path))
        #expect(files[0].text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <sitemap><loc>https://example.org/blog/sitemap-1.xml</loc></sitemap>
            <sitemap><loc>https://example.org/blog/sitemap-2.xml</loc></sitemap>
            <sitemap><loc>https://example.org/blog/sitemap-3.xml</loc></sitemap>
            </sitemapindex>

            """)
        #expect(files[3].text.contains("<url><loc>https://example.org/blog/d/</loc></url>"))
        #expect(!files.contains { $0.text.contains("404") })
    }

    @Test("the real limit is the protocol's 50,000 URLs")
    func limit() {
        #expect(Sitemap.maxURLs == 50_000)
        #expect(Sitemap.paths(pageCount: 50_001) == ["sitemap.xml"])
        #expect(Sitemap.paths(pageCount: 50_002) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"])
    }
}
