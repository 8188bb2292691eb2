import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 10, item 16: a feed, a sitemap or a sitemap part that is cut short or has something
/// after its root is an error. On Linux `XMLParser.parse()` returned `true` for all of these.
@Suite("daybook check: truncated and malformed XML")
struct BrokenXMLTests {
    static let feed = SiteFixture.parse(SiteCheckerTests.clean).first { $0.0 == "feed.xml" }!.1
    static let sitemap = SiteFixture.parse(SiteCheckerTests.clean).first { $0.0 == "sitemap.xml" }!.1

    func messages(_ edits: [String: String?]) async -> [String] {
        await SiteCheckerTests().messages(edits)
    }

    /// The text up to (not including) the first occurrence of `marker`, plus `keep` more characters.
    static func cut(_ text: String, before marker: String, keeping keep: Int = 0) -> String {
        let range = text.range(of: marker)!
        return String(text[..<text.index(range.lowerBound, offsetBy: keep)])
    }

    @Test("a feed cut in the middle of an element")
    func feedCutMidElement() async {
        // Line 6 stops inside the entry's <id> text, after 51 characters.
        let found = await messages(["feed.xml": Self.cut(Self.feed, before: "/posts/p1/</id>")])
        #expect(found == [
            "feed.xml:6:52: error: XML is not well-formed: the file ends before <id> inside <feed> is closed; it looks cut short, so build the site again"
        ])
    }

    @Test("a feed cut just after an entry")
    func feedCutAfterEntry() async {
        // The error stands where the text stops: past the last character of line 6's entry.
        let found = await messages(["feed.xml": Self.cut(Self.feed, before: "\n</feed>", keeping: 1)])
        #expect(found == [
            "feed.xml:6:114: error: XML is not well-formed: the file ends before <feed> is closed; it looks cut short, so build the site again"
        ])
    }

    @Test("a feed cut inside a tag")
    func feedCutInsideTag() async {
        let found = await messages(["feed.xml": Self.cut(Self.feed, before: "<updated>2026-11-21T08:00:00Z</updated></entry>", keeping: 4)])
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("feed.xml:6:") == true)
        #expect(found.first?.contains("it looks cut short") == true)
    }

    @Test("a feed without its root's end tag")
    func feedMissingRootClose() async {
        let found = await messages(["feed.xml": Self.feed.replacing("</feed>", with: "")])
        #expect(found == [
            "feed.xml:6:114: error: XML is not well-formed: the file ends before <feed> is closed; it looks cut short, so build the site again"
        ])
    }

    @Test("text, an element or a second end tag after the feed's root")
    func feedGarbageAfterRoot() async {
        for tail in ["garbage", "<entry/>", "</feed>"] {
            let found = await messages(["feed.xml": Self.feed + "\n" + tail])
            #expect(found == ["feed.xml:9:1: error: XML is not well-formed: content follows the root element's end tag"], "\(tail)")
        }
    }

    @Test("an empty feed file, and one with only the XML declaration")
    func emptyFeed() async {
        #expect(await messages(["feed.xml": ""]) == [
            "feed.xml:1:1: error: XML is not well-formed: the file has no root element; build the site again"
        ])
        let declarationOnly = await messages(["feed.xml": "<?xml version=\"1.0\"?>\n"])
        #expect(declarationOnly.count == 1)
        #expect(declarationOnly.first?.hasPrefix("feed.xml:2:1: error: XML is not well-formed: ") == true)
    }

    @Test("a sitemap cut mid-element, after an entry, without its root close, and with garbage after it")
    func sitemap() async {
        // The sitemap is broken, so its list of pages is not compared with the folder.
        #expect(await messages(["sitemap.xml": Self.cut(Self.sitemap, before: "p1/</loc>")]) == [
            "sitemap.xml:5:42: error: XML is not well-formed: the file ends before <loc> inside <urlset> is closed; it looks cut short, so build the site again"
        ])
        #expect(await messages(["sitemap.xml": Self.cut(Self.sitemap, before: "\n</urlset>", keeping: 1)]) == [
            "sitemap.xml:5:57: error: XML is not well-formed: the file ends before <urlset> is closed; it looks cut short, so build the site again"
        ])
        #expect(await messages(["sitemap.xml": Self.sitemap.replacing("</urlset>", with: "")]) == [
            "sitemap.xml:5:57: error: XML is not well-formed: the file ends before <urlset> is closed; it looks cut short, so build the site again"
        ])
        #expect(await messages(["sitemap.xml": Self.sitemap + "\n<url><loc>https://example.org/blog/x/</loc></url>"]) == [
            "sitemap.xml:8:1: error: XML is not well-formed: content follows the root element's end tag"
        ])
    }

    static let index = """
        <?xml version="1.0" encoding="UTF-8"?>
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>https://example.org/blog/sitemap-1.xml</loc></sitemap>
        </sitemapindex>
        """

    @Test("a sitemap part cut short or with garbage after it, and a sitemap index cut short")
    func sitemapParts() async {
        // Each broken part is reported once, in its own file, and the pages it would list are not
        // reported as missing from the sitemap.
        let part = Self.sitemap
        #expect(await messages(["sitemap.xml": Self.index, "sitemap-1.xml": Self.cut(part, before: "\n</urlset>", keeping: 1)]) == [
            "sitemap-1.xml:5:57: error: XML is not well-formed: the file ends before <urlset> is closed; it looks cut short, so build the site again"
        ])
        #expect(await messages(["sitemap.xml": Self.index, "sitemap-1.xml": Self.cut(part, before: "caf%C3%A9/</loc>")]) == [
            "sitemap-1.xml:4:36: error: XML is not well-formed: the file ends before <loc> inside <urlset> is closed; it looks cut short, so build the site again"
        ])
        #expect(await messages(["sitemap.xml": Self.index, "sitemap-1.xml": part + "</urlset>"]) == [
            "sitemap-1.xml:7:1: error: XML is not well-formed: content follows the root element's end tag"
        ])
        let index = await messages(["sitemap.xml": Self.cut(Self.index, before: "</sitemapindex>"), "sitemap-1.xml": part])
        #expect(index == [
            "sitemap.xml:3:69: error: XML is not well-formed: the file ends before <sitemapindex> is closed; it looks cut short, so build the site again"
        ])
    }

    @Test("a mismatched end tag in the middle is named as such, not as a cut")
    func mismatchedTag() async {
        let found = await messages(["feed.xml": Self.feed.replacing("<title>T</title>", with: "<title>T</titel>")])
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("feed.xml:3:") == true)
        #expect(found.first?.hasSuffix("error: XML is not well-formed: an end tag that does not match its start tag") == true)
    }

    @Test("the sound feed and sitemap still pass")
    func soundStillPasses() async {
        #expect(await messages([:]) == [])
        #expect(await messages(["sitemap.xml": Self.index, "sitemap-1.xml": Self.sitemap]) == [])
    }
}
