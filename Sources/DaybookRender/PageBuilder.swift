import DaybookFeed
import DaybookLanguage
import DaybookMarkdown
import DaybookModel
import DaybookParallel
import Foundation

/// A page ready to render: the template for its body, the body's view model and the layout's fields.
struct BuiltPage: ViewModel {
    var bodyTemplate = TemplateName.page
    var body: PageBodyView
    var title: String
    var bodyClass: String
    var current: SiteSection?
    var feeds: [LinkView] = []
    /// What link previews and search engines read of it (§12), made into `<head>` tags by the
    /// renderer when `baseURL` is absolute.
    var summary = PageSummary()

    static let fields = ViewFieldTable<Self>([
        .stored("bodyTemplate") { $0.bodyTemplate.rawValue }, .stored("body") { $0.body }, .stored("title") { $0.title },
        .stored("bodyClass") { $0.bodyClass }, .stored("current") { $0.current?.rawValue }, .stored("feeds") { $0.feeds },
        .stored("summary") { $0.summary },
    ])
}

/// Builds the view model of each page from the feeds: the page model mirrors the page,
/// a list of sections of typed items.
struct PageBuilder: Sendable {
    let input: RenderInput
    let urls: SiteURLs
    let paginator: Paginator
    let linker: TextLinker
    /// Which Markdown link targets the site keeps (`nil`: all safe ones, for tests of one page).
    let links: MarkdownLinks?

    /// The link targets each shown Markdown text (prompt body, response, bio) loses, by the
    /// text's key (`RenderInput.textKey`): worked out once per build, for the warnings and for
    /// the keys of the pages that show the text.
    let markdownDrops: [UInt64: [(url: String, reason: String)]]
    /// The site's pages, which size the search index (`SearchIndex.Layout`).
    let pageCount: Int
    /// Dates, times and numbers as the site's language writes them (§11).
    let dates: LocalDates
    /// The words the layout's scripts show, as JSON (`LayoutView.scriptWords`), made once.
    let scriptWords: String
    /// The `<link>`s to the site's icons, the same on every page. They follow from `icon` in
    /// site.yml alone (every size is always made), so a page's key needs nothing more than the
    /// settings its context already holds.
    let iconLinks: [IconLinkView]
    /// `og:locale`: the site's language as Open Graph writes it (`pt_BR`), made once.
    let openGraphLocale: String

    /// - Parameter pageCount: the site's pages, which size the search index (`SearchIndex.Layout`).
    init(input: RenderInput, links: MarkdownLinks? = nil, pageCount: Int = 0) {
        self.input = input
        self.links = links
        self.pageCount = pageCount
        self.urls = SiteURLs(baseURL: input.config.baseURL)
        self.paginator = Paginator(pageSize: input.config.pageSize)
        self.dates = LocalDates(language: input.config.language.text, timeZone: input.moment.timeZone)
        self.scriptWords = input.words.json(keys: LayoutView.scriptKeys)
        self.openGraphLocale = input.config.language.text.replacing("-", with: "_")
        let urls = self.urls
        self.iconLinks = input.config.icon.map { icon in
            SiteIcon.sizes.map { size in
                IconLinkView(
                    relation: size.relation, sizes: size.relation == "icon" ? "\(size.side)x\(size.side)" : nil,
                    url: urls.asset(SiteURLs.percentEncoded(SiteIcon.path(of: icon, side: size.side))))
            }
        } ?? []
        self.linker = TextLinker(
            urls: urls, userIDs: Set(input.feeds.usersByID.keys), taggedTags: Set(input.feeds.indexes.tags.map(\.id)))
        markdownDrops =
            links.map { links in
                input.markdownTargets.map { Self.drops(targets: $0, links: links) } ?? Self.drops(Self.markdownTexts(input.feeds).map(\.text), links: links)
            } ?? [:]
    }

    var zone: TimeZone { input.moment.timeZone }

    /// Where the page being built records what it reads (`PageReads.recording`); `nil` outside one.
    var reads: PageReads? { PageReads.current }

    /// A caption or comment as HTML, its `#tags` and `@ids` recorded.
    func linked(_ text: String) -> String { linker.html(text, reads: reads) }

    /// Content Markdown as HTML, with the site's link rule.
    func markdown(_ text: String) -> String { Markdown.html(from: text, links: links) }

