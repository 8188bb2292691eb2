import DaybookModel

/// A named list of posts: one hashtag, one user's posts, or one location.
///
/// Each group is a slice of the one timeline order, so tag, user and location pages share it
/// without re-sorting (CONTRACT §3: "the same order over their own posts").
public struct PostGroup: Sendable, Identifiable {
    /// The tag, the user id, or the location's slug.
    public var id: String
    /// What the index shows: `#tag`'s text, the user's name, the location's listed spelling.
    public var name: String
    /// The page folder under its index (`tags/<slug>/`).
    public var slug: String
    public var posts: [Post]

    public init(id: String, name: String, slug: String, posts: [Post]) {
        self.id = id
        self.name = name
        self.slug = slug
        self.posts = posts
    }

    /// Index order for tags and locations: most posts first, ties by name (NFC lower case, by
    /// scalars), then by id.
    public static func byCountThenName(_ groups: [PostGroup]) -> [PostGroup] {
        sorted(groups) { a, b in
            a.group.posts.count != b.group.posts.count ? a.group.posts.count > b.group.posts.count
                : a.name != b.name ? a.name.scalarsPrecede(b.name) : a.group.id.scalarsPrecede(b.group.id)
        }
    }

    /// Index order for users: by name (NFC lower case, by scalars), then by id.
    public static func byName(_ groups: [PostGroup]) -> [PostGroup] {
        sorted(groups) { a, b in a.name != b.name ? a.name.scalarsPrecede(b.name) : a.group.id.scalarsPrecede(b.group.id) }
    }

    /// Sorts with each group's folded name worked out once: folding it in the comparison, as
    /// before, did it 40,000 times for a site's 2,000 tags, a twentieth of a `serve` rebuild.
    private static func sorted(_ groups: [PostGroup], by precedes: ((group: PostGroup, name: String), (group: PostGroup, name: String)) -> Bool)
        -> [PostGroup]
    {
        groups.map { ($0, $0.name.nfcLowercased) }.sorted(by: precedes).map(\.group)
    }
}

/// The tag, user and location indexes of CONTRACT §4, built from the ordered posts in one pass each.
public struct SiteIndexes: Sendable {
    /// Most used first, ties by name.
    public var tags: [PostGroup]
    /// Every user by name (the id when unnamed), ties by id; each with their posts.
    public var users: [PostGroup]
    /// Most used first, ties by name; spellings whose slugs are equal are one location.
    public var locations: [PostGroup]
    /// The location slug each post links to, for posts whose location has a page.
    public var locationSlugs: [String: String]
    public var diagnostics: [Diagnostic]

    /// `posts` must already be in timeline order; each post is on the pages of its first
    /// `hashtagsPerPost` hashtags only, with a warning at a post that has more, so the tag pages
    /// grow with the content, not with its square. O(p · t + u log u + g log g), t ≤ hashtagsPerPost.
    /// - Parameter tags: each post's `tags`, in `posts`' order, when worked out already.
    public init(posts: [Post], users: [User], hashtagsPerPost: Int = SiteConfig.defaultHashtagsPerPost, tags postTags: [[String]]? = nil) {
        var diagnostics: [Diagnostic] = []

        var tagPosts: [String: [Post]] = [:]
        for (index, post) in posts.enumerated() {
            let tags = postTags?[index] ?? post.tags
            if tags.count > hashtagsPerPost {
                diagnostics.append(
                    .warning(
                        "post '\(post.id)' has \(tags.count.grouped) hashtags; only the first \(hashtagsPerPost) put it on tag pages; remove some, or raise 'hashtags.perPost' in site.yml",
                        at: post.origin ?? SourceLocation(path: "content/posts")))
            }
            for tag in tags.prefix(hashtagsPerPost) { tagPosts[tag, default: []].append(post) }
        }
        tags = PostGroup.byCountThenName(tagPosts.map { PostGroup(id: $0.key, name: $0.key, slug: Slug.make($0.key), posts: $0.value) })

        let postsByAuthor = Dictionary(grouping: posts, by: \.author)
        self.users = PostGroup.byName(users.map { user in
            PostGroup(id: user.id, name: user.displayName, slug: Slug.make(user.id), posts: postsByAuthor[user.id] ?? [])
        })

        // CONTRACT §4: names with equal slugs are one location, listed under the name that sorts first.
        var bySlug: [String: (names: Set<String>, posts: [Post])] = [:]
        var locationSlugs: [String: String] = [:]
        var warned = Set<String>()
        for post in posts {
            guard let name = post.location?.name else { continue }
            let slug = Slug.make(name)
            if slug.isEmpty {
                if warned.insert(name).inserted {
                    diagnostics.append(
                        .warning(
                            "location '\(name)' has no letters or digits to make a page address from; it gets no page",
                            at: post.origin ?? SourceLocation(path: "content/posts")))
                }
                continue
            }
            bySlug[slug, default: ([], [])].names.insert(name)
            bySlug[slug, default: ([], [])].posts.append(post)
            locationSlugs[post.id] = slug
        }
        locations = PostGroup.byCountThenName(bySlug.map { slug, group in
            let listed = group.names.min { a, b in
                let an = a.nfcLowercased
                let bn = b.nfcLowercased
                return an != bn ? an.scalarsPrecede(bn) : a.scalarsPrecede(b)
            }!
            return PostGroup(id: slug, name: listed, slug: slug, posts: group.posts)
        })
        self.locationSlugs = locationSlugs
        self.diagnostics = diagnostics
    }
}
