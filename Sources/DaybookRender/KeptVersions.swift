import DaybookModel

/// Each shown post's page version (`PageKeys`, which the lists' snapshots take too), by its place
/// in `SiteFeeds.posts`, with what it was made of, kept by `daybook build` between processes
/// (`.daybook-cache/versions`). Working the versions out for 20,000 posts and their 100,000
/// comments was a tenth of a one-post rebuild's CPU, and `serve`'s memos (`PostVersionMemo`) live
/// in memory only.
///
/// A post's versions read its record, its place's slug, its comments and the people and photos it
/// shows. The comments are named by the comment orders' identity (`RenderInput.ordersIdentity`), which
/// also names the posts in order; the people and the photos are hashed whole into `context`. So a
/// kept entry holds while the context is the same and the post at its place has the same content
/// key and slug: a post's edit works its versions out again, any other change all of them.
package struct KeptVersions: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        var contentKey: UInt64
        /// `StableHash` of the post's location slug (`SiteIndexes.locationSlugs`), 0 for none.
        var slug: UInt64
        var page: UInt64
    }

    var context: UInt64
    var posts: [Entry]

    /// The entry kept for the post at `position`, when it holds for `post` as it is now.
    func entry(at position: Int, for post: Post, slug: UInt64) -> Entry? {
        guard position < posts.count else { return nil }
        let entry = posts[position]
        return entry.contentKey == post.contentKey && entry.slug == slug ? entry : nil
    }

    static func slugHash(_ slug: String?) -> UInt64 {
        guard let slug else { return 0 }
        var hash = StableHash()
        hash.combine(slug)
        return max(hash.value, 1)
    }
}

// MARK: - Bytes

extension KeptVersions {
    package static let magic = Array("daybook-versions-2\n".utf8)

    /// For `.daybook-cache/versions`: 24 bytes a post.
    package var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.magic
        writer.bytes.reserveCapacity(Self.magic.count + 16 + posts.count * 24)
        writer.uint64(context)
        writer.int(posts.count)
        for entry in posts {
            writer.uint64(entry.contentKey)
            writer.uint64(entry.slug)
            writer.uint64(entry.page)
        }
        return writer.bytes
    }

    /// Reads `bytes`; `nil` when they do not read whole. The cache folder is untrusted: the count
    /// is bounded by the bytes left.
    package init?(bytes: ArraySlice<UInt8>) {
        guard bytes.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(bytes, at: bytes.startIndex + Self.magic.count)
        guard let context = reader.uint64(), let count = reader.count(), count <= (bytes.endIndex - reader.index) / 24 else { return nil }
        var posts: [Entry] = []
        posts.reserveCapacity(count)
        for _ in 0..<count {
            guard let contentKey = reader.uint64(), let slug = reader.uint64(), let page = reader.uint64() else { return nil }
            posts.append(Entry(contentKey: contentKey, slug: slug, page: page))
        }
        guard reader.atEnd else { return nil }
        self.init(context: context, posts: posts)
    }
}
