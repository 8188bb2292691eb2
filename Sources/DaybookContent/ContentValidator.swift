import DaybookModel
import DaybookParallel

/// The checks that span records: unique ids, slugs that do not collide, references that resolve.
///
/// All of them live here, after decoding, so each rule is written once whatever file format
/// the records came from.
struct ContentValidator {
    private let records: DecodedRecords
    private let config: SiteConfig
    private let previous: KeptChecks?
    private let commentFiles: UInt64?
    private(set) var content = SiteContent()
    private(set) var diagnostics: [Diagnostic] = []
    /// This validation's checks, with what they were made of, for the next load (`serve`'s in
    /// memory, `daybook build`'s through `.daybook-cache/checks`); `nil` without `commentFiles`.
    private(set) var keptChecks: KeptChecks?

    /// A load's checks across records, with what they were made of. The next load takes the
    /// comments' when its comment files are the same (by their cache keys) and the users and posts
    /// have the same ids: on a 20,000-post site the checks index 100,000 ids and look up 200,000,
    /// and most edits touch no comment.
    ///
    /// Likewise the posts' and users' ids, in record order, when they were unique and gave
    /// distinct slugs: the same ids are so again (an edit seldom changes an id, and making 20,000
    /// slugs was a tenth of the checks).
    ///
    /// Everything is kept as digests and places, not records: `serve` hands the checks on in
    /// memory, and `daybook build` through `.daybook-cache/checks` (`bytes`), where a one-post
    /// edit otherwise checked the whole site again (60 ms of 550 on a 20,000-post site).
    struct KeptChecks: Sendable, Hashable {
        /// The comment files' cache keys in path order, as one digest.
        var commentFiles: UInt64
        /// The comments left out as duplicates, by place among the records, with what the checks
        /// of the comments alone said: duplicate ids, and ids whose anchors collide on a post.
        var duplicates = Dropped()
        /// The users' and the posts' ids the comments were matched against, in record order, as digests.
        var userIDs: UInt64 = 0
        var postIDs: UInt64 = 0
        /// The comments left out for naming no user or post, by place among the unique ones.
        var unknown = Dropped()
        var soundIDs = SoundIDs()

        /// What the checked comments are made of, as one key: the comment files, and the users
        /// and posts the comments were matched against.
        var commentsKey: UInt64 {
            var hash = StableHash()
            for part in [commentFiles, userIDs, postIDs] { hash.combine(bits: part) }
            return hash.value
        }
    }

    /// Records left out by a check, by place, with what it said of them.
    struct Dropped: Sendable, Hashable {
        /// Ascending.
        var places: [Int] = []
        var problems: [Diagnostic] = []

        /// `items` without the dropped places; `nil` when a place is not among them (a damaged cache).
        func applied<Item>(to items: [Item]) -> [Item]? {
            guard let last = places.last else { return items }
            guard last < items.count else { return nil }
            var kept: [Item] = []
            kept.reserveCapacity(items.count - places.count)
            var next = places.startIndex
            for index in items.indices {
                if next < places.endIndex && places[next] == index {
                    next += 1
                } else {
                    kept.append(items[index])
                }
            }
            return kept
        }
    }

    /// Digests of the post and user ids, in record order, that were unique and gave distinct slugs.
    struct SoundIDs: Sendable, Hashable {
        var posts: UInt64?
        var users: UInt64?
    }

    /// - Parameters:
    ///   - commentFiles: the comment files' cache keys as one digest, when every one is known.
    ///   - previous: the last load's `keptChecks`.
    init(records: DecodedRecords, config: SiteConfig, commentFiles: UInt64? = nil, reusing previous: KeptChecks? = nil) {
        self.records = records
        self.config = config
        self.commentFiles = commentFiles
        self.previous = previous
    }

    /// How many comments and posts make a site large enough to validate on all cores.
    static let parallelFrom = 10_000

