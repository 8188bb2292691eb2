import DaybookFeed
import DaybookModel
import DaybookParallel

/// Each page's key, derived from the ordered lists and the versions of the items a page shows,
/// without building its view model: a rebuild after a one-post edit builds and renders only the
/// pages whose key moved, the way a list view reloads only the cells a batch update names.
///
/// Equal keys must mean equal bytes. A key therefore hashes the site-wide context (theme,
/// settings, the day, the root URL) and every model its page's view model is built from; the
/// functions here follow `PageBuilder`'s, page by page. Two inputs are site-wide sets that a
/// single edit rarely changes, so they are not hashed whole: which files exist (what a Markdown
/// link keeps: each text's dropped links are in its page's key) and which `#tags` and `@users`
/// have a page (what a caption links). A page showing a post whose text names a tag or user
/// that gained or lost its page since the previous build is rendered whatever its key
/// (`mustRender`), so keys stay a function of this build's sources alone and the build record
/// is the same however the folder got here.
///
/// The rule for changing a page: a model's new stored field is caught by `StableHashModelTests`;
/// a view model that starts reading something else (another record, a setting, a count across
/// the site) must add it to the key here, and gets an edit in `IncrementalEquivalenceTests`,
/// which fails on a stale page.
package struct PageKeys: Sendable {
    /// The list in the build record that holds every `#tag` and `@user` a caption or comment can
    /// link to, so the next build can tell which of them changed.
    package static let linkTargetsList = "link-targets"

    let builder: PageBuilder
    let context: UInt64
    /// The context and every `#tag` and `@user` that has a page: all a post card reads beyond its
    /// post's version (`cardVersion`).
    let cardContext: UInt64
    /// Every post's version: what its card and its page show of it, its author and comments.
    package let postVersions: [String: UInt64]
    /// Every journal entry's version, in journal order: what its page and its list item show.
    package let entryVersions: [UInt64]
    /// Posts whose caption or comments name a tag or user that gained or lost its page since the
    /// previous build: their pages are rendered again.
    let relinked: Set<String>
    /// False when the previous build left no link targets to compare with: then no key is trusted.
    let canReuse: Bool

    /// This build's post versions with what each was made of, for the next build of a long-lived
    /// process; `nil` unless asked for (`forNextBuild`).
    package let memo: PostVersionMemo?
    /// What this build's versions are made of beyond each post (`KeptVersions.context`), and each
    /// post's page version and slug by place: for the next `daybook build` to keep. `nil` unless
    /// asked for (`keepsVersions`), or without comment orders to name the comments by.
    private let keeping: (context: UInt64, pages: [UInt64], slugs: [UInt64])?

    /// - Parameters:
    ///   - previousLinkTargets: the previous build's `linkTargets`, `nil` when unknown.
    ///   - memo: the previous build's `memo`, from a long-lived process (`serve`).
    ///   - forNextBuild: whether to make `memo`; the last build of its process (`daybook build`)
    ///     skips it, as holding every post with its comments cost a tenth of the keys.
    ///   - kept: the versions an earlier `daybook build` kept, taken where they hold.
    ///   - keepsVersions: whether to make what `keptVersions()` gives.
    init(
        builder: PageBuilder, themeFingerprint: UInt64, previousLinkTargets: [String]?, memo previous: PostVersionMemo? = nil,
        forNextBuild: Bool = true, kept keptVersions: KeptVersions? = nil, keepsVersions: Bool = false
    ) {
        self.builder = builder
        var hash = StableHash()
        hash.combine("daybook-page-keys-4")
        hash.combine(String(themeFingerprint))
        hash.combine(builder.input.config)
        hash.combine(builder.urls.root)
        hash.combine(builder.input.moment.today)
        hash.combine(builder.input.moment.includeFuture)
        hash.combine(builder.input.moment.includeDrafts)
        context = hash.value
        canReuse = previousLinkTargets != nil
        let targets = Self.linkTargets(of: builder)
        // A card kept across builds (`CardStore`) links a caption's tags and mentions as this set
        // had them; a tag that gains its first page changes the card without changing its post.
        var cardHash = StableHash()
        cardHash.combine(bits: context)
        cardHash.combine("cards")
        targets.forEach { cardHash.combine($0) }
        cardContext = cardHash.value
        // Without a previous build nothing is reused, so nothing needs the difference.
        let changed = previousLinkTargets.map { Set($0).symmetricDifference(targets) } ?? []
        // What a post's card shows of each person (name, avatar), hashed once per person rather
        // than once per comment: 100,000 comments name 1,000 people.
        var people: [String: UInt64] = [:]
        for id in builder.input.feeds.usersByID.keys {
            var hash = StableHash()
            Self.combine(author: id, builder: builder, into: &hash)
            people[id] = hash.value
        }
        let authors = people
        let input = builder.input
        // A stored version holds only if everything it read beyond its post is as it was.
        let kept = previous.flatMap { $0.people == authors && $0.imageSizes == input.imageSizes && $0.images == input.images ? $0 : nil }
        let posts = input.feeds.posts
        let remembers = previous != nil || forNextBuild
        let keptContext = keptVersions != nil || keepsVersions ? Self.keptContext(builder: builder, people: authors) : nil
        let held = keptVersions.flatMap { $0.context == keptContext && $0.posts.count == posts.count ? $0 : nil }
        let slugs = held != nil || keptContext != nil
        typealias Versioned = (version: (id: String, inputs: PostVersionMemo.Inputs?, value: UInt64), relinked: Bool, slug: UInt64)
        let versions = Parallel.mapBlocking(Array(posts.indices)) { position -> Versioned in
            let post = posts[position]
            let relinked = Self.names(post, of: changed, builder: builder)
            let slug = slugs ? KeptVersions.slugHash(input.feeds.indexes.locationSlugs[post.id]) : 0
            if let entry = held?.entry(at: position, for: post, slug: slug) { return ((post.id, nil, entry.page), relinked, slug) }
            let inputs = remembers ? PostVersionMemo.Inputs(
                post: post, comments: input.feeds.comments[post.id] ?? [], locationSlug: input.feeds.indexes.locationSlugs[post.id]) : nil
            let version = inputs.flatMap { kept?.versions.value(post.id, inputs: $0, at: position) } ?? Self.postVersion(post, builder: builder, authors: authors)
            return ((post.id, inputs, version), relinked, slug)
        }
        keeping = keepsVersions ? keptContext.map { ($0, versions.map(\.version.value), versions.map(\.slug)) } : nil
        postVersions = Dictionary(versions.map { ($0.version.id, $0.version.value) }, uniquingKeysWith: { first, _ in first })
        relinked = Set(versions.filter(\.relinked).map(\.version.id))
        // An entry's page and its journal item both read it, and prompt bodies and responses are a
        // site's longest texts: hashed once per entry, and (`serve`) only when it changed. A stored
        // version holds while no Markdown link is dropped, before or now: then it reads nothing else.
        let dropsNone = builder.markdownDrops.isEmpty
        let keptEntries = previous.flatMap { $0.entriesDropNone && dropsNone ? $0.entries : nil }
        let journal = input.feeds.journal
        let entries = Parallel.mapBlocking(Array(journal.indices)) { position -> (id: String, inputs: PostVersionMemo.EntryInputs, value: UInt64) in
            let entry = journal[position]
            let inputs = PostVersionMemo.EntryInputs(entry: entry, responses: input.feeds.responses[entry.promptID] ?? [])
            let version = keptEntries?.value(entry.promptID, inputs: inputs, at: position) ?? Self.entryVersion(entry, builder: builder)
            return (entry.promptID, inputs, version)
        }
        entryVersions = entries.map(\.value)
        memo = forNextBuild ? PostVersionMemo(
            people: authors, imageSizes: input.imageSizes, images: input.images,
            versions: InputMemo(versions.compactMap { entry in entry.version.inputs.map { (entry.version.id, $0, entry.version.value) } }),
            entries: InputMemo(entries), entriesDropNone: dropsNone) : nil
    }

    /// What kept versions must have been made of beyond each post (`KeptVersions.context`): the
    /// comment orders' identity, which names every post's comments and the posts in order; every
    /// person as a card shows them; every photo's size and copies. `nil` without comment orders.
    static func keptContext(builder: PageBuilder, people: [String: UInt64]) -> UInt64? {
        guard let orders = builder.input.ordersIdentity else { return nil }
        var hash = StableHash()
        hash.combine("kept-versions-2")
        hash.combine(bits: orders)
        for (id, person) in people.sorted(by: { $0.key < $1.key }) {
            hash.combine(id)
            hash.combine(bits: person)
        }
        for reference in Set(builder.input.imageSizes.keys).union(builder.input.images.keys).sorted() {
            combine(image: reference, builder: builder, into: &hash)
        }
        return hash.value
    }

    /// The versions for the next `daybook build` to keep; `nil` unless asked for, or without
    /// comment orders.
    package func keptVersions() -> KeptVersions? {
        guard let keeping else { return nil }
        let posts = builder.input.feeds.posts
        let entries = posts.indices.map { position in
            KeptVersions.Entry(
                contentKey: posts[position].contentKey, slug: keeping.slugs[position], page: keeping.pages[position])
        }
        return KeptVersions(context: keeping.context, posts: entries)
    }

    /// Each journal entry's version, by prompt id.
    package var entryVersionsByID: [String: UInt64] {
        Dictionary(zip(builder.input.feeds.journal.map(\.promptID), entryVersions), uniquingKeysWith: { first, _ in first })
    }

    /// What a person's search results read of them beyond their group: their record, and their
    /// avatar as the build publishes it.
    package func personVersion(_ id: String) -> UInt64 {
        var hash = StableHash()
        Self.combine(author: id, builder: builder, into: &hash)
        if let user = builder.input.feeds.usersByID[id] { hash.combine(user) }
        return hash.value
    }

    /// `#tag` for each tag with a page, `@id` for each user: what `TextLinker` links.
    static func linkTargets(of builder: PageBuilder) -> [String] {
        builder.linker.taggedTags.map { "#" + $0 }.sorted() + builder.linker.userIDs.map { "@" + $0 }.sorted()
    }

    /// Whether the page must be rendered whatever its key: it shows a relinked post.
    func mustRender(_ spec: PageSpec) -> Bool {
        guard !relinked.isEmpty else { return false }
        let feeds = builder.input.feeds
        switch spec {
        case .home, .notFound, .search, .entry: return false
        case .post(let index): return relinked.contains(feeds.posts[index].id)
        case .list(let list, let number):
            let posts: [Post]
            switch list {
            case .journal, .index: return false
            case .timeline: posts = feeds.timeline
            case .group(let kind, let index): posts = kind.groups(in: feeds.indexes)[index].posts
            }
            let page = builder.paginator.page(number, count: posts.count) { Array($0) }
            return page.items.contains { relinked.contains(posts[$0].id) }
        }
    }

    /// `nil` for the few pages that are built whole to get their key (home, search, 404).
    func key(_ spec: PageSpec) -> UInt64? {
        let feeds = builder.input.feeds
        var hash = StableHash()
        hash.combine(bits: context)
        switch spec {
        case .home, .notFound, .search:
            return nil
        case .entry(let index):
            hash.combine("entry")
            hash.combine(bits: entryVersions[index])
        case .post(let index):
            let post = feeds.posts[index]
            hash.combine("post")
            hash.combine(bits: postVersions[post.id] ?? 0)
            let neighbours = feeds.authorNeighbours[post.id]
            hash.combine(neighbours?.newer)
            hash.combine(neighbours?.older)
        case .list(let list, let number):
            hash.combine("list")
            hash.combine(list.base(in: feeds))
            let count = list.count(in: feeds)
            let page = builder.paginator.page(number, count: count) { Array($0) }
            hash.combine(number)
            hash.combine(page.pageCount)
            hash.combine(count)
            combine(list, positions: page.items, number: number, into: &hash)
        }
        return hash.value
    }

    /// The version a post's card is stored under in a `CardStore`: equal versions mean equal
    /// cards at one placement. `nil` for a post this build has no version of.
    func cardVersion(_ post: Post) -> UInt64? {
        guard let version = postVersions[post.id] else { return nil }
        var hash = StableHash()
        hash.combine(bits: cardContext)
        hash.combine(bits: version)
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
        for post in posts { hash.combine(bits: postVersions[post.id] ?? 0) }
        hash.combine("comments")
        // A comment and what its feed entry shows of its author are in its post's version.
        for comment in comments {
            hash.combine(comment.id)
            hash.combine(comment.postID)
            hash.combine(bits: postVersions[comment.postID] ?? 0)
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

    private func combine(_ list: SiteList, positions: [Int], number: Int, into hash: inout StableHash) {
        let feeds = builder.input.feeds
        func posts(_ posts: [Post]) {
            for position in positions { hash.combine(bits: postVersions[posts[position].id] ?? 0) }
        }
        switch list {
        case .journal:
            for position in positions { hash.combine(bits: entryVersions[position]) }
        case .timeline:
            // The intro names the viewer.
            hash.combine(builder.input.config.timelineViewer.flatMap { feeds.usersByID[$0] }?.displayName)
            posts(feeds.timeline)
        case .index(let kind):
            let groups = kind.groups(in: feeds.indexes)
            for position in positions {
                let group = groups[position]
                for field in [group.id, group.name, group.slug] { hash.combine(field) }
                hash.combine(group.posts.count)
                if kind == .users { combine(author: group.id, into: &hash) }
            }
        case .group(let kind, let index):
            let group = kind.groups(in: feeds.indexes)[index]
            hash.combine(group.id)
            hash.combine(group.name)
            posts(group.posts)
            // A person's first page opens with their profile.
            if kind == .users && number == 1, let user = feeds.usersByID[group.id] {
                hash.combine(user)
                combine(image: user.avatar, into: &hash)
                hash.combine(builder.droppedLinks(in: user.bio))
                for id in user.follows + (feeds.followers[user.id] ?? []) {
                    hash.combine(id)
                    hash.combine(feeds.usersByID[id]?.displayName)
                }
            }
        }
    }

    /// What an entry's page and its list item show: the prompt, its sending, its responses, and
    /// which of their Markdown links are kept.
    static func entryVersion(_ entry: JournalEntry, builder: PageBuilder) -> UInt64 {
        var hash = StableHash()
        hash.combine(entry.promptID)
        hash.combine(entry.isToday)
        hash.combine(entry.sentAt)
        hash.combine(entry.sentPromptID)
        if let prompt = entry.prompt {
            hash.combine(prompt)
            hash.combine(builder.droppedLinks(in: prompt.body))
        } else {
            hash.combine("\u{0}skeleton")
        }
        let responses = builder.input.feeds.responses[entry.promptID] ?? []
        hash.combine(responses.count)
        for response in responses {
            hash.combine(response)
            hash.combine(builder.droppedLinks(in: response.text))
        }
        return hash.value
    }

    private func combine(author id: String, into hash: inout StableHash) {
        Self.combine(author: id, builder: builder, into: &hash)
    }

    private func combine(image reference: String?, into hash: inout StableHash) {
        Self.combine(image: reference, builder: builder, into: &hash)
    }

    /// What `PageBuilder.author` reads: whether the user exists, their name and avatar.
    static func combine(author id: String, builder: PageBuilder, into hash: inout StableHash) {
        let user = builder.input.feeds.usersByID[id]
        hash.combine(id)
        hash.combine(user != nil)
        hash.combine(user?.displayName)
        combine(image: user?.avatar, builder: builder, into: &hash)
    }

    /// What `PageBuilder.image` and `avatar` read of an image: its size and responsive copies.
    static func combine(image reference: String?, builder: PageBuilder, into hash: inout StableHash) {
        hash.combine(reference)
        guard let reference else { return }
        let size = builder.input.imageSizes[reference]
        hash.combine(size.map { "\($0.width)x\($0.height)" })
        guard let responsive = builder.input.images[reference] else { return hash.combine("\u{0}plain") }
        hash.combine("\(responsive.size.width)x\(responsive.size.height)")
        for copy in responsive.copies + [responsive.thumbnail].compactMap({ $0 }) {
            hash.combine("\(copy.path) \(copy.width)x\(copy.height)")
        }
        hash.combine(responsive.thumbnail != nil)
        hash.combine(responsive.dominantColor)
    }

    /// What a post's card and page show: the post, its photo, author, place and comments.
    /// - Parameter authors: `combine(author:)` of each user, by id, worked out beforehand; an id
    ///   that names no user is worked out here.
    static func postVersion(_ post: Post, builder: PageBuilder, authors: [String: UInt64]) -> UInt64 {
        let feeds = builder.input.feeds
        var hash = StableHash()
        func author(_ id: String) {
            var value = authors[id] ?? {
                var own = StableHash()
                combine(author: id, builder: builder, into: &own)
                return own.value
            }()
            withUnsafeBytes(of: &value) { hash.combine(buffer: $0) }
        }
        hash.combine(post)
        author(post.author)
        combine(image: post.image, builder: builder, into: &hash)
        hash.combine(feeds.indexes.locationSlugs[post.id])
        let comments = feeds.comments[post.id] ?? []
        hash.combine(comments.count)
        for comment in comments {
            hash.combine(comment)
            author(comment.author)
        }
        return hash.value
    }

    /// Whether the post's caption or a comment on it names one of `targets`.
    static func names(_ post: Post, of targets: Set<String>, builder: PageBuilder) -> Bool {
        guard !targets.isEmpty else { return false }
        let texts = [post.caption ?? ""] + (builder.input.feeds.comments[post.id] ?? []).map(\.text)
        return texts.contains { linkTargets(in: $0).contains(where: targets.contains) }
    }

    /// The `#tag` and `@id` targets a caption or comment names.
    static func linkTargets(in text: String) -> [String] {
        // Most texts name none: skip the scanner for them.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") }) else { return [] }
        return Hashtag.tokens(in: text).compactMap { token in
            switch token {
            case .text: nil
            case .hashtag(_, let tag): "#" + tag
            case .mention(_, let id): "@" + id
            }
        }
    }
}

/// The post and entry versions of the previous build of a long-lived process (`serve`), each with
/// what it was made of: a post whose record, comments and place equal the stored ones keeps its
/// version, when the people and the photos are as they were too; an entry whose prompt, sending
/// and responses do, when no Markdown link was dropped then or now. Hashing every post and its
/// comments was a tenth of a rebuild; comparing them costs little, since records that did not
/// change are the very same values from build to build (`MemoTable.keepsDecoded`) and compare
/// by reference.
package struct PostVersionMemo: Sendable {
    /// What a post's version is made of beyond the site-wide people and photos.
    package struct Inputs: Sendable, Equatable {
        var post: Post
        var comments: [Comment]
        var locationSlug: String?
    }

    /// What an entry's version is made of.
    package struct EntryInputs: Sendable, Equatable {
        var entry: JournalEntry
        var responses: [Response]
    }

    var people: [String: UInt64] = [:]
    var imageSizes: [String: ImageSize] = [:]
    var images: [String: ResponsiveImage] = [:]
    var versions = InputMemo<Inputs, UInt64>()
    var entries = InputMemo<EntryInputs, UInt64>()
    /// Whether the build dropped no Markdown link: only then is an entry's version a function of its inputs.
    var entriesDropNone = false

    package init() {}

    init(
        people: [String: UInt64], imageSizes: [String: ImageSize], images: [String: ResponsiveImage], versions: InputMemo<Inputs, UInt64>,
        entries: InputMemo<EntryInputs, UInt64>, entriesDropNone: Bool
    ) {
        (self.people, self.imageSizes, self.images, self.versions) = (people, imageSizes, images, versions)
        (self.entries, self.entriesDropNone) = (entries, entriesDropNone)
    }
}
