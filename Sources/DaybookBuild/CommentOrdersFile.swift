import DaybookFeed
import Foundation

/// `<site>/.daybook-cache/orders`: the comment orders of the last `daybook build` (`CommentOrders`).
enum CommentOrdersFile {
    static let name = "orders"

    /// No file larger than this is read: a 100,000-post site's orders take about 5 MB.
    static let maxBytes = 256 << 20

    static func read(site: URL) -> CommentOrders? {
        CacheFile.read(site: site, name: name, maxBytes: maxBytes).flatMap { CommentOrders(bytes: $0) }
    }

    static func save(_ orders: CommentOrders, site: URL) {
        let bytes = orders.bytes
        CacheFile.save(site: site, name: name) { $0(bytes[...]) }
    }
}