    /// Every Markdown text the site shows, with what holds it.
    static func markdownTexts(_ feeds: SiteFeeds) -> [(what: String, text: String, origin: SourceLocation?)] {
        var texts: [(what: String, text: String, origin: SourceLocation?)] = []
        for entry in feeds.journal {
            if let prompt = entry.prompt, let body = prompt.body { texts.append(("prompt '\(prompt.id)'", body, prompt.origin)) }
            for response in feeds.responses[entry.promptID] ?? [] {
                texts.append(("response '\(response.id)'", response.text, response.origin))
            }
        }
        for group in feeds.indexes.users {
            if let user = feeds.usersByID[group.id], let bio = user.bio { texts.append(("user '\(user.id)'", bio, user.origin)) }
        }
        return texts
    }

    /// The targets each text loses, by the text's key (texts that lose none are left out), judged
    /// against this build's files every build, each text parsed on all cores.
    static func drops(_ texts: [String], links: MarkdownLinks) -> [UInt64: [(url: String, reason: String)]] {
        let parsed = Parallel.mapBlocking(texts) { (RenderInput.textKey($0), Markdown.targets(in: $0)) }
        return drops(targets: Dictionary(parsed, uniquingKeysWith: { first, _ in first }), links: links)
    }

    /// The same, from each text's targets as the incremental layer keeps them (`MarkdownStep`):
    /// only the texts with targets can lose one, so only they are looked at.
    static func drops(targets: [UInt64: [String]], links: MarkdownLinks) -> [UInt64: [(url: String, reason: String)]] {
        var drops: [UInt64: [(url: String, reason: String)]] = [:]
        for (key, found) in targets {
            let dropped = Markdown.dropped(found, links: links)
            if !dropped.isEmpty { drops[key] = dropped }
        }
        return drops
    }

    /// The targets `text` loses, as one string for a page key.
    func droppedLinks(in text: String?) -> String {
        // Most sites drop no link: then no text needs hashing to say so.
        guard let text, !markdownDrops.isEmpty, let dropped = markdownDrops[RenderInput.textKey(text)] else { return "" }
        return dropped.map(\.url).joined(separator: "\n")
    }

    /// CONTRACT §6: a build that succeeds passes `check`, so a Markdown target the site cannot keep
    /// is shown as text, and said once per item and target.
    func markdownLinkWarnings() -> [Diagnostic] {
        guard links != nil, !markdownDrops.isEmpty else { return [] }
        return Self.markdownTexts(input.feeds).flatMap { item in
            var seen = Set<String>()
            return (markdownDrops[RenderInput.textKey(item.text)] ?? []).compactMap { dropped -> Diagnostic? in
                guard seen.insert(dropped.url).inserted else { return nil }
                return .warning(
                    "link '\(dropped.url)' in \(item.what) \(dropped.reason); it is shown as plain text",
                    at: item.origin ?? SourceLocation(path: "content"))
            }
        }
    }
    var siteTitle: String { input.config.title }
    var journalFeed: LinkView { LinkView(url: urls.link(SiteURLs.journalFeed), label: words.text("journalFeedTitle", ["site": siteTitle])) }
    var timelineFeed: LinkView { LinkView(url: urls.link(SiteURLs.timelineFeed), label: words.text("timelineFeedTitle", ["site": siteTitle])) }

    /// The theme's words in the site's language (§11).
    var words: ThemeWords { input.words }

    /// `key`'s plural form for `n`, with the number as the site's language writes numbers.
    func count(_ key: String, _ n: Int) -> String { words.count(key, n, written: dates.number(n)) }

    /// The layout's navigation, with the page's own section marked.
    func navigation(current: SiteSection?) -> [LinkView] {
        SiteSection.navigation.map { LinkView(url: urls.link(SiteURLs.section($0.section)), label: words[$0.word], isCurrent: $0.section == current) }
    }

    /// The layout's footer: the indexes and the feeds.
    var footer: [LinkView] {
        [
            LinkView(url: urls.link(SiteURLs.tags), label: words["hashtags"]), LinkView(url: urls.link(SiteURLs.users), label: words["people"]),
            LinkView(url: urls.link(SiteURLs.locations), label: words["places"]),
            LinkView(url: urls.link(SiteURLs.journalFeed), label: words["journalFeed"]),
            LinkView(url: urls.link(SiteURLs.timelineFeed), label: words["timelineFeed"]),
        ]
    }

    func build(_ spec: PageSpec) -> BuiltPage {
        switch spec {
        case .home: home()
        case .notFound:
            BuiltPage(
                bodyTemplate: .notFound, body: PageBodyView(heading: words["notFound"], sections: [], root: urls.root),
                title: "\(words["notFound"]) · \(siteTitle)", bodyClass: "page-404", summary: summary(intro: words["notFoundText"]))
        case .search: search()
        case .list(let list, let number): listPage(list, number)
        case .entry(let index): entryPage(input.feeds.journal[index])
        case .post(let index): postPage(input.feeds.posts[index])
        }
    }

