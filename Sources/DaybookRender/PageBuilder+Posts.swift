import DaybookFeed
import DaybookMarkdown
import DaybookLanguage
import DaybookModel
import Foundation

extension PageBuilder {
    func postPage(_ post: Post) -> BuiltPage {
        reads?.record(.comments(post.id))
        reads?.record(.neighbours(post.id))
        let heading = postTitle(post)
        var view = postView(post, partial: .post, inList: false, lazy: false)
        let neighbours = input.feeds.authorNeighbours[post.id]
        view.newerURL = neighbours?.newer.map { urls.link(SiteURLs.post($0)) }
        view.olderURL = neighbours?.older.map { urls.link(SiteURLs.post($0)) }
        let comments = (input.feeds.comments[post.id] ?? []).map(commentItem)
        let sections = [
            SectionView(style: "post", isList: false, items: [view]),
            SectionView(
                style: "comments", heading: count("commentCount", comments.count), headingID: "comments", isList: true,
                items: comments, emptyText: words["noComments"]),
        ]
        return BuiltPage(
            body: PageBodyView(kicker: words["post"], heading: heading, sections: sections, root: urls.root),
            title: "\(heading) · \(siteTitle)", bodyClass: "page-post", current: .timeline, summary: postSummary(post, title: heading))
    }

    /// "Photo by Ana" for a post with a photo, "Post by Ana" for one without: pages and feeds alike.
    func postTitle(_ post: Post) -> String {
        reads?.record(.person(post.author))
        let author = input.feeds.usersByID[post.author]?.displayName ?? post.author
        return words.text(post.image == nil ? "postBy" : "photoBy", ["name": author])
    }

    /// The time of day in the site's zone, as its language writes times (§11).
    func clock(_ instant: Instant) -> String { dates.time(instant) }

    /// The long date of `instant`'s day in the site's zone, as its language writes dates (§11).
    func longDate(_ instant: Instant) -> String { dates.longDate(instant.day(in: zone)) }

    /// `lang` and `dir` for an item's text (§11): its own language when it gives one, with a
    /// direction only where it is not the site's.
    func language(_ tag: LanguageTag?) -> TextLanguage? {
        guard let tag else { return nil }
        return TextLanguage(lang: tag.text, dir: tag.isRightToLeft == input.config.language.isRightToLeft ? nil : tag.direction)
    }

    /// A post as a card or a full post: the shared card with this appearance's partial, list id and loading.
    func postView(_ post: Post, partial: TemplateName, inList: Bool, lazy: Bool) -> PostView {
        var view = makePostView(post)
        view.partial = partial
        // Cards carry an excerpt; the post's own page shows the whole caption.
        if partial == .post { view.captionHTML = post.caption.map(linked) }
        if partial == .post { view.reportURL = reportURL(post) }
        view.dataID = inList ? post.id : nil
        view.image?.lazy = lazy
        return view
    }

    func makePostView(_ post: Post) -> PostView {
        reads?.record(.post(post.id))
        let comments = input.feeds.comments[post.id]?.count ?? 0
        let place = post.location.map { location in
            PlaceView(name: location.name, url: input.feeds.indexes.locationSlugs[post.id].map { urls.link(SiteURLs.location($0)) })
        }
        return PostView(
            partial: .postCard, dataID: nil, url: urls.link(SiteURLs.post(post.id)), author: author(post.author),
            dateISO: post.createdAt.utcText, dateLabel: longDate(post.createdAt),
            timeLabel: clock(post.createdAt),
            // A photo without alt text is still content, not decoration: say whose it is.
            image: photo(post),
            captionHTML: post.caption.map { linked(Self.excerpt($0)) }, location: place,
            // Only the hashtags that put the post on a tag page link to one.
            tags: (input.feeds.postTags[post.id] ?? post.tags).prefix(input.config.hashtagsPerPost).map { PostView.LinkTag(name: $0, url: urls.link(SiteURLs.tag($0))) },
            commentLabel: count("commentCount", comments), editedISO: post.updatedAt?.utcText,
            editedLabel: post.updatedAt.map(longDate), language: language(post.lang))
    }

    func author(_ id: String) -> AuthorView {
        reads?.record(.person(id))
        let user = input.feeds.usersByID[id]
        return AuthorView(
            name: user?.displayName ?? id, url: user == nil ? nil : urls.link(SiteURLs.user(id)),
            avatar: user?.avatar.map { avatar($0, lazy: true) }, language: language(user?.lang))
    }

    func commentItem(_ comment: Comment) -> CommentView {
        CommentView(
            anchor: Slug.make(comment.id), author: author(comment.author), dateISO: comment.createdAt.utcText,
            dateLabel: longDate(comment.createdAt), timeLabel: clock(comment.createdAt),
            editedISO: comment.updatedAt?.utcText, editedLabel: comment.updatedAt.map(longDate),
            textHTML: linked(comment.text), language: language(comment.lang))
    }

    /// How much of a caption a card shows, in characters.
    static let excerptLength = 300

    /// `text` up to `excerptLength` characters, cut at the last space before the limit and ended
    /// with "…"; shorter text as it is. A card repeats on many pages, so its size is bounded.
    static func excerpt(_ text: String, length: Int = excerptLength) -> String {
        guard text.count > length else { return text }
        let head = text.prefix(length)
        let cut = head.lastIndex(where: \.isWhitespace).map { head[..<$0] } ?? head
        return cut.trimmingCharacters(in: .whitespacesAndNewlines) + "…"
    }
}
