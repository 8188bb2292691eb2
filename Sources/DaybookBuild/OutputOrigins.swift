import DaybookFeed
import DaybookModel

/// Which content record an output path comes from, so a problem with the path (a name too long
/// for the file system) is reported where the writer can fix it: the post, prompt or user record
/// whose id, tag or place makes the name. Consulted only when such a problem was found.
struct OutputOrigins {
    let site: SiteBuilder.SiteModel

    init(site: SiteBuilder.SiteModel) { self.site = site }

    func origin(of path: String) -> SourceLocation? {
        let names = path.split(separator: "/").map(String.init)
        guard names.count >= 2 else { return nil }
        let (folder, slug) = (names[0], names[1])
        let indexes = site.feeds.indexes
        switch folder {
        case "posts": return site.feeds.posts.first { Slug.make($0.id) == slug }?.origin
        case "journal": return site.feeds.journal.first { Slug.make($0.promptID) == slug }?.prompt?.origin
        case "tags": return indexes.tags.first { $0.slug == slug }?.posts.first?.origin
        case "locations": return indexes.locations.first { $0.slug == slug }?.posts.first?.origin
        case "users":
            guard let group = indexes.users.first(where: { $0.slug == slug }) else { return nil }
            return site.feeds.usersByID[group.id]?.origin ?? group.posts.first?.origin
        default: return path.hasPrefix("images/") ? SourceLocation(path: "content/" + path) : nil
        }
    }
}