    mutating func validate() {
        // The comments, the journal's records and the people's do not meet until comments are
        // matched to users and posts: on a large site their ids and slugs are checked at once, on
        // all cores (100,000 comment ids alone were half of this check on a 20,000-post site).
        // Below that, starting threads costs more than the checks (the fuzz targets, which load
        // one-file sites, ran up to twenty times fewer inputs when every load started them).
        let (records, config, previous, commentFiles) = (self.records, self.config, self.previous, self.commentFiles)
        let checkComments = { @Sendable () -> (records: [Comment], dropped: Dropped, same: Bool) in
            if let previous, let commentFiles, previous.commentFiles == commentFiles,
                let kept = previous.duplicates.applied(to: records.comments)
            {
                return (kept, previous.duplicates, true)
            }
            var unique = Self.unique(records.comments, \.origin, .comments)
            unique.dropped.problems += Self.commentAnchors(unique.records)
            return (unique.records, unique.dropped, false)
        }
        let checkJournal = { @Sendable in Self.journal(records) }
        let checkPeople = { @Sendable in Self.people(records, config: config, sound: previous?.soundIDs ?? SoundIDs()) }
        let (unique, journal, people) = records.comments.count + records.posts.count >= Self.parallelFrom
            ? Parallel.all(checkComments, checkJournal, checkPeople) : (checkComments(), checkJournal(), checkPeople())
        diagnostics += unique.dropped.problems + journal.problems + people.problems
        let (userDigest, postDigest) = (Self.digest(people.users.map(\.id)), Self.digest(people.posts.map(\.id)))
        var comments: [Comment]?
        var unknown = Dropped()
        if let previous, unique.same, previous.userIDs == userDigest, previous.postIDs == postDigest {
            comments = previous.unknown.applied(to: unique.records)
            unknown = previous.unknown
        }
        if comments == nil {
            unknown = Self.known(unique.records, userIDs: Set(people.users.map(\.id)), postIDs: Set(people.posts.map(\.id)))
            comments = unknown.applied(to: unique.records)
        }
        diagnostics += unknown.problems
        keptChecks = commentFiles.map {
            KeptChecks(
                commentFiles: $0, duplicates: unique.dropped, userIDs: userDigest, postIDs: postDigest, unknown: unknown,
                soundIDs: people.sound)
        }
        content = SiteContent(
            prompts: journal.prompts, sentPrompts: journal.sentPrompts, users: people.users, posts: people.posts, comments: comments ?? [],
            responses: journal.responses)
    }

    /// One digest of ids in order: what the kept checks compare instead of the ids themselves.
    static func digest(_ ids: [String]) -> UInt64 {
        var hash = StableHash()
        hash.combine(ids.count)
        for id in ids { hash.combine(id) }
        return hash.value
    }

    /// The places of the comments whose author is not a user or whose post does not exist, with
    /// what is said of each. Read only: on every rebuild nearly none is dropped.
    private static func known(_ comments: [Comment], userIDs: Set<String>, postIDs: Set<String>) -> Dropped {
        var dropped = Dropped()
        for (index, comment) in comments.enumerated() {
            if !userIDs.contains(comment.author) {
                dropped.places.append(index)
                dropped.problems.append(
                    Diagnostic(.unknownAuthor(item: "comment", id: comment.id, author: comment.author), at: comment.origin ?? Self.fallback(.comments)))
            } else if !postIDs.contains(comment.postID) {
                dropped.places.append(index)
                dropped.problems.append(
                    Diagnostic(.commentOnMissingPost(comment: comment.id, post: comment.postID), at: comment.origin ?? Self.fallback(.comments)))
            }
        }
        return dropped
    }

    /// Prompts, sent prompts and responses with unique ids, and prompt slugs that do not collide.
    private static func journal(_ records: DecodedRecords)
        -> (prompts: [Prompt], sentPrompts: [SentPrompt], responses: [Response], problems: [Diagnostic])
    {
        let prompts = unique(records.prompts, \.origin, .prompts)
        let sentPrompts = unique(records.sentPrompts, \.origin, .sentPrompts)
        // A response's prompt is checked by the feed core, which knows which prompts have an entry.
        let responses = unique(records.responses, \.origin, .responses)
        // CONTRACT §4: ids that become paths must give distinct, non-empty slugs. A sent prompt naming a
        // missing prompt still gets an entry page (a placeholder), so its prompt id takes part too.
        let promptIDs = Set(prompts.records.map(\.id))
        var placeholderIDs = Set<String>()
        let placeholders = sentPrompts.records.filter { !promptIDs.contains($0.promptID) && placeholderIDs.insert($0.promptID).inserted }
        let slugs = checkSlugs(prompts.records.map { ($0.id, $0.origin) } + placeholders.map { ($0.promptID, $0.origin) }, .prompts)
        return (
            prompts.records, sentPrompts.records, responses.records,
            prompts.dropped.problems + sentPrompts.dropped.problems + responses.dropped.problems + slugs
        )
    }

