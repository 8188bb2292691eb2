import DaybookModel

/// A build's two comment orders (by post, and each author's comments feed) as places among its
/// comments, with everything they were made of. `daybook build` keeps them in
/// `.daybook-cache/orders`, and the next build takes them while its comments, its posts and their
/// authors, and its settings are the same, at a "now" that shows the same comments: grouping
/// and sorting 100,000 comments twice was the most of the feeds in a one-post rebuild.
///
/// The comments are named by a key the loader gives (`LoadedSite.commentsKey`: their files' cache
/// keys and the ids they were checked against), not compared one by one: every `daybook build`
/// decodes them afresh. (`serve` keeps the orders themselves in memory, `SiteFeeds.Reuse`.)
package struct CommentOrders: Sendable, Hashable {
    var commentsKey: UInt64
    /// `postsKey(_:)` of the posts the orders were made with.
    var postsKey: UInt64
    var includeFuture: Bool
    var includeDrafts: Bool
    /// The latest comment date at or before "now", and the earliest after it (`SiteFeeds.Reuse`).
    var shownSince: Instant?
    var hiddenFrom: Instant?
    var feedSize: Int
    /// By place in `SiteFeeds.posts`: the places of the post's shown comments, oldest first.
    var byPost: [[Int]]
    /// The authors of shown posts, in the order of `byAuthor`.
    var authors: [String]
    /// By author: the places of the newest shown comments on their posts, newest first.
    var byAuthor: [[Int]]

    /// The posts in order, with their authors, as one digest: the orders group comments by a
    /// post's place and by its author.
    static func postsKey(_ posts: [Post]) -> UInt64 {
        var hash = StableHash()
        hash.combine(posts.count)
        for post in posts {
            hash.combine(post.id)
            hash.combine(post.author)
        }
        return hash.value
    }

    /// Names what the orders hold: orders of equal identity place the same comments under each
    /// post (they are a function of the fields hashed here), so values kept with them hold too
    /// (`KeptVersions`).
    package var identity: UInt64 {
        var hash = StableHash()
        hash.combine("comment-orders")
        hash.combine(bits: commentsKey)
        hash.combine(bits: postsKey)
        hash.combine(includeFuture)
        hash.combine(includeDrafts)
        hash.combine(shownSince)
        hash.combine(hiddenFrom)
        hash.combine(feedSize)
        return hash.value
    }

    /// Whether these orders are the ones this build would make.
    func hold(commentsKey: UInt64, postsKey: UInt64, moment: BuildMoment, feedSize: Int) -> Bool {
        guard self.commentsKey == commentsKey, self.postsKey == postsKey, self.feedSize == feedSize,
            includeFuture == moment.includeFuture, includeDrafts == moment.includeDrafts
        else { return false }
        return moment.includeFuture || SiteFeeds.Reuse.showsSame(at: moment.now, shownSince: shownSince, hiddenFrom: hiddenFrom)
    }

    /// The orders as the feeds hold them, of these comments and posts; `nil` when a place is not
    /// among them (bytes from an untrusted folder that read but do not fit).
    func materialized(comments: [Comment], posts: [Post]) -> (byPost: [String: [Comment]], byAuthor: [String: [Comment]])? {
        // Each group checked where it stands: joining the two lists first copied 21,000 of them.
        let fits = { (group: [Int]) in group.allSatisfy { (0..<comments.count).contains($0) } }
        guard byPost.count == posts.count, byAuthor.count == authors.count, byPost.allSatisfy(fits), byAuthor.allSatisfy(fits)
        else { return nil }
        return (SiteFeeds.keyed(byPost, by: posts.map(\.id), of: comments), SiteFeeds.keyed(byAuthor, by: authors, of: comments))
    }
}

// MARK: - Bytes

extension CommentOrders {
    package static let magic = Array("daybook-orders-1\n".utf8)

    /// For `.daybook-cache/orders`. Places are four bytes each: 200,000 of them on a 20,000-post site.
    package var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.magic
        writer.uint64(commentsKey)
        writer.uint64(postsKey)
        writer.bool(includeFuture)
        writer.bool(includeDrafts)
        writer.instant(shownSince)
        writer.instant(hiddenFrom)
        writer.int(feedSize)
        writer.places(byPost)
        writer.strings(authors)
        writer.places(byAuthor)
        return writer.bytes
    }

    /// Reads `bytes`; `nil` when they do not read whole. The cache folder is untrusted: every
    /// count is bounded by the bytes left.
    package init?(bytes: ArraySlice<UInt8>) {
        guard bytes.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(bytes, at: bytes.startIndex + Self.magic.count)
        guard let commentsKey = reader.uint64(), let postsKey = reader.uint64(), let includeFuture = reader.bool(),
            let includeDrafts = reader.bool(), let shownSince = reader.optionalInstant(), let hiddenFrom = reader.optionalInstant(),
            let feedSize = reader.int(), let byPost = reader.places(), let authors = reader.strings(), let byAuthor = reader.places(),
            reader.atEnd
        else { return nil }
        self.init(
            commentsKey: commentsKey, postsKey: postsKey, includeFuture: includeFuture, includeDrafts: includeDrafts,
            shownSince: shownSince, hiddenFrom: hiddenFrom, feedSize: feedSize, byPost: byPost, authors: authors, byAuthor: byAuthor)
    }
}

extension ByteWriter {
    fileprivate mutating func places(_ groups: [[Int]]) {
        uint32(UInt32(groups.count))
        for group in groups {
            uint32(UInt32(group.count))
            for place in group { uint32(UInt32(place)) }
        }
    }
}

extension ByteReader {
    fileprivate mutating func places() -> [[Int]]? {
        Self.elements(listCount(minimumBytes: 4)) {
            Self.elements(listCount(minimumBytes: 4)) { uint32().map(Int.init) }
        }
    }
}
