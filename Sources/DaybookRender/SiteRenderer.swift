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
    }

    /// The output paths of every page, in plan order.
    package var pagePaths: [String] { plan.pages.map(\.path) }
    package var pageCount: Int { plan.pages.count }

    /// Every file the renderer produces: the pages, then the feeds, the sitemap and the search index.
    package var outputPaths: [String] { layout.outputPaths }

    static func outputPaths(of plan: SitePlan, search: SearchIndex.Layout, input: RenderInput) -> [String] {
        plan.pages.map(\.path) + [AtomFeed.journalPath, AtomFeed.timelinePath] + userFeedPaths(input) + search.paths
            + Sitemap.paths(pageCount: plan.pages.count)
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

    /// Everything search finds, in the index's order (`SearchDocument`), and the index's layout:
    /// the build makes the files under `search/` of them, through the incremental layer.
    package func searchDocuments() -> [SearchDocument] { builder.searchDocuments() }
    /// The same by unit, for the incremental layer to take a post's results from an earlier build.
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

    /// Where the pages stand before any is built: those whose key the previous build's file
    /// matches (`kept`, nothing more to do), and the rest, in plan order, with their derived keys.
    package struct Triage: Sendable {
        package var kept: [PageOutput] = []
        package var toRender: [PageToRender] = []
        /// Every page's derived key, for the next build of a long-lived process.
        package var derived = DerivedKeys()
    }

    /// A page to build: its place in the plan, and its key unless it is built to get one.
    package struct PageToRender: Sendable {
        var position: Int
        var key: UInt64?
    }

    /// Each page's derived key by its place in the plan (`nil` for a page built to get one), with
    /// the output paths of that plan.
    package struct DerivedKeys: Sendable {
        let outputPaths: [String]
        let keys: [UInt64?]

        init(outputPaths: [String] = [], keys: [UInt64?] = []) { (self.outputPaths, self.keys) = (outputPaths, keys) }

        /// The keys, when derived for this very plan.
        func keys(for layout: PageLayout) -> [UInt64?]? { outputPaths == layout.outputPaths ? keys : nil }
    }

    /// Every page's key, on all cores, and whether `reuse` claims it. Rendering only the rest is
    /// what makes a rebuild incremental. Sorted before any is built, the kept pages need no
    /// batch, and a record carried from the previous build (`OutputWriter.startingRecord`) need
    /// not file them at all: filing 32,000 kept pages one by one was a fifth of a `serve` rebuild's
    /// page loop.
    /// - Parameter recorded: the previous build's `Triage.derived`, given only when the previous
    ///   record holds those very keys and every file it records is in place: then a page whose key
    ///   is the one at its place is kept without asking `reuse`, whose two lookups by path (in
    ///   tables of 34,000) were a third of the triage under `serve`. The keys count only when made
    ///   for this plan: the same output paths, usually the very same array (`PageLayout`).
    package func triage(
        keys: PageKeys, reuse: @escaping @Sendable (String, UInt64) -> Bool = { _, _ in false }, recorded: DerivedKeys? = nil
    ) async -> Triage {
        let known = recorded?.keys(for: layout)
        let verdicts = await Parallel.map(Array(plan.pages.indices)) { position -> (kept: PageOutput?, render: PageToRender?) in
            let page = plan.pages[position]
            let key = keys.key(page.spec)
            if let key, keys.canReuse, !keys.mustRender(page.spec), known.map({ $0[position] == key }) ?? reuse(page.path, key) {
                return (PageOutput(path: page.path, key: key, file: nil), nil)
            }
            return (nil, PageToRender(position: position, key: key))
        }
        var triage = Triage()
        triage.kept = verdicts.compactMap(\.kept)
        triage.toRender = verdicts.compactMap(\.render)
        triage.derived = DerivedKeys(outputPaths: layout.outputPaths, keys: verdicts.map { $0.kept?.key ?? $0.render?.key })
        return triage
    }

    /// Builds and renders `pages` on all cores. A page built to get its key is still reused when
    /// `reuse` claims that key.
    package func render(
        _ pages: ArraySlice<PageToRender>, keys: PageKeys, reuse: @escaping @Sendable (String, UInt64) -> Bool = { _, _ in false }
    ) async -> [PageOutput] {
        await Parallel.map(Array(pages)) { page in
            let planned = plan.pages[page.position]
            return renderPage(planned.spec, path: planned.path, key: page.key, keys: keys, reuse: reuse)
        }
    }

    /// Lets the card store go of posts the site no longer has, before it is kept (`serve`) or
    /// saved (`daybook build`) for later builds.
    package func releaseGoneCards() {
        let posts = builder.input.feeds.posts
        guard cards.count > posts.count else { return }
        cards.keep(only: posts.map(\.id))
    }

    /// The keys of this build's pages; `previousLinkTargets` is what the previous build's record
    /// holds under `PageKeys.linkTargetsList` (`nil` when it holds nothing).
    /// - Parameter memo: the previous build's `PageKeys.memo`, from a long-lived process (`serve`).
    /// - Parameters:
    ///   - kept: the versions an earlier `daybook build` kept (`KeptVersions`).
    ///   - keepsVersions: whether the keys make the versions to keep (`PageKeys.keptVersions`).
    package func keys(
        previousLinkTargets: [String]?, memo: PostVersionMemo? = nil, forNextBuild: Bool = true, kept: KeptVersions? = nil, keepsVersions: Bool = false
    ) -> PageKeys {
        PageKeys(
            builder: builder, themeFingerprint: themeFingerprint, previousLinkTargets: previousLinkTargets, memo: memo, forNextBuild: forNextBuild,
            kept: kept, keepsVersions: keepsVersions)
    }

    /// The targets to record for the next build's `keys(previousLinkTargets:)`.
    package var linkTargets: [String] { PageKeys.linkTargets(of: builder) }

    func renderItem(_ item: any ItemView, keys: PageKeys) -> String {
        if let reference = item as? PostReference {
            func render() -> String {
                let view = builder.postView(reference.post, partial: reference.partial, inList: reference.inList, lazy: reference.lazy)
                return templates.render(view, template: view.partial.rawValue)
            }
            // A card is the same on every list that shows it (timeline, tags, place); a photo in a
            // person's grid shows once.
            guard reference.partial == .postCard, let version = keys.cardVersion(reference.post) else { return render() }
            let placement = CardStore.Placement(inList: reference.inList, lazy: reference.lazy)
            return cards.html(reference.post.id, version: version, placement: placement, make: render)
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
    package func dataFiles(keys: PageKeys, reuse: @escaping @Sendable (String, UInt64) -> Bool = { _, _ in false }) -> DataFiles {
        var data = DataFiles()
        data.files = [
            RenderedFile(path: AtomFeed.journalPath, bytes: Array(builder.journalFeedXML().utf8)),
            RenderedFile(path: AtomFeed.timelinePath, bytes: Array(builder.timelineFeedXML().utf8)),
        ]
        let perUser = Parallel.mapBlocking(builder.input.feeds.indexes.users) { group in
            let key = keys.userFeedsKey(group)
            let paths = [SiteURLs.userFeed(group.id), SiteURLs.userCommentsFeed(group.id)]
            if keys.canReuse && paths.allSatisfy({ reuse($0, key) }) { return (paths, key, [RenderedFile]?.none) }
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
        let sitemapKey = keys.sitemapKey(pagePaths: paths, dates: dates)
        let sitemapPaths = Sitemap.paths(pageCount: paths.count)
        for path in sitemapPaths { data.keys[path] = sitemapKey }
        if keys.canReuse && sitemapPaths.allSatisfy({ reuse($0, sitemapKey) }) {
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
        return plan.pages.map { spec, _ in
            switch spec {
            case .entry(let index): feeds.lastChanged(feeds.journal[index])
            case .post(let index): feeds.pageLastChanged(feeds.posts[index])
            default: nil
            }
        }
    }

    /// - Parameter key: the page's derived key, `nil` for a page built to get its key.
    func renderPage(_ spec: PageSpec, path: String, key derivedKey: UInt64?, keys: PageKeys, reuse: (String, UInt64) -> Bool) -> PageOutput {
        var built: BuiltPage?
        let key: UInt64
        if let derived = derivedKey {
            key = derived
        } else {
            // The few pages without a derived key are built to be fingerprinted.
            let page = builder.build(spec)
            var hash = StableHash()
            hash.combine(String(themeFingerprint))
            hash.combine(builder.siteTitle)
            hash.combine(builder.urls.root)
            hash.combine(viewValue: page)
            key = hash.value
            built = page
        }
        if keys.canReuse && !keys.mustRender(spec) && reuse(path, key) { return PageOutput(path: path, key: key, file: nil) }
        let page = built ?? builder.build(spec)
        // Items render through their own partials, each seeing only its own fields, the way a list
        // cell configures itself from its model. A post's card is the same on every page that lists
        // it (timeline, tags, author, place), so it is rendered once and reused (`CardStore`).
        var pageBody = page.body
        pageBody.sections = pageBody.sections.map { section in
            var section = section
            section.items = section.items.map { PrerenderedItem(html: renderItem($0, keys: keys)) }
            return section
        }
        let body = templates.render(pageBody, template: page.bodyTemplate.rawValue)
        let layout = LayoutView(
            title: page.title, siteTitle: builder.siteTitle, root: builder.urls.root, bodyClass: page.bodyClass,
            navigation: builder.navigation(current: page.current), feeds: page.feeds, footer: builder.footer, body: body)
        let html = templates.renderBytes(layout, template: TemplateName.layout.rawValue)
        return PageOutput(path: path, key: key, file: RenderedFile(path: path, bytes: html))
    }
}

/// An item already rendered through its partial, placed in its page as HTML.
struct PrerenderedItem: ItemView {
    var partial: TemplateName { .prerendered }
    var html: String

    static let fields = ViewFieldTable<Self>([.derived("partial") { $0.partial.rawValue }, .stored("html") { $0.html }])
}
