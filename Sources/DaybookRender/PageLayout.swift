import DaybookFeed
import DaybookModel

/// A build's pages in plan order and every path the site publishes, with what they are made of:
/// a long-lived process (`serve`) hands the last build's to the next, which takes them as they
/// were when its pages are the same (after a caption or a body edit, nearly always). Making the
/// 32,000 page paths, and the set of every published path, was a twentieth of a rebuild; the
/// set kept also lets the Markdown memo and the plan's checks see at once that nothing moved.
package struct PageLayout: Sendable {
    /// Everything the plan and the published paths are worked out from.
    struct Shape: Sendable, Equatable {
        var pageSize: Int
        var journal: [String]
        var timelineCount: Int
        /// Each index's groups, as slug and post count, in index order.
        var groups: [[GroupShape]]
        var posts: [String]
        /// The ids of the people with a page, whose feeds are published.
        var userIDs: [String]
        var assetPaths: Set<String>
        /// What the search index's files are laid out by beyond the pages and the groups: its
        /// results (a comment is one) and its journal entries.
        var searchDocuments: Int
        var searchEntries: Int

        init(input: RenderInput) {
            let feeds = input.feeds
            pageSize = input.config.pageSize
            journal = feeds.journal.map(\.promptID)
            timelineCount = feeds.timeline.count
            groups = GroupKind.allCases.map { kind in kind.groups(in: feeds.indexes).map { GroupShape(slug: $0.slug, count: $0.posts.count) } }
            posts = feeds.posts.map(\.id)
            userIDs = feeds.indexes.users.map(\.id)
            assetPaths = input.assetPaths
            searchDocuments = SearchIndex.documentCount(feeds)
            searchEntries = SearchIndex.entryCount(feeds)
        }
    }

    struct GroupShape: Sendable, Equatable {
        var slug: String
        var count: Int
    }

    let shape: Shape
    let plan: SitePlan
    /// The search index's files (`SearchIndex.Layout`), which are among the output paths.
    let search: SearchIndex.Layout
    let outputPaths: [String]
    /// Every path the site publishes: its outputs and the files under `content/`, told apart by
    /// their bytes (`MarkdownLinks`).
    let sitePaths: Set<ExactString>

    /// `previous` when it was made of the same, else worked out anew.
    init(input: RenderInput, reusing previous: PageLayout?) {
        let shape = Shape(input: input)
        if let previous, previous.shape == shape {
            self = previous
            return
        }
        self.shape = shape
        plan = SitePlan(input: input)
        search = SearchIndex.Layout(pages: plan.pages.count, feeds: input.feeds, documents: shape.searchDocuments)
        outputPaths = SiteRenderer.outputPaths(of: plan, search: search, input: input)
        sitePaths = Set(outputPaths.map { ExactString($0) }).union(input.assetPaths.map { ExactString($0) })
    }
}
