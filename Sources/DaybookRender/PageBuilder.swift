import DaybookFeed
import DaybookMarkdown
import DaybookModel
import Foundation

/// A page ready to render: the template for its body, the body's view model and the layout's fields.
struct BuiltPage: Sendable {
    var bodyTemplate: String
    var body: PageBodyView
    var title: String
    var bodyClass: String
    var current: String?
    var feed: LinkView?
}

/// Builds the view model of each page from the feeds: the page model mirrors the page,
/// a list of sections of typed items.
struct PageBuilder: Sendable {
    let input: RenderInput
    let urls: SiteURLs
    let paginator: Paginator
    let linker: TextLinker

    init(input: RenderInput) {
        self.input = input
        self.urls = SiteURLs(baseURL: input.config.baseURL)
        self.paginator = Paginator(pageSize: input.config.pageSize)
        // Tag and user pages arrive with the indexes; until then hashtags and mentions stay plain text.
        self.linker = TextLinker(urls: urls, userIDs: [], taggedTags: [])
    }

    var zone: TimeZone { input.moment.timeZone }
    var siteTitle: String { input.config.title }

    func build(_ spec: PageSpec) -> BuiltPage {
        switch spec {
        case .home: home()
        case .notFound:
            BuiltPage(
                bodyTemplate: "404", body: PageBodyView(heading: "Page not found", sections: [], root: urls.root),
                title: "Page not found · \(siteTitle)", bodyClass: "page-404")
        case .journalList(let number): journalList(number)
        case .entry(let index): entryPage(input.feeds.journal[index])
        case .timelineList(let number): timelineList(number)
        case .post(let index): postPage(input.feeds.posts[index])
        }
    }

    // MARK: Pages

    private func home() -> BuiltPage {
        let feeds = input.feeds
        var sections: [SectionView] = []
        if let first = feeds.journal.first {
            let heading = first.isToday ? "Today's prompt" : "Latest prompt"
            sections.append(
                SectionView(style: "today", heading: heading, headingID: "today", isList: false, items: [entryItem(first, headingLevel: 3, inList: false)]))
        }
        sections.append(
            SectionView(
                style: "links", heading: "Explore", headingID: "explore", isList: true,
                items: [
                    LinkCardView(title: "Journal", text: count(feeds.journal.count, "entry", "entries"), url: urls.link(SiteURLs.journal)),
                    LinkCardView(title: "Timeline", text: count(feeds.timeline.count, "post", "posts"), url: urls.link(SiteURLs.timeline)),
                ]))
        let latest = feeds.timeline.prefix(3).map { postCard($0, inList: false, lazy: false) }
        if !latest.isEmpty {
            sections.append(
                SectionView(
                    style: "posts", heading: "Latest photos", headingID: "latest", isList: true, items: latest,
                    moreLink: LinkView(url: urls.link(SiteURLs.timeline), label: "See the whole timeline")))
        }
        return BuiltPage(
            bodyTemplate: "page",
            body: PageBodyView(heading: siteTitle, intro: "A journal of daily prompts and a timeline of photos.", sections: sections, root: urls.root),
            title: siteTitle, bodyClass: "page-home", current: "home")
    }

    private func journalList(_ number: Int) -> BuiltPage {
        let page = paginator.page(number, of: input.feeds.journal)
        let items = page.items.map { entryItem($0, headingLevel: 2, inList: true) }
        return BuiltPage(
            bodyTemplate: "page",
            body: PageBodyView(
                kicker: number > 1 ? "Page \(number)" : nil, heading: "Journal", intro: number == 1 ? "Daily prompts, newest first." : nil,
                sections: [SectionView(style: "entries", isList: true, items: items, emptyText: "No prompts yet.")],
                pagination: pagination(page, base: SiteURLs.journal, previous: "Newer", next: "Older"), root: urls.root),
            title: number > 1 ? "Journal, page \(number) · \(siteTitle)" : "Journal · \(siteTitle)",
            bodyClass: "page-list page-journal", current: "journal")
    }

    private func entryPage(_ entry: JournalEntry) -> BuiltPage {
        let title = entry.prompt?.title ?? "Prompt not available"
        let item = JournalEntryView(
            partial: "item-journal-entry-full", isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: title,
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: entryDay(entry).description, dateLabel: entryDay(entry).longText,
            headingLevel: 2, bodyHTML: entry.prompt?.body.map(Markdown.html(from:)))
        return BuiltPage(
            bodyTemplate: "page",
            body: PageBodyView(kicker: "Journal", heading: title, sections: [SectionView(style: "entry", isList: false, items: [item])], root: urls.root),
            title: "\(title) · \(siteTitle)", bodyClass: "page-entry", current: "journal")
    }

