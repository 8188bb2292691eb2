import DaybookFeed
import DaybookModel

/// Every page of a build with its output path, in a stable order: what the sitemap lists and
/// what the renderer draws.
struct SitePlan: Sendable {
    var pages: [(spec: PageSpec, path: String)]

    init(input: RenderInput) {
        let paginator = Paginator(pageSize: input.config.pageSize)
        let feeds = input.feeds
        var pages: [(PageSpec, String)] = [(.home, "index.html"), (.notFound, "404.html"), (.search, "search/index.html")]
        func list(_ base: String, count: Int, _ spec: (Int) -> PageSpec) {
            for page in 1...paginator.pageCount(for: count) {
                pages.append((spec(page), SiteURLs.listPage(base, page) + "index.html"))
            }
        }
        list(SiteURLs.journal, count: feeds.journal.count) { .journalList(page: $0) }
        for (index, entry) in feeds.journal.enumerated() {
            pages.append((.entry(index: index), SiteURLs.entry(entry.promptID) + "index.html"))
        }
        list(SiteURLs.timeline, count: feeds.timeline.count) { .postList(.timeline, page: $0) }
        for (index, post) in feeds.posts.enumerated() {
            pages.append((.post(index: index), SiteURLs.post(post.id) + "index.html"))
        }
        let indexes = feeds.indexes
        list(SiteURLs.tags, count: indexes.tags.count) { .groupIndex(.tags, page: $0) }
        for (index, group) in indexes.tags.enumerated() {
            list("tags/\(group.slug)/", count: group.posts.count) { .postList(.tag(index: index), page: $0) }
        }
        list(SiteURLs.users, count: indexes.users.count) { .groupIndex(.users, page: $0) }
        for (index, group) in indexes.users.enumerated() {
            list("users/\(group.slug)/", count: group.posts.count) { .postList(.user(index: index), page: $0) }
        }
        list(SiteURLs.locations, count: indexes.locations.count) { .groupIndex(.locations, page: $0) }
        for (index, group) in indexes.locations.enumerated() {
            list("locations/\(group.slug)/", count: group.posts.count) { .postList(.location(index: index), page: $0) }
        }
        self.pages = pages
    }
}
