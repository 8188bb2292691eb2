import DaybookFeed
import Foundation

/// `search/index.json`: people, hashtags and places with their post counts and page URLs.
///
/// The search page filters this in the browser. It lists groups, not posts, so it stays small
/// (tens of kilobytes at 100,000 posts) and the page links to the group pages for the posts.
struct SearchIndex: Encodable {
    static let path = SiteURLs.searchIndex

    struct Entry: Encodable {
        var name: String
        /// The user id, for people; searched along with the name.
        var id: String?
        var url: String
        var posts: Int
    }

    var users: [Entry]
    var tags: [Entry]
    var locations: [Entry]

    init(indexes: SiteIndexes, urls: SiteURLs) {
        func entries(_ kind: GroupKind, _ groups: [PostGroup], id: (PostGroup) -> String? = { _ in nil }) -> [Entry] {
            groups.map { Entry(name: $0.name, id: id($0), url: urls.link(SiteURLs.group(kind, slug: $0.slug)), posts: $0.posts.count) }
        }
        users = entries(.users, indexes.users, id: { $0.id })
        tags = entries(.tags, indexes.tags)
        locations = entries(.locations, indexes.locations)
    }

    func json() -> [UInt8] {
        let encoder = JSONEncoder()
        // Sorted keys: the same site gives the same bytes.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(self))) ?? Array("{}".utf8)
    }
}
