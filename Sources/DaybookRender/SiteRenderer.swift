import DaybookFeed
import DaybookMarkdown
import DaybookModel
import DaybookParallel
import Foundation
import Mustache

/// Renders every page of a site through the theme, in parallel, into files in memory.
///
/// No disk is touched: the output writer decides what reaches the output folder, after the
/// whole site rendered without error.
package struct SiteRenderer: Sendable {
    let templates: ThemeTemplates
    let builder: PageBuilder
    /// The pages and published paths, for the next build of a long-lived process.
    package let layout: PageLayout
    var plan: SitePlan { layout.plan }
    /// The theme's fingerprint: part of every page's key.
    let themeFingerprint: UInt64
    /// Post cards already rendered, in this build or (from a long-lived process) an earlier one.
    package let cards: CardStore

    /// - Parameters:
    ///   - cards: the store of a long-lived process (`serve`), whose cards outlive a build; by
    ///     default a new one, for this build alone.
    ///   - layout: the last build's `layout`, from a long-lived process.
    package init(
        templates: ThemeTemplates, input: RenderInput, themeFingerprint: UInt64 = 0, cards: CardStore = CardStore(), layout previous: PageLayout? = nil
    ) {
        self.cards = cards
        var templates = templates
        templates.words = WordsRoot(view: WordsView(words: input.words))
        self.templates = templates
        let layout = PageLayout(input: input, reusing: previous)
        let links = MarkdownLinks(root: SiteURLs(baseURL: input.config.baseURL).root, sitePaths: layout.sitePaths, base: input.config.absoluteBase)
        self.builder = PageBuilder(input: input, links: links, pageCount: layout.plan.pages.count)
        self.layout = layout
        self.themeFingerprint = themeFingerprint
    }

    /// One page of a batch: its key, and its bytes unless the caller could reuse the previous ones.
    package struct PageOutput: Sendable {
        package var path: String
        /// Equal keys mean equal bytes: the key hashes the theme and everything the page's templates read.
        package var key: UInt64
        package var file: RenderedFile?
        /// What the page read, for the next build's triage: what it read before when the page
        /// was kept, the facts when it was built; `nil` for pages built whole every time.
        package var facts: Facts?
        /// The page's shape (`FactVersions.shape(of:)`), which with its facts makes a built page's
        /// key (`PageFactTable.Builder.add`); `nil` for pages built whole every time.
        package var shape: UInt64?
        /// The page's place in the plan.
        package var position = 0

        package enum Facts: Sendable {
            /// Kept: it read what the page at this place of the previous table read.
            case kept(previous: Int)
            case read([PageFact])
        }
    }

    /// The output paths of every page, in plan order.
    package var pagePaths: [String] { plan.pages.map(\.path) }
    package var pageCount: Int { plan.pages.count }

    /// Every file the renderer produces: the pages, then the feeds, the sitemap and the search index.
    package var outputPaths: [String] { layout.outputPaths }

    static func outputPaths(of plan: SitePlan, search: SearchIndex.Layout, input: RenderInput) -> [String] {
        plan.pages.map(\.path) + [AtomFeed.journalPath, AtomFeed.timelinePath] + userFeedPaths(input) + search.paths
            + Sitemap.paths(pageCount: plan.pages.count) + (Robots.isWritten(input) ? [Robots.path] : [])
    }

    /// Each person's two feeds, in user-index order: posts, then comments on them.
    static func userFeedPaths(_ input: RenderInput) -> [String] {
        input.feeds.indexes.users.flatMap { [SiteURLs.userFeed($0.id), SiteURLs.userCommentsFeed($0.id)] }
    }

    /// Every Markdown text the site shows (prompt bodies, responses, bios), in page order.
    package static func markdownTexts(of feeds: SiteFeeds) -> [String] { PageBuilder.markdownTexts(feeds).map(\.text) }

    /// Link targets in shown Markdown (prompt bodies, responses, bios) that are shown as text, as
    /// warnings at the item that holds them.
    package func markdownLinkWarnings() -> [Diagnostic] { builder.markdownLinkWarnings() }

    /// Everything search finds, in the index's order, by unit (a person, a post and its
    /// comments, …), and the index's layout: the build makes the files under `search/` of them,
    /// through the incremental layer, which takes a post's results from an earlier build.
    package func searchUnits() -> [SearchUnit] { builder.searchUnits() }
    package func searchCount(_ unit: SearchUnit) -> Int { builder.searchCount(unit) }
    package func searchNames() -> [String: String] { builder.searchNames() }
    package func searchDocuments(of unit: SearchUnit, names: [String: String], _ emit: (SearchDocument) -> Void) {
        builder.documents(of: unit, names: names, emit)
    }
    package var searchLayout: SearchIndex.Layout { layout.search }
    /// The settings the site is rendered with.
    package var config: SiteConfig { builder.input.config }
    /// The build's day in the site's zone.
    package var today: CalendarDay { builder.input.moment.today }

    /// The errors of the links `theme`'s templates write themselves (`TemplateLinks`).
    package func templateLinkProblems(_ theme: Theme) -> [Diagnostic] {
        builder.links.map { TemplateLinks.problems(in: theme, links: $0) } ?? []
    }

    /// How many pages `render(_:keys:reuse:)` is given at once: enough to keep every core busy,
    /// few enough that a 100,000-page site never holds all its pages in memory.
    package static let defaultBatchSize = 1024

    /// Where the pages stand before any is built: those the previous build's facts say are as
    /// they were (`kept`, nothing more to do), and the rest, in plan order.
    package struct Triage: Sendable {
        package var kept: [PageOutput] = []
        package var toRender: [PageToRender] = []
        /// The previous table's facts, versioned in this build, for this build's table.
        package var previousVersions: [UInt64] = []
        /// How many kept pages took the key they had, their facts not hashed again.
        package var keysTaken = 0
        /// Whether the previous table held the plan's pages in order, each found by its place.
        package var byPlace = false
    }

    /// A page to build: its place in the plan.
    package struct PageToRender: Sendable {
        var position: Int
    }

    /// What this build's facts are (`FactVersions`): made once per build, for the pages' keys,
    /// the lists' item versions and the search results'.
    /// - Parameter previous: the `postMemo` of the process's last build (`serve`).
    package func factVersions(previous: FactVersions.PostMemo? = nil) -> FactVersions {
        FactVersions(builder: builder, themeFingerprint: themeFingerprint, previous: previous)
    }

    /// Every page's key from the facts it read in the previous build, on all cores, and whether
    /// `reuse` claims it: a page whose facts are all as they were, whose key is therefore the
    /// one its file was written under, is neither built nor rendered. That is what makes a
    /// rebuild incremental. Pages without facts (new ones, and home, search and 404, which are
    /// built whole to get their key) are built.
    ///
    /// A page of the same shape whose facts' versions are all the previous table's has the key
    /// the table holds for it, unhashed; when the plan has the table's pages in its order, each
    /// is found by its place rather than its path.
    /// - Parameter trusted: whether the output's record is the one written with the previous
    ///   table's keys, and its files are taken to be in place (`serve`, which holds both): a page
    ///   whose key is the table's is then kept without asking `reuse`.
    package func triage(
        previous: PageFactTable?, versions: FactVersions, trusted: Bool = false,
        reuse: @escaping @Sendable (String, UInt64) -> Bool = { _, _ in false }
    ) async -> Triage {
        // Each fact the previous pages read, versioned once: a person is read by thousands of pages.
        let factVersions = previous.map { table in Parallel.mapBlocking(table.facts) { versions.version(of: $0) } } ?? []
        // Which facts moved since the table was made; `nil` when it cannot tell (a table without
        // versions, or another context: the theme, the settings, the day).
        let moved: [Bool]? = previous.flatMap { table in
            guard table.context == versions.context, table.versions.count == factVersions.count else { return nil }
            return zip(table.versions, factVersions).map { $0 != $1 }
        }
        let inOrder = previous?.isInOrder(of: pagePaths) ?? false
        let places = inOrder ? [:] : previous?.places() ?? [:]
        let verdicts = await Parallel.map(Array(plan.pages.indices)) { position -> (kept: PageOutput?, render: PageToRender?, taken: Bool) in
            let page = plan.pages[position]
            guard let previous, let place = inOrder ? position : places[page.path], let shape = versions.shape(of: page.spec) else {
                return (nil, PageToRender(position: position), false)
            }
            let old = previous.pages[place]
            func kept(_ key: UInt64) -> PageOutput {
                PageOutput(path: page.path, key: key, file: nil, facts: .kept(previous: place), shape: shape, position: position)
            }
            if let moved, shape == old.shape, !old.places.contains(where: { moved[Int($0)] }) {
                if trusted || reuse(page.path, old.key) { return (kept(old.key), nil, true) }
                return (nil, PageToRender(position: position), false)
            }
            let key = versions.key(shape: shape, facts: old.places.lazy.map { factVersions[Int($0)] })
            if reuse(page.path, key) { return (kept(key), nil, false) }
            return (nil, PageToRender(position: position), false)
        }
        var triage = Triage()
        triage.kept = verdicts.compactMap(\.kept)
        triage.toRender = verdicts.compactMap(\.render)
        triage.previousVersions = factVersions
        triage.keysTaken = verdicts.count(where: \.taken)
        triage.byPlace = inOrder
        return triage
    }

    /// Builds and renders `pages` on all cores, recording what each read. A page built whole to
    /// get its key (home, search, 404) is not rendered when `reuse` claims that key.
    package func render(
        _ pages: ArraySlice<PageToRender>, versions: FactVersions, reuse: @escaping @Sendable (String, UInt64) -> Bool = { _, _ in false }
    ) async -> [PageOutput] {
        await Parallel.map(Array(pages)) { page in
            let planned = plan.pages[page.position]
            var output = renderPage(planned.spec, path: planned.path, versions: versions, reuse: reuse)
            output.position = page.position
            return output
        }
    }

    /// Lets the card store go of posts the site no longer has, before it is kept (`serve`) or
    /// saved (`daybook build`) for later builds.
    package func releaseGoneCards() {
        let posts = builder.input.feeds.posts
        guard cards.count > posts.count else { return }
        cards.keep(only: posts.map(\.id))
    }

    /// An item of a page as HTML, what it read recorded in `reads`.
    func renderItem(_ item: any ItemView, versions: FactVersions, reads: PageReads) -> String {
        if let reference = item as? PostReference {
            func render(into reads: PageReads) -> String {
                let view = reads.recording { builder.postView(reference.post, partial: reference.partial, inList: reference.inList, lazy: reference.lazy) }
                return templates.render(view, template: view.partial.rawValue)
            }
            // A card is the same on every list that shows it (timeline, tags, place); a photo in a
            // person's grid shows once.
            guard reference.partial == .postCard else { return render(into: reads) }
            let placement = CardStore.Placement(inList: reference.inList, lazy: reference.lazy)
            let card = cards.card(reference.post.id, placement: placement, version: { versions.key(shape: 0, facts: $0) }) {
                let own = PageReads()
                return (render(into: own), own.facts)
            }
            reads.record(card.facts)
            return card.html
        }
        // Built views (the home page's three latest posts) render once per build.
        return templates.render(item, template: item.partial.rawValue)
    }

    /// The feeds, the sitemap and the search index, derived from the same lists as the pages.
    package struct DataFiles: Sendable {
        package var files: [RenderedFile] = []
        /// The key of each person's two feeds, by path.
        package var keys: [String: UInt64] = [:]
        /// Paths `reuse` claimed: left as the previous build wrote them.
        package var reused: [String] = []
    }

    /// The data files; a person's two feeds and the sitemap are rendered only when `reuse` does
    /// not claim their key.
    package func dataFiles(versions: FactVersions, reuse: @escaping @Sendable (String, UInt64) -> Bool = { _, _ in false }) -> DataFiles {
        var data = DataFiles()
        data.files = [
            RenderedFile(path: AtomFeed.journalPath, bytes: Array(builder.journalFeedXML().utf8)),
            RenderedFile(path: AtomFeed.timelinePath, bytes: Array(builder.timelineFeedXML().utf8)),
        ]
        if Robots.isWritten(builder.input) { data.files.append(RenderedFile(path: Robots.path, bytes: Array(Robots.text(urls: builder.urls).utf8))) }
        let perUser = Parallel.mapBlocking(builder.input.feeds.indexes.users) { group in
            let key = versions.userFeedsKey(group)
            let paths = [SiteURLs.userFeed(group.id), SiteURLs.userCommentsFeed(group.id)]
            if paths.allSatisfy({ reuse($0, key) }) { return (paths, key, [RenderedFile]?.none) }
            return (
                paths, key,
                [
                    RenderedFile(path: paths[0], bytes: Array(builder.userFeedXML(group).utf8)),
                    RenderedFile(path: paths[1], bytes: Array(builder.userCommentsFeedXML(group).utf8)),
                ]
            )
        }
        for (paths, key, files) in perUser {
            for path in paths { data.keys[path] = key }
            if let files { data.files += files } else { data.reused += paths }
        }
        // The sitemap changes only when a page comes, goes or changes its date: keyed like a page.
        let paths = pagePaths
        let dates = pageDates
        let sitemapKey = versions.sitemapKey(pagePaths: paths, dates: dates)
        let sitemapPaths = Sitemap.paths(pageCount: paths.count)
        for path in sitemapPaths { data.keys[path] = sitemapKey }
        if sitemapPaths.allSatisfy({ reuse($0, sitemapKey) }) {
            data.reused += sitemapPaths
        } else {
            var lastModified: [String: Instant] = [:]
            for (path, date) in zip(paths, dates) { lastModified[path] = date }
            data.files += Sitemap.render(pagePaths: paths, lastModified: lastModified, urls: builder.urls).map {
                RenderedFile(path: $0.path, bytes: Array($0.text.utf8))
            }
        }
        return data
    }

    /// The date of each page's content, in the order of `pagePaths`: post pages (the post, its
    /// edit, its comments) and journal entry pages (as the journal feed dates them) have one, for
    /// the sitemap's `<lastmod>`. In order rather than by path: the sitemap's key is worked out on
    /// every build, and a dictionary of 32,000 paths for it was a fortieth of a `serve` rebuild.
    var pageDates: [Instant?] {
        let feeds = builder.input.feeds
        let postDates = feeds.postPagesLastChanged
        return plan.pages.map { spec, _ in
            switch spec {
            case .entry(let index): feeds.lastChanged(feeds.journal[index])
            case .post(let index): postDates[index]
            default: nil
            }
        }
    }

    /// Builds and renders one page, recording what it read. Its key hashes those facts' versions
    /// and is made where the facts are filed (`PageFactTable.Builder.add`), each fact versioned
    /// once there rather than once a page here; the writer leaves a file whose bytes are the
    /// same as they were.
    func renderPage(_ spec: PageSpec, path: String, versions: FactVersions, reuse: (String, UInt64) -> Bool) -> PageOutput {
        let shape = versions.shape(of: spec)
        let reads = PageReads()
        let page = shape == nil ? builder.build(spec) : reads.recording { builder.build(spec) }
        var key: UInt64 = 0
        if shape == nil {
            // The few pages without a shape (home, search, 404) are fingerprinted whole, and
            // rendered only when the fingerprint moved.
            // The settings whole, as the other pages' context has them: the layout reads more of
            // them than the page's view shows (the language, and the absolute base of the head's
            // canonical URL).
            var hash = StableHash()
            hash.combine(String(themeFingerprint))
            hash.combine(builder.input.config)
            hash.combine(viewValue: page)
            key = hash.value
            if reuse(path, key) { return PageOutput(path: path, key: key, file: nil) }
        }
        // Items render through their own partials, each seeing only its own fields, the way a list
        // cell configures itself from its model. A post's card is the same on every page that lists
        // it (timeline, tags, author, place), so it is rendered once and reused (`CardStore`).
        // The layout's scripts show words only on a page with a next page to load or a photo grid.
        let scripted = page.body.pagination.map { $0.nextURL != nil } ?? false
            || page.body.sections.contains { section in section.items.contains { $0.partial == .gridPhoto } }
        var pageBody = page.body
        pageBody.sections = pageBody.sections.map { section in
            var section = section
            section.items = section.items.map { PrerenderedItem(html: renderItem($0, versions: versions, reads: reads)) }
            return section
        }
        let facts: PageOutput.Facts? = shape == nil ? nil : .read(reads.facts)
        let body = templates.render(pageBody, template: page.bodyTemplate.rawValue)
        let layout = LayoutView(
            title: page.title, siteTitle: builder.siteTitle, root: builder.urls.root, bodyClass: page.bodyClass,
            navigation: builder.navigation(current: page.current), feeds: page.feeds, footer: builder.footer, body: body,
            lang: builder.input.config.language.text, dir: builder.input.config.language.isRightToLeft ? "rtl" : nil,
            scriptWords: scripted ? builder.scriptWords : nil, head: head(page, path: path), icons: builder.iconLinks)
        let html = templates.renderBytes(layout, template: TemplateName.layout.rawValue)
        return PageOutput(path: path, key: key, file: RenderedFile(path: path, bytes: html), facts: facts, shape: shape)
    }
}

extension SiteRenderer {
    /// A page's `<head>` tags (§12): only with an absolute `baseURL`, since every one of them
    /// is an absolute address or goes with one.
    func head(_ page: BuiltPage, path: String) -> HeadView? {
        let config = builder.input.config
        guard config.absoluteBase != nil else { return nil }
        return HeadView(
            canonical: builder.absolute(SiteURLs.pagePath(ofFile: path)), title: page.title, siteName: builder.siteTitle,
            locale: builder.openGraphLocale, summary: page.summary)
    }
}

/// An item already rendered through its partial, placed in its page as HTML.
struct PrerenderedItem: ItemView {
    var partial: TemplateName { .prerendered }
    var html: String

    static let fields = ViewFieldTable<Self>([.derived("partial") { $0.partial.rawValue }, .stored("html") { $0.html }])
}
