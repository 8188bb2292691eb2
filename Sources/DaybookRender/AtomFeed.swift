import DaybookFeed
import DaybookMarkdown
import DaybookModel

/// The Atom feeds of CONTRACT §4: the first `feedSize` items of the journal and the timeline.
///
/// Every date comes from content, never from the build's clock, so an unchanged site gives an
/// unchanged feed and feed readers see no false updates.
struct AtomFeed {
    static let journalPath = SiteURLs.journalFeed
    static let timelinePath = SiteURLs.timelineFeed

    struct Entry {
        var title: String
        var path: String
        var updated: Instant
        var authorName: String?
        var contentHTML: String
    }

    let urls: SiteURLs
    let siteTitle: String

    /// A stable, absolute id for a page: its URL when `baseURL` is absolute, else a URN on its path.
    func id(_ path: String) -> String {
        let absolute = urls.absolute(SiteURLs.percentEncoded(path))
        return absolute.contains("://") ? absolute : "urn:daybook:" + SiteURLs.percentEncoded(path)
    }

    func render(title: String, path: String, feedPath: String, entries: [Entry]) -> String {
        let updated = entries.map(\.updated).max() ?? Instant(secondsSince1970: 0)
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>\(XML.escape(title))</title>
            <id>\(XML.escape(id(path)))</id>
            <link rel="self" type="application/atom+xml" href="\(XML.escape(urls.absolute(SiteURLs.percentEncoded(feedPath))))"/>
            <link rel="alternate" type="text/html" href="\(XML.escape(urls.absolute(SiteURLs.percentEncoded(path))))"/>
            <updated>\(updated.utcText)</updated>
            <author><name>\(XML.escape(siteTitle))</name></author>
            <generator>Daybook</generator>

            """
        for entry in entries {
            xml += """
                <entry>
                <title>\(XML.escape(entry.title))</title>
                <id>\(XML.escape(id(entry.path)))</id>
                <link rel="alternate" type="text/html" href="\(XML.escape(urls.absolute(SiteURLs.percentEncoded(entry.path))))"/>
                <updated>\(entry.updated.utcText)</updated>
                \(entry.authorName.map { "<author><name>\(XML.escape($0))</name></author>\n" } ?? "")<content type="html">\(XML.escape(entry.contentHTML))</content>
                </entry>

                """
        }
        return xml + "</feed>\n"
    }
}

extension PageBuilder {
    /// The journal feed: placeholders skipped; an entry dated by its sending, today's unsent prompt by the start of today.
    func journalFeedXML() -> String {
        let feed = AtomFeed(urls: urls, siteTitle: siteTitle)
        let startOfToday = input.moment.today.start(in: zone)
        let entries = input.feeds.journal.lazy.filter { !$0.isSkeleton }.prefix(input.config.feedSize).map { entry in
            AtomFeed.Entry(
                title: entry.prompt?.title ?? "", path: SiteURLs.entry(entry.promptID), updated: entry.sentAt ?? startOfToday,
                authorName: nil, contentHTML: entry.prompt?.body.map(Markdown.html(from:)) ?? "")
        }
        return feed.render(title: "\(siteTitle): journal", path: SiteURLs.journal, feedPath: AtomFeed.journalPath, entries: Array(entries))
    }

    func timelineFeedXML() -> String {
        let feed = AtomFeed(urls: urls, siteTitle: siteTitle)
        let entries = input.feeds.timeline.prefix(input.config.feedSize).map { post in
            let author = input.feeds.usersByID[post.author]?.displayName ?? post.author
            var html = ""
            // Feeds leave sensitive photos out (CONTRACT §7); a local photo is linked as its widest copy.
            if let image = post.image, !post.isSensitive {
                let path = input.images[image]?.copies.last?.path ?? image
                let src = SiteURLs.isExternal(image) ? image : urls.absolute(SiteURLs.percentEncoded(path))
                html += "<p><img src=\"\(HTML.escape(src))\" alt=\"\(HTML.escape(post.imageAlt ?? ""))\"></p>"
            }
            if let caption = post.caption { html += "<p>\(HTML.escape(caption))</p>" }
            return AtomFeed.Entry(
                title: "Photo by \(author)", path: SiteURLs.post(post.id), updated: post.createdAt, authorName: author, contentHTML: html)
        }
        return feed.render(title: "\(siteTitle): timeline", path: SiteURLs.timeline, feedPath: AtomFeed.timelinePath, entries: Array(entries))
    }
}
