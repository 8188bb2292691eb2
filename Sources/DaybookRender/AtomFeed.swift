import DaybookFeed
import DaybookMarkdown
import DaybookModel

/// The Atom feeds of CONTRACT §4: the first `feedSize` items of the journal, the timeline, and
/// each person's posts and the comments on them.
///
/// Every entry's date comes from content (its date or its last edit), never from the build's
/// clock, so an unchanged site gives an unchanged feed and feed readers see no false updates;
/// only a feed with no entries is dated by the build's "now".
struct AtomFeed {
    static let journalPath = SiteURLs.journalFeed
    static let timelinePath = SiteURLs.timelineFeed

    struct Entry {
        var title: String
        var path: String
        /// An element id on the page (`comment-c1`), for an entry that is part of a page.
        var fragment: String? = nil
        var updated: Instant
        var authorName: String?
        var contentHTML: String
        /// The item's own language (§11), when it gives one: the entry's `xml:lang`.
        var lang: LanguageTag? = nil
    }

    let urls: SiteURLs
    let siteTitle: String
    /// The build's "now": the `<updated>` of a feed with no entries.
    let now: Instant
    /// The site's language (§11): the feed's `xml:lang`.
    let language: LanguageTag

    /// A stable, absolute id for a page: its URL when `baseURL` is absolute, else a URN on its path.
    func id(_ path: String) -> String {
        let absolute = urls.absolute(SiteURLs.percentEncoded(path))
        return absolute.contains("://") ? absolute : "urn:daybook:" + SiteURLs.percentEncoded(path)
    }

    func render(title: String, path: String, feedPath: String, entries: [Entry]) -> String {
        let updated = entries.map(\.updated).max() ?? now
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(XML.escape(language.text))">
            <title>\(XML.escape(title))</title>
            <id>\(XML.escape(id(path)))</id>
            <link rel="self" type="application/atom+xml" href="\(XML.escape(urls.absolute(SiteURLs.percentEncoded(feedPath))))"/>
            <link rel="alternate" type="text/html" href="\(XML.escape(urls.absolute(SiteURLs.percentEncoded(path))))"/>
            <updated>\(updated.utcText)</updated>
            <author><name>\(XML.escape(siteTitle))</name></author>
            <generator>Daybook</generator>

            """
        for entry in entries {
            let fragment = entry.fragment.map { "#" + SiteURLs.percentEncoded($0) } ?? ""
            xml += """
                <entry\(entry.lang.map { " xml:lang=\"\(XML.escape($0.text))\"" } ?? "")>
                <title>\(XML.escape(entry.title))</title>
                <id>\(XML.escape(id(entry.path) + fragment))</id>
                <link rel="alternate" type="text/html" href="\(XML.escape(urls.absolute(SiteURLs.percentEncoded(entry.path)) + fragment))"/>
                <updated>\(entry.updated.utcText)</updated>
                \(entry.authorName.map { "<author><name>\(XML.escape($0))</name></author>\n" } ?? "")<content type="html">\(XML.escape(entry.contentHTML))</content>
                </entry>

                """
        }
        return xml + "</feed>\n"
    }
}

