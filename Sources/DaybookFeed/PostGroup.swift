import DaybookModel

/// A named list of posts: one hashtag, one user's posts, or one location.
///
/// Each group is a slice of the one timeline order, so tag, user and location pages share it
/// without re-sorting (CONTRACT §3: "the same order over their own posts").
package struct PostGroup: Sendable, Identifiable {
    /// The tag, the user id, or the location's slug.
    package var id: String
    /// What the index shows: `#tag`'s text, the user's name, the location's listed spelling.
    package var name: String
    /// The page folder under its index (`tags/<slug>/`).
    package var slug: String
    package var posts: [Post]

    package init(id: String, name: String, slug: String, posts: [Post]) {
        self.id = id
        self.name = name
        self.slug = slug
        self.posts = posts
    }
}

/// The tag, user and location indexes of CONTRACT §4, built from the ordered posts in one pass each.
package struct SiteIndexes: Sendable {
    /// Most used first, ties by name.
    package var tags: [PostGroup]
    /// Every user by name (the id when unnamed), ties by id; each with their posts.
    package var users: [PostGroup]
    /// Most used first, ties by name; spellings whose slugs are equal are one location.
    package var locations: [PostGroup]
    /// The location slug each post links to, for posts whose location has a page.
    package var locationSlugs: [String: String]
    package var diagnostics: [Diagnostic]
    /// The indexes without their posts: `refilled(with:)` fills them with other posts that sit
    /// as these did.
    package let shape: Shape

    /// Each group with its posts as places in the post order the indexes are made from: the
    /// groups are found and sorted once, over places, and filled with posts last.
    package struct Shape: Sendable, Equatable {
        package var tags: [PlacedGroup] = []
        package var users: [PlacedGroup] = []
        package var locations: [PlacedGroup] = []
        package var locationSlugs: [String: String] = [:]
        package var diagnostics: [Diagnostic] = []

        package init() {}
    }

    /// A group without its posts, and their places.
    package struct PlacedGroup: Sendable, Equatable {
        package var id: String
        package var name: String
        package var slug: String
        package var places: [Int]

        package init(id: String, name: String, slug: String, places: [Int]) {
            (self.id, self.name, self.slug, self.places) = (id, name, slug, places)
        }
    }

    /// `posts` must already be in timeline order; each post is on the pages of its first
    /// `hashtagsPerPost` hashtags only, with a warning at a post that has more, so the tag pages
    /// grow with the content, not with its square. O(p · t + u log u + g log g), t ≤ hashtagsPerPost.
    /// - Parameter tags: each post's `tags`, in `posts`' order, when worked out already.
    package init(posts: [Post], users: [User], hashtagsPerPost: Int = SiteConfig.defaultHashtagsPerPost, tags postTags: [[String]]? = nil) {
        self.init(shape: Self.shape(posts: posts, users: users, hashtagsPerPost: hashtagsPerPost, tags: postTags), posts: posts)
    }

    /// The same indexes over `posts`, which sit in the same groups as the posts these were made
    /// of (the same ids, authors, places and hashtags, in the same order): after a caption edit,
    /// the edited post's groups show it as it is now.
    package func refilled(with posts: [Post]) -> SiteIndexes { SiteIndexes(shape: shape, posts: posts) }

    /// The indexes of `shape` over the `posts` it was made from (or posts that sit as those did);
    /// every place must name one of them (a shape read back is checked as it is read).
    package init(shape: Shape, posts: [Post]) {
        func groups(_ placed: [PlacedGroup]) -> [PostGroup] {
            placed.map { PostGroup(id: $0.id, name: $0.name, slug: $0.slug, posts: $0.places.map { posts[$0] }) }
        }
        (tags, users, locations) = (groups(shape.tags), groups(shape.users), groups(shape.locations))
        (locationSlugs, diagnostics) = (shape.locationSlugs, shape.diagnostics)
        self.shape = shape
    }

    static func shape(posts: [Post], users: [User], hashtagsPerPost: Int, tags postTags: [[String]]?) -> Shape {
        var shape = Shape()
        var tagPlaces: [String: [Int]] = [:]
        for (index, post) in posts.enumerated() {
            let tags = postTags?[index] ?? post.tags
            if tags.count > hashtagsPerPost {
                shape.diagnostics.append(
                    Diagnostic(
                        .tooManyHashtags(post: post.id, count: tags.count, limit: hashtagsPerPost),
                        at: post.origin ?? SourceLocation(path: "content/posts")))
            }
            for tag in tags.prefix(hashtagsPerPost) { tagPlaces[tag, default: []].append(index) }
        }
        shape.tags = byCountThenName(tagPlaces.map { PlacedGroup(id: $0.key, name: $0.key, slug: Slug.make($0.key), places: $0.value) })

        let byAuthor = Dictionary(grouping: posts.indices) { posts[$0].author }
        shape.users = byName(users.map { user in
            PlacedGroup(id: user.id, name: user.displayName, slug: Slug.make(user.id), places: byAuthor[user.id] ?? [])
        })

        // CONTRACT §4: names with equal slugs are one location, listed under the name that sorts first.
        var bySlug: [String: (names: Set<String>, places: [Int])] = [:]
        var warned = Set<String>()
        for (index, post) in posts.enumerated() {
            guard let name = post.location?.name else { continue }
            let slug = Slug.make(name)
            if slug.isEmpty {
                if warned.insert(name).inserted {
                    shape.diagnostics.append(Diagnostic(.locationWithoutSlug(name: name), at: post.origin ?? SourceLocation(path: "content/posts")))
                }
                continue
            }
            bySlug[slug, default: ([], [])].names.insert(name)
            bySlug[slug, default: ([], [])].places.append(index)
            shape.locationSlugs[post.id] = slug
        }
        shape.locations = byCountThenName(bySlug.map { slug, group in
            let listed = group.names.min { a, b in
                let an = a.nfcLowercased
                let bn = b.nfcLowercased
                return an != bn ? an.scalarsPrecede(bn) : a.scalarsPrecede(b)
            }!
            return PlacedGroup(id: slug, name: listed, slug: slug, places: group.places)
        })
        return shape
    }

    /// Index order for tags and locations: most posts first, ties by name (NFC lower case, by
    /// scalars), then by id.
    private static func byCountThenName(_ groups: [PlacedGroup]) -> [PlacedGroup] {
        sorted(groups) { a, b in
            a.group.places.count != b.group.places.count ? a.group.places.count > b.group.places.count
                : a.name != b.name ? a.name.scalarsPrecede(b.name) : a.group.id.scalarsPrecede(b.group.id)
        }
    }

    /// Index order for users: by name (NFC lower case, by scalars), then by id.
    private static func byName(_ groups: [PlacedGroup]) -> [PlacedGroup] {
        sorted(groups) { a, b in a.name != b.name ? a.name.scalarsPrecede(b.name) : a.group.id.scalarsPrecede(b.group.id) }
    }

    /// Sorts with each group's folded name worked out once: folding it in the comparison, as
    /// before, did it 40,000 times for a site's 2,000 tags, a twentieth of a `serve` rebuild.
    private static func sorted(
        _ groups: [PlacedGroup], by precedes: ((group: PlacedGroup, name: String), (group: PlacedGroup, name: String)) -> Bool
    ) -> [PlacedGroup] {
        groups.map { ($0, $0.name.nfcLowercased) }.sorted(by: precedes).map(\.group)
    }
}
