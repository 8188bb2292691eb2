import DaybookFeed
import DaybookModel

/// Every page of a build with its output path, in a stable order: what the sitemap lists and
/// what the renderer draws.
///
/// The order: home, 404, search; then each list of `SiteList.all` with its pages, the journal
/// followed by its entries' pages and the timeline by every post's page.
struct SitePlan: Sendable {
    var pages: [(spec: PageSpec, path: String)]

    init(input: RenderInput) {
        let paginator = Paginator(pageSize: input.config.pageSize)
        let feeds = input.feeds
        var pages: [(PageSpec, String)] = [
            (.home, SiteURLs.file(SiteURLs.home)), (.notFound, SiteURLs.notFound), (.search, SiteURLs.file(SiteURLs.search)),
        ]
        for list in SiteList.all(in: feeds) {
            for page in 1...paginator.pageCount(for: list.count(in: feeds)) {
                pages.append((.list(list, page: page), SiteURLs.file(SiteURLs.listPage(list.base(in: feeds), page))))
            }
            switch list {
            case .journal:
                for (index, entry) in feeds.journal.enumerated() {
                    pages.append((.entry(index: index), SiteURLs.file(SiteURLs.entry(entry.promptID))))
                }
            case .timeline:
                for (index, post) in feeds.posts.enumerated() {
                    pages.append((.post(index: index), SiteURLs.file(SiteURLs.post(post.id))))
                }
            case .index, .group: break
            }
        }
        self.pages = pages
    }
}
