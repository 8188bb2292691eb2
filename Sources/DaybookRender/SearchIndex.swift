import DaybookFeed
import Foundation

/// `search/index.json`: people, hashtags and places with their post counts and page URLs.
///
/// The search page filters this in the browser. It lists groups, not posts, so it stays small
/// (tens of kilobytes at 100,000 posts) and the page links to the group pages for the posts.
struct SearchIndex: Encodable {
    static let path = "search/index.json"

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
        users = indexes.users.map { Entry(name: $0.name, id: $0.id, url: urls.link(SiteURLs.user($0.id)), posts: $0.posts.count) }
        tags = indexes.tags.map { Entry(name: $0.name, url: urls.link(SiteURLs.tag($0.id)), posts: $0.posts.count) }
        locations = indexes.locations.map { Entry(name: $0.name, url: urls.link(SiteURLs.location($0.slug)), posts: $0.posts.count) }
    }

    func json() -> [UInt8] {
        let encoder = JSONEncoder()
        // Sorted keys: the same site gives the same bytes.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(self))) ?? Array("{}".utf8)
    }
}
