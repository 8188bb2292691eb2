import DaybookFeed
import DaybookModel

/// The list of every page of a build with its output path, in a stable order.
struct SitePlan: Sendable {
    var pages: [(spec: PageSpec, path: String)]

    init(input: RenderInput) {
        let paginator = Paginator(pageSize: input.config.pageSize)
        var pages: [(PageSpec, String)] = [(.home, "index.html"), (.notFound, "404.html")]
        for page in 1...paginator.pageCount(for: input.feeds.journal.count) {
            pages.append((.journalList(page: page), SiteURLs.listPage(SiteURLs.journal, page) + "index.html"))
        }
        for (index, entry) in input.feeds.journal.enumerated() {
            pages.append((.entry(index: index), SiteURLs.entry(entry.promptID) + "index.html"))
        }
        for page in 1...paginator.pageCount(for: input.feeds.timeline.count) {
            pages.append((.timelineList(page: page), SiteURLs.listPage(SiteURLs.timeline, page) + "index.html"))
        }
        for (index, post) in input.feeds.posts.enumerated() {
            pages.append((.post(index: index), SiteURLs.post(post.id) + "index.html"))
        }
        self.pages = pages
    }
}