    /// Users and posts with unique ids and slugs, follows and authors that name users, and tags
    /// that are hashtags.
    /// - Parameter sound: ids known to be unique with distinct slugs; the same ids are not checked again.
    private static func people(_ records: DecodedRecords, config: SiteConfig, sound: SoundIDs = SoundIDs())
        -> (users: [User], posts: [Post], problems: [Diagnostic], sound: SoundIDs)
    {
        func checked<Record: Identifiable>(_ items: [Record], _ origin: KeyPath<Record, SourceLocation?>, _ collection: ContentCollection, sound: UInt64?)
            -> (records: [Record], problems: [Diagnostic], sound: UInt64?) where Record.ID == String
        {
            let ids = digest(items.map(\.id))
            if ids == sound { return (items, [], ids) }
            let kept = unique(items, origin, collection)
            let problems = kept.dropped.problems + checkSlugs(kept.records.map { ($0.id, $0[keyPath: origin]) }, collection)
            return (kept.records, problems, problems.isEmpty ? ids : nil)
        }
        let userRecords = checked(records.users, \.origin, .users, sound: sound.users)
        let postRecords = checked(records.posts, \.origin, .posts, sound: sound.posts)
        var problems = userRecords.problems + postRecords.problems

        let userIDs = Set(userRecords.records.map(\.id))
        let users = userRecords.records.map { record in
            var user = record.user
            for followed in record.follows {
                if userIDs.contains(followed.value) {
                    if !user.follows.contains(followed.value) { user.follows.append(followed.value) }
                } else {
                    problems.append(Diagnostic(.unknownFollow(user: user.id, followed: followed.value), at: followed.location))
                }
            }
            return user
        }

        let posts = postRecords.records.compactMap { record -> Post? in
            var post = record.post
            guard userIDs.contains(post.author) else {
                problems.append(Diagnostic(.unknownAuthor(item: "post", id: post.id, author: post.author), at: post.origin ?? fallback(.posts)))
                return nil
            }
            for tag in record.tags {
                if Hashtag.normalise(tag.value) != nil {
                    post.extraTags.append(tag.value)
                } else {
                    problems.append(Diagnostic(.notAHashtag(tag: tag.value), at: tag.location))
                }
            }
            return post
        }
        if let viewer = config.timelineViewer, !userIDs.contains(viewer) {
            problems.append(Diagnostic(.unknownTimelineViewer(viewer: viewer), at: config.timelineViewerPosition ?? SourceLocation(path: "site.yml")))
        }
        return (users, posts, problems, SoundIDs(posts: postRecords.sound, users: userRecords.sound))
    }

    private static func fallback(_ collection: ContentCollection) -> SourceLocation {
        SourceLocation(path: "content/\(collection.rawValue)")
    }

    /// Keeps the first record of each id (in path order) and reports the rest.
    ///
    /// The ids are indexed by position, and the records are copied only when one is dropped: on
    /// 100,000 comments, copying each (and its location into the index) was a tenth of a rebuild.
    private static func unique<Record: Identifiable>(
        _ items: [Record], _ origin: KeyPath<Record, SourceLocation?>, _ collection: ContentCollection
    ) -> (records: [Record], dropped: Dropped) where Record.ID == String {
        var first: [String: Int] = [:]
        first.reserveCapacity(items.count)
        var dropped = Dropped()
        for index in items.indices {
            let id = items[index].id
            if let earlier = first[id] {
                let problem = ContentProblem.duplicateID(item: collection.singular, id: id, firstDefined: items[earlier][keyPath: origin])
                dropped.problems.append(Diagnostic(problem, at: items[index][keyPath: origin] ?? fallback(collection)))
                dropped.places.append(index)
            } else {
                first[id] = index
            }
        }
        return (dropped.applied(to: items) ?? items, dropped)
    }

    /// CONTRACT §5: each comment is the element `comment-<slug(id)>` on its post's page, which
    /// must be valid HTML with unique ids, and feeds link to it by that id. So on one post no two
    /// comment ids may give the same slug, nor may one give an empty slug (`comment-` names
    /// nothing the reader can tell apart). Errors, like the slugs of page addresses.
    static func commentAnchors(_ comments: [Comment]) -> [Diagnostic] {
        var byAnchor: [String: String] = [:]
        byAnchor.reserveCapacity(comments.count)
        var problems: [Diagnostic] = []
        for comment in comments {
            let slug = Slug.make(comment.id)
            let key = comment.postID + "\u{0}" + slug
            let at = comment.origin ?? fallback(.comments)
            if slug.isEmpty {
                problems.append(Diagnostic(.commentIDWithoutAnchor(id: comment.id), at: at))
            } else if let other = byAnchor[key] {
                problems.append(Diagnostic(.commentAnchorsCollide(first: other, second: comment.id, post: comment.postID, slug: slug), at: at))
            } else {
                byAnchor[key] = comment.id
            }
        }
        return problems
    }

    private static func checkSlugs(_ ids: [(String, SourceLocation?)], _ collection: ContentCollection) -> [Diagnostic] {
        var bySlug: [String: String] = [:]
        var problems: [Diagnostic] = []
        for (id, origin) in ids {
            let slug = Slug.make(id)
            let at = origin ?? fallback(collection)
            if slug.isEmpty {
                problems.append(Diagnostic(.idWithoutSlug(item: collection.singular, id: id), at: at))
            } else if let other = bySlug[slug] {
                problems.append(Diagnostic(.slugsCollide(item: collection.singular, first: other, second: id, slug: slug), at: at))
            } else {
                bySlug[slug] = id
            }
        }
        return problems
    }
}
