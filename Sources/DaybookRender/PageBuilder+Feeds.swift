import DaybookFeed
import DaybookMarkdown
import DaybookLanguage
import DaybookModel

/// The feeds of CONTRACT §4, each the first `feedSize` items of a list the feed core ordered.
extension PageBuilder {
    var atom: AtomFeed { AtomFeed(urls: urls, siteTitle: siteTitle, now: input.moment.now, language: input.config.language) }

    /// The journal feed: placeholders skipped; each entry with its prompt and its shown responses,
    /// dated by the latest of its sending (today's unsent prompt: the start of today) and their edits.
    func journalFeedXML() -> String {
        let feeds = input.feeds
        let entries = feeds.journal.lazy.filter { !$0.isSkeleton }.prefix(input.config.feedSize).map { entry in
            var html = entry.prompt?.body.map(markdown) ?? ""
            for response in feeds.responses[entry.promptID] ?? [] {
                let lang = response.lang.map { " lang=\"\(HTML.escape($0.text))\"" } ?? ""
                html += "<hr>\n<div class=\"response\" id=\"response-\(HTML.escape(Slug.make(response.id)))\"\(lang)>\(markdown(response.text))</div>\n"
            }
            return AtomFeed.Entry(
                title: entry.prompt?.title ?? "", path: SiteURLs.entry(entry.promptID), updated: feeds.lastChanged(entry),
                authorName: nil, contentHTML: html, lang: entry.prompt?.lang)
        }
        return atom.render(title: words.text("journalFeedTitle", ["site": siteTitle]), path: SiteURLs.journal, feedPath: SiteURLs.journalFeed, entries: Array(entries))
    }

    func timelineFeedXML() -> String {
        let entries = input.feeds.timeline.prefix(input.config.feedSize).map(postEntry)
        return atom.render(title: words.text("timelineFeedTitle", ["site": siteTitle]), path: SiteURLs.timeline, feedPath: SiteURLs.timelineFeed, entries: entries)
    }

    /// `/users/<id>/feed.xml`: the person's first `feedSize` posts, in timeline order.
    func userFeedXML(_ group: PostGroup) -> String {
        let entries = group.posts.prefix(input.config.feedSize).map(postEntry)
        return atom.render(
            title: words.text("userFeedTitle", ["site": siteTitle, "name": group.name]), path: SiteURLs.user(group.id), feedPath: SiteURLs.userFeed(group.id), entries: entries)
    }

    /// `/users/<id>/comments.xml`: the newest `feedSize` comments on the person's posts, each
    /// linking to its place on the post page.
    func userCommentsFeedXML(_ group: PostGroup) -> String {
        let feeds = input.feeds
        let postsByID = Dictionary(group.posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let entries = (feeds.commentsOnPostsBy[group.id] ?? []).prefix(input.config.feedSize).map { comment in
            let commenter = feeds.usersByID[comment.author]?.displayName ?? comment.author
            let on = postsByID[comment.postID].map(postTitle) ?? words["aPost"]
            return AtomFeed.Entry(
                title: words.text("commentOn", ["name": commenter, "post": on]), path: SiteURLs.post(comment.postID), fragment: "comment-" + Slug.make(comment.id),
                updated: comment.lastChanged, authorName: commenter, contentHTML: "<p>\(HTML.escape(comment.text))</p>", lang: comment.lang)
        }
        return atom.render(
            title: words.text("userCommentsFeedTitle", ["site": siteTitle, "name": group.name]), path: SiteURLs.user(group.id),
            feedPath: SiteURLs.userCommentsFeed(group.id), entries: entries)
    }

    /// A post as a feed entry: its photo and caption, titled as its page is, dated by its last edit.
    func postEntry(_ post: Post) -> AtomFeed.Entry {
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
            title: postTitle(post), path: SiteURLs.post(post.id), updated: post.lastChanged, authorName: author, contentHTML: html, lang: post.lang)
    }
}
