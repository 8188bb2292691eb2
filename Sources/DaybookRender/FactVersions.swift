import DaybookFeed
import DaybookModel
import DaybookParallel

/// What each fact a page can read (`PageFact`) is in this build, as a version: equal versions mean
/// the builder reads the same there. A page's key hashes the build's context, the page's shape and
/// the versions of the facts it read; a later build recomputes that key from the facts the page
/// read before, and builds the page again only when it moved, the way a list view reloads only
/// the cells a batch update names.
///
/// Each version reads only what the builder's own function for that fact reads: `PageBuilder`
/// records `.post` where it makes a card, `.person` where it names an author, and so on. Facts
/// are what the builder reads of the feeds; the site-wide settings, the theme and the day are in
/// the context, and a list page's items in its shape (`shape(of:)`).
package final class FactVersions: Sendable {
    let builder: PageBuilder
    /// A hash of what every page reads: the theme, the settings, the root URL, the day and the
    /// build's flags.
    package let context: UInt64
    private let entriesByID: [String: JournalEntry]
    /// The versions most asked for, worked out once, on all cores: a page's key reads thirty
    /// facts, and a full build keys 32,000 pages.
    private let images: [String: UInt64]
    private let entries: [String: UInt64]
    private let profiles: [String: UInt64]
    /// Each person's `.person` version: 100,000 comments name 1,000 people.
    private let people: [String: UInt64]
    /// Each post's versions, worked out once: the lists, the search results, a person's feeds and
    /// the pages all ask for them, 20,000 posts with 100,000 comments.
    private let posts: [String: PostVersions]
    /// Each post's versions with the values they were made of, for the next build of the process.
    package let postMemo: PostMemo

    fileprivate struct PostVersions: Sendable {
        var post: UInt64
        var comments: UInt64
        /// `itemVersion(ofPost:)`.
        var item: UInt64
    }

    /// Each post's versions with the values they were made of, which `serve` holds from one build
    /// to the next: a post at the same place in the feeds whose comments are the very values they
    /// were made of, whose post is of the same content, and whose place slug and hashtags are
    /// equal keeps its versions while no person's or photo's version moved, its comments not read
    /// again. Reading 100,000 comments and their authors' versions was four fifths of a preview
    /// rebuild's versions.
    package struct PostMemo: Sendable {
        fileprivate var made: [MadeVersions] = []
        fileprivate var people: [String: UInt64] = [:]
        fileprivate var images: [String: UInt64] = [:]
        /// The versions by post id, as `FactVersions.posts` held them.
        fileprivate var byID: [String: PostVersions] = [:]

        fileprivate init(made: [MadeVersions], people: [String: UInt64], images: [String: UInt64], byID: [String: PostVersions]) {
            (self.made, self.people, self.images, self.byID) = (made, people, images, byID)
        }

        /// How many posts' versions the build that made it took from the memo before it.
        package fileprivate(set) var reused = 0
    }

    /// A post's versions and what they were made of, held by reference.
    fileprivate struct MadeVersions: Sendable {
        var post: Post
        var comments: [Comment]
        var slug: String?
        var tags: [String]
        var versions: PostVersions

        /// Whether the versions are those of these values: the comments the very values (held
        /// here, their buffer cannot be another's), the post of the same content (the same value,
        /// its key kept in its box, or a `posts.json` read again after one post's edit), the slug
        /// and hashtags equal.
        func isMade(of post: Post, comments: [Comment], slug: String?, tags: [String]) -> Bool {
            guard comments.count == self.comments.count, slug == self.slug, tags == self.tags, post.contentKey == self.post.contentKey
            else { return false }
            return comments.isEmpty
                || comments.withUnsafeBufferPointer { new in self.comments.withUnsafeBufferPointer { $0.baseAddress == new.baseAddress } }
        }
    }

    /// - Parameter previous: the `postMemo` of the process's last build (`serve`).
    init(builder: PageBuilder, themeFingerprint: UInt64, previous: PostMemo? = nil) {
        self.builder = builder
        var hash = StableHash()
        hash.combine("daybook-page-facts-1")
        hash.combine(String(themeFingerprint))
        hash.combine(builder.input.config)
        hash.combine(builder.urls.root)
        hash.combine(builder.input.moment.today)
        hash.combine(builder.input.moment.includeFuture)
        hash.combine(builder.input.moment.includeDrafts)
        context = hash.value
        let feeds = builder.input.feeds
        entriesByID = Dictionary(feeds.journal.map { ($0.promptID, $0) }, uniquingKeysWith: { first, _ in first })
        let people = Dictionary(uniqueKeysWithValues: feeds.usersByID.keys.map { ($0, Self.personVersion($0, feeds: feeds)) })
        self.people = people
        let input = builder.input
        let references = Array(Set(input.imageSizes.keys).union(input.images.keys))
        let images = Dictionary(uniqueKeysWithValues: zip(references, Parallel.mapBlocking(references) { Self.imageVersion($0, input: input) }))
        self.images = images
        let reusable = previous.flatMap { $0.people == people && $0.images == images ? $0.made : nil } ?? []
        let made = Parallel.mapBlocking(Array(feeds.posts.indices)) { position -> (made: MadeVersions, reused: Bool) in
            let post = feeds.posts[position]
            let comments = feeds.comments[post.id] ?? []
            let slug = feeds.indexes.locationSlugs[post.id]
            let tags = feeds.postTags[post.id] ?? post.tags
            if position < reusable.count, reusable[position].isMade(of: post, comments: comments, slug: slug, tags: tags) {
                var made = reusable[position]
                made.post = post
                return (made, true)
            }
            var hash = Self.hash(.post(post.id))
            hash.combine(post)
            hash.combine(comments.count)
            hash.combine(slug)
            for tag in tags { hash.combine(tag) }
            let postVersion = hash.value
            hash = Self.hash(.comments(post.id))
            hash.combine(comments.count)
            for comment in comments { hash.combine(comment) }
            let commentsVersion = hash.value
            // The post's page reads these of it: the post, its comments, its author and theirs, its photo.
            hash = StableHash()
            hash.combine(bits: postVersion)
            hash.combine(bits: commentsVersion)
            hash.combine(bits: people[post.author] ?? Self.personVersion(post.author, feeds: feeds))
            if let image = post.image { hash.combine(bits: images[image] ?? Self.imageVersion(image, input: input)) }
            for comment in comments { hash.combine(bits: people[comment.author] ?? Self.personVersion(comment.author, feeds: feeds)) }
            let versions = PostVersions(post: postVersion, comments: commentsVersion, item: hash.value)
            return (MadeVersions(post: post, comments: comments, slug: slug, tags: tags, versions: versions), false)
        }
        let posts = Self.byID(made, previous: previous, reusable: reusable.count)
        self.posts = posts
        var memo = PostMemo(made: made.map(\.made), people: people, images: images, byID: posts)
        memo.reused = made.count(where: \.reused)
        postMemo = memo
        let entriesByID = self.entriesByID
        let ids = Array(entriesByID.keys)
        entries = Dictionary(uniqueKeysWithValues: zip(ids, Parallel.mapBlocking(ids) { Self.made(.entry($0), builder: builder, entries: entriesByID) }))
        profiles = Dictionary(uniqueKeysWithValues: feeds.usersByID.keys.map { ($0, Self.made(.profile($0), builder: builder, entries: [:])) })
    }

    /// Each post's versions by its id. The last build's table, with only the posts not reused
    /// set again, while every post is at the place of a post of the same id: hashing and filing
    /// 20,000 ids was 10 ms of a preview rebuild, on one core. (A reused post's id is the last
    /// build's at its place: the same content.)
    private static func byID(_ made: [(made: MadeVersions, reused: Bool)], previous: PostMemo?, reusable: Int) -> [String: PostVersions] {
        if let previous, reusable == made.count, previous.byID.count == made.count,
            made.indices.allSatisfy({ made[$0].reused || previous.made[$0].post.id == made[$0].made.post.id })
        {
            var byID = previous.byID
            for entry in made where !entry.reused { byID[entry.made.post.id] = entry.made.versions }
            return byID
        }
        return Dictionary(made.map { ($0.made.post.id, $0.made.versions) }, uniquingKeysWith: { first, _ in first })
    }

    /// The start of a fact's version: its kind and name.
    private static func hash(_ fact: PageFact) -> StableHash {
        var hash = StableHash()
        hash.combine(bits: UInt64(fact.kind))
        hash.combine(fact.name)
        return hash
    }

    private static func imageVersion(_ reference: String, input: RenderInput) -> UInt64 {
        var hash = Self.hash(.image(reference))
        let size = input.imageSizes[reference]
        hash.combine(size?.width ?? -1)
        hash.combine(size?.height ?? -1)
        guard let responsive = input.images[reference] else {
            hash.combine("\u{0}plain")
            return hash.value
        }
        hash.combine(responsive.size.width)
        hash.combine(responsive.size.height)
        for copy in responsive.copies + [responsive.thumbnail, responsive.share].compactMap({ $0 }) {
            hash.combine(copy.path)
            hash.combine(copy.width)
            hash.combine(copy.height)
        }
        hash.combine(responsive.thumbnail != nil)
        hash.combine(responsive.share != nil)
        hash.combine(responsive.dominantColor)
        return hash.value
    }

    private static func personVersion(_ id: String, feeds: SiteFeeds) -> UInt64 {
        var hash = Self.hash(.person(id))
        let user = feeds.usersByID[id]
        hash.combine(user != nil)
        hash.combine(user?.displayName)
        hash.combine(user?.avatar)
        hash.combine(user?.lang)
        return hash.value
    }

    /// The fact's version in this build; a fact about something the site no longer has has one too.
    /// It names its fact, so that equal keys mean the same facts at the same versions even when a
    /// page's recorded facts and its file's key came from different builds.
    package func version(of fact: PageFact) -> UInt64 {
        let known: UInt64? =
            switch fact {
            case .person(let id): people[id]
            case .post(let id): posts[id]?.post
            case .comments(let id): posts[id]?.comments
            case .image(let reference): images[reference]
            case .entry(let id): entries[id]
            case .profile(let id): profiles[id]
            case .neighbours, .linkTarget: nil
            }
        return known ?? Self.made(fact, builder: builder, entries: entriesByID)
    }

    /// A fact's version worked out from the feeds.
    private static func made(_ fact: PageFact, builder: PageBuilder, entries entriesByID: [String: JournalEntry]) -> UInt64 {
        let feeds = builder.input.feeds
        var hash = Self.hash(fact)
        switch fact {
        case .person(let id):
            return personVersion(id, feeds: feeds)
        case .post, .comments:
            // A post the site no longer has is its name alone.
            return hash.value
        case .image(let reference):
            return imageVersion(reference, input: builder.input)
        case .neighbours(let id):
            let neighbours = feeds.authorNeighbours[id]
            hash.combine(neighbours?.newer)
            hash.combine(neighbours?.older)
        case .profile(let id):
            guard let user = feeds.usersByID[id] else { return hash.value }
            hash.combine(user)
            hash.combine(builder.droppedLinks(in: user.bio))
            for follower in feeds.followers[id] ?? [] { hash.combine(follower) }
            // Its suggestions (§13) are made of the follows of its follows.
            for suggestion in builder.suggestedPeople(for: id) {
                hash.combine(suggestion.id)
                suggestion.followedBy.forEach { hash.combine($0) }
            }
        case .entry(let id):
            guard let entry = entriesByID[id] else { return hash.value }
            hash.combine(entry.isToday)
            hash.combine(entry.sentAt)
            hash.combine(entry.sentPromptID)
            if let prompt = entry.prompt {
                hash.combine(prompt)
                hash.combine(builder.droppedLinks(in: prompt.body))
            } else {
                hash.combine("\u{0}skeleton")
            }
            let responses = feeds.responses[id] ?? []
            hash.combine(responses.count)
            for response in responses {
                hash.combine(response)
                hash.combine(builder.droppedLinks(in: response.text))
            }
        case .linkTarget(let target):
            let name = String(target.dropFirst())
            hash.combine(target.first == "#" ? builder.linker.taggedTags.contains(name) : builder.linker.userIDs.contains(name))
        }
        return hash.value
    }

    /// The key of a page of this shape that read `facts`, whose versions `version` gives.
    package func key(shape: UInt64, facts: some Sequence<UInt64>) -> UInt64 {
        var hash = StableHash()
        hash.combine(bits: context)
        hash.combine(bits: shape)
        for version in facts { hash.combine(bits: version) }
        return hash.value
    }

    /// The key of a page of this shape that read `facts`, each versioned now.
    package func key(shape: UInt64, facts: [PageFact]) -> UInt64 {
        key(shape: shape, facts: facts.lazy.map(version(of:)))
    }

    /// A post as the lists' change report and its search results see it: the facts its page
    /// reads of it (the post, its comments, its author and theirs, its photo).
    package func itemVersion(ofPost id: String) -> UInt64 {
        posts[id]?.item ?? Self.hash(.post(id)).value
    }

    /// Every post's `itemVersion(ofPost:)`, by id, as worked out once.
    package var postItemVersions: [String: UInt64] { posts.mapValues(\.item) }

    /// A person as their search results see them: their record and their avatar.
    package func itemVersion(ofPerson id: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(bits: version(of: .person(id)))
        hash.combine(bits: version(of: .profile(id)))
        if let avatar = builder.input.feeds.usersByID[id]?.avatar { hash.combine(bits: version(of: .image(avatar))) }
        return hash.value
    }

    /// The key of a person's two feeds: what `userFeedXML` and `userCommentsFeedXML` read.
    func userFeedsKey(_ group: PostGroup) -> UInt64 {
        let feeds = builder.input.feeds
        let size = builder.input.config.feedSize
        var hash = StableHash()
        hash.combine(bits: context)
        hash.combine("user feeds")
        hash.combine(group.id)
        hash.combine(group.name)
        let posts = group.posts.prefix(size)
        let comments = (feeds.commentsOnPostsBy[group.id] ?? []).prefix(size)
        for post in posts { hash.combine(bits: itemVersion(ofPost: post.id)) }
        hash.combine("comments")
        for comment in comments {
            hash.combine(comment.id)
            hash.combine(comment.postID)
            hash.combine(bits: itemVersion(ofPost: comment.postID))
        }
        // An empty feed is dated by the build's "now".
        if posts.isEmpty || comments.isEmpty { hash.combine(builder.input.moment.now) }
        return hash.value
    }

    /// The key of the sitemap files: every page's path and date, in order.
    func sitemapKey(pagePaths: [String], dates: [Instant?]) -> UInt64 {
        var hash = StableHash()
        hash.combine(bits: context)
        hash.combine("sitemap")
        for (path, date) in zip(pagePaths, dates) {
            hash.combine(path)
            hash.combine(date)
        }
        return hash.value
    }

    /// What a page is before it reads anything: which page, and for a list page which items it
    /// holds, in order. `nil` for the pages built whole to get their key (home, search, 404).
    func shape(of spec: PageSpec) -> UInt64? {
        let feeds = builder.input.feeds
        var hash = StableHash()
        switch spec {
        case .home, .notFound, .search:
            return nil
        case .entry(let index):
            hash.combine("entry")
            hash.combine(feeds.journal[index].promptID)
        case .post(let index):
            hash.combine("post")
            hash.combine(feeds.posts[index].id)
        case .list(let list, let number):
            hash.combine("list")
            hash.combine(list.base(in: feeds))
            let count = list.count(in: feeds)
            let page = builder.paginator.page(number, count: count) { Array($0) }
            hash.combine(number)
            hash.combine(page.pageCount)
            hash.combine(count)
            func posts(_ posts: [Post]) { for position in page.items { hash.combine(posts[position].id) } }
            switch list {
            case .journal:
                for position in page.items { hash.combine(feeds.journal[position].promptID) }
            case .timeline:
                posts(feeds.timeline)
            case .index(let kind):
                let groups = kind.groups(in: feeds.indexes)
                for position in page.items {
                    let group = groups[position]
                    for field in [group.id, group.name, group.slug] { hash.combine(field) }
                    hash.combine(group.posts.count)
                }
            case .group(let kind, let index):
                let group = kind.groups(in: feeds.indexes)[index]
                hash.combine(group.id)
                hash.combine(group.name)
                posts(group.posts)
            }
        }
        return hash.value
    }
}