    private func home() -> BuiltPage {
        let feeds = input.feeds
        // site.yml's `description`, else the theme's sentence: under the heading and in the head.
        let homeIntro = input.config.description ?? words["homeIntro"]
        var sections: [SectionView] = []
        if let first = feeds.journal.first {
            let heading = words[first.isToday ? "todaysPrompt" : "latestPrompt"]
            sections.append(
                SectionView(style: "today", heading: heading, headingID: "today", isList: false, items: [entryItem(first, headingLevel: 3, inList: false)]))
        }
        sections.append(
            SectionView(
                style: "links", heading: words["explore"], headingID: "explore", isList: true,
                items: [
                    LinkCardView(title: words["journal"], text: count("entryCount", feeds.journal.count), url: urls.link(SiteURLs.journal)),
                    LinkCardView(title: words["timeline"], text: count("postCount", feeds.timeline.count), url: urls.link(SiteURLs.timeline)),
                    LinkCardView(title: words["hashtags"], text: count("tagCount", feeds.indexes.tags.count), url: urls.link(SiteURLs.tags)),
                    LinkCardView(title: words["people"], text: count("personCount", feeds.indexes.users.count), url: urls.link(SiteURLs.users)),
                    LinkCardView(title: words["places"], text: count("placeCount", feeds.indexes.locations.count), url: urls.link(SiteURLs.locations)),
                    LinkCardView(title: words["search"], text: words["searchCard"], url: urls.link(SiteURLs.search)),
                ]))
        // §13: the posts marked featured, in timeline order, in their own section.
        let featured = feeds.posts.filter(\.isFeatured).map { post in
            var view = postView(post, partial: .postCard, inList: false, lazy: true)
            view.featuredID = post.id
            return view
        }
        if !featured.isEmpty {
            sections.append(
                SectionView(style: "posts", heading: words["featured"], headingID: "featured", isList: true, items: featured, dataSection: "featured"))
        }
        let latest = feeds.timeline.prefix(3).map { postView($0, partial: .postCard, inList: false, lazy: true) }
        if !latest.isEmpty {
            sections.append(
                SectionView(
                    style: "posts", heading: words["latestPhotos"], headingID: "latest", isList: true, items: latest,
                    moreLink: LinkView(url: urls.link(SiteURLs.timeline), label: words["wholeTimeline"])))
        }
        return BuiltPage(
            body: PageBodyView(heading: siteTitle, intro: homeIntro, sections: sections, root: urls.root),
            title: siteTitle, bodyClass: "page-home", current: .home, feeds: [journalFeed, timelineFeed], summary: summary(intro: homeIntro))
    }

    private func search() -> BuiltPage {
        let item = SearchView(
            indexURL: urls.link(SearchIndex.folder), configuration: SearchIndex.Summary(feeds: input.feeds, pages: pageCount).configuration, scriptURL: urls.link(SiteURLs.searchScript),
            links: [
                LinkView(url: urls.link(SiteURLs.users), label: words["allPeople"]),
                LinkView(url: urls.link(SiteURLs.tags), label: words["allHashtags"]),
                LinkView(url: urls.link(SiteURLs.locations), label: words["allPlaces"]),
            ], scriptWords: SearchView.scriptWords(words))
        return BuiltPage(
            body: PageBodyView(
                heading: words["search"], intro: words["searchIntro"], sections: [SectionView(style: "search", isList: false, items: [item])],
                root: urls.root),
            title: "\(words["search"]) · \(siteTitle)", bodyClass: "page-search", current: .search, summary: summary(intro: words["searchIntro"]))
    }

    // MARK: Shared pieces

    func pagination<Item>(_ page: Page<Item>, base: String, previous: String, next: String) -> PaginationView {
        PaginationView(
            number: page.number, count: page.pageCount,
            countLabel: words.text("pageOf", ["number": dates.number(page.number), "total": dates.number(page.pageCount)]),
            previousURL: page.previousNumber.map { urls.link(SiteURLs.listPage(base, $0)) },
            nextURL: page.nextNumber.map { urls.link(SiteURLs.listPage(base, $0)) }, previousLabel: previous, nextLabel: next)
    }

    /// "Journal · Site" on page 1, "Journal, page 2 · Site" after.
    func title(_ name: String, page: Int) -> String {
        page > 1 ? "\(words.text("titleWithPage", ["name": name, "number": dates.number(page)])) · \(siteTitle)" : "\(name) · \(siteTitle)"
    }
}