    private func timelineList(_ number: Int) -> BuiltPage {
        let page = paginator.page(number, of: input.feeds.timeline)
        let items = page.items.enumerated().map { offset, post in postCard(post, inList: true, lazy: offset >= 2) }
        let viewerNote = input.config.timelineViewer.flatMap { input.feeds.usersByID[$0] }.map { "Posts by \($0.displayName) and the people they follow." }
        return BuiltPage(
            bodyTemplate: "page",
            body: PageBodyView(
                kicker: number > 1 ? "Page \(number)" : nil, heading: "Timeline", intro: number == 1 ? (viewerNote ?? "Photos, newest first.") : nil,
                sections: [SectionView(style: "posts", isList: true, items: items, emptyText: "No posts yet.")],
                pagination: pagination(page, base: SiteURLs.timeline, previous: "Newer", next: "Older"), root: urls.root),
            title: number > 1 ? "Timeline, page \(number) · \(siteTitle)" : "Timeline · \(siteTitle)",
            bodyClass: "page-list page-timeline", current: "timeline")
    }

    private func postPage(_ post: Post) -> BuiltPage {
        let author = input.feeds.usersByID[post.author]?.displayName ?? post.author
        var view = postView(post, partial: "item-post", inList: false, lazy: false)
        view.tags = []
        let comments = (input.feeds.comments[post.id] ?? []).map(commentItem)
        let sections = [
            SectionView(style: "post", isList: false, items: [view]),
            SectionView(
                style: "comments", heading: count(comments.count, "comment", "comments"), headingID: "comments", isList: true,
                items: comments, emptyText: "No comments yet."),
        ]
        return BuiltPage(
            bodyTemplate: "page",
            body: PageBodyView(kicker: "Post", heading: "Photo by \(author)", sections: sections, root: urls.root),
            title: "Photo by \(author) · \(siteTitle)", bodyClass: "page-post", current: "timeline")
    }

    // MARK: Items

    /// The day an entry is shown under: today for today's prompt, else the day it was sent.
    private func entryDay(_ entry: JournalEntry) -> CalendarDay {
        if entry.isToday { return input.moment.today }
        return entry.sentAt.map { $0.day(in: zone) } ?? input.moment.today
    }

    private func entryItem(_ entry: JournalEntry, headingLevel: Int, inList: Bool) -> JournalEntryView {
        let day = entryDay(entry)
        return JournalEntryView(
            partial: entry.isSkeleton ? "item-skeleton" : "item-journal-entry", dataID: inList ? entry.promptID : nil,
            isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: entry.prompt?.title ?? "Prompt not available",
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: day.longText, headingLevel: headingLevel,
            excerptHTML: entry.prompt?.body.flatMap(Self.firstParagraph).map(Markdown.html(from:)))
    }

    /// The opening paragraph of a Markdown body, for list pages; headings, lists and code are skipped.
    static func firstParagraph(_ markdown: String) -> String? {
        for block in markdown.components(separatedBy: "\n\n") {
            let trimmed = block.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let first = trimmed.first else { continue }
            if "#>-*+`|<0123456789".contains(first) || trimmed.hasPrefix("    ") { continue }
            return trimmed
        }
        return nil
    }

    private func postCard(_ post: Post, inList: Bool, lazy: Bool) -> PostView {
        postView(post, partial: "item-post-card", inList: inList, lazy: lazy)
    }

    private func postView(_ post: Post, partial: String, inList: Bool, lazy: Bool) -> PostView {
        let day = post.createdAt.day(in: zone)
        let time = post.createdAt.timeOfDay(in: zone)
        let comments = input.feeds.comments[post.id]?.count ?? 0
        return PostView(
            partial: partial, dataID: inList ? post.id : nil, url: urls.link(SiteURLs.post(post.id)), author: author(post.author),
            dateISO: post.createdAt.utcText, dateLabel: day.longText,
            timeLabel: "\(time.hour < 10 ? "0" : "")\(time.hour):\(time.minute < 10 ? "0" : "")\(time.minute)",
            image: post.image.map { ImageView(src: urls.asset($0), alt: post.imageAlt ?? "", lazy: lazy) },
            captionHTML: post.caption.map(linker.html), location: post.location.map { PlaceView(name: $0.name, url: nil) },
            tags: [], commentLabel: count(comments, "comment", "comments"))
    }

    private func author(_ id: String) -> AuthorView {
        let user = input.feeds.usersByID[id]
        return AuthorView(
            name: user?.displayName ?? id, url: nil,
            avatar: user?.avatar.map { ImageView(src: urls.asset($0), alt: "", lazy: true) })
    }

    private func commentItem(_ comment: Comment) -> CommentView {
        CommentView(
            anchor: Slug.make(comment.id), author: author(comment.author), dateISO: comment.createdAt.utcText,
            dateLabel: comment.createdAt.day(in: zone).longText, textHTML: linker.html(comment.text))
    }

    private func pagination<Item>(_ page: Page<Item>, base: String, previous: String, next: String) -> PaginationView {
        PaginationView(
            number: page.number, count: page.pageCount,
            previousURL: page.previousNumber.map { urls.link(SiteURLs.listPage(base, $0)) },
            nextURL: page.nextNumber.map { urls.link(SiteURLs.listPage(base, $0)) }, previousLabel: previous, nextLabel: next)
    }

    private func count(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
}
