import DaybookModel
import DaybookParallel

/// The checks that span records: unique ids, slugs that do not collide, references that resolve.
///
/// All of them live here, after decoding, so each rule is written once whatever file format
/// the records came from. They run as stages, each a function of what it is given, so the
/// incremental layer can keep the costly ones between builds (`ContentStep`): on a 20,000-post
/// site the comments' stages index 100,000 ids and look up 200,000, and most edits touch no
/// comment.
package enum ContentValidator {
    /// Records left out by a check, by place, with what it said of them.
    package struct Dropped: Sendable, Hashable {
        /// Ascending.
        package var places: [Int] = []
        package var problems: [Diagnostic] = []

        package init(places: [Int] = [], problems: [Diagnostic] = []) {
            self.places = places
            self.problems = problems
        }

        /// `items` without the dropped places; `nil` when a place is not among them (a damaged memo).
        package func applied<Item>(to items: [Item]) -> [Item]? {
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

    /// The journal's records with unique ids, and what was said of the rest.
    package struct Journal: Sendable {
        var prompts: [Prompt]
        var sentPrompts: [SentPrompt]
        var responses: [Response]
        var problems: [Diagnostic]
    }

    /// The people and their posts, checked against each other.
    package struct People: Sendable {
        package var users: [User]
        package var posts: [Post]
        var problems: [Diagnostic]
    }

    /// How many comments and posts make a site large enough to validate on all cores.
    static let parallelFrom = 10_000

    /// Every check of `records`, each stage worked out.
    package static func validate(_ records: DecodedRecords, config: SiteConfig) -> (content: SiteContent, diagnostics: [Diagnostic]) {
        // The comments, the journal's records and the people's do not meet until comments are
        // matched to users and posts: on a large site their ids and slugs are checked at once, on
        // all cores (100,000 comment ids alone were half of this check on a 20,000-post site).
        // Below that, starting threads costs more than the checks (the fuzz targets, which load
        // one-file sites, ran up to twenty times fewer inputs when every load started them).
        let (duplicates, journal, people) = stages(
            records,
            duplicates: { commentDuplicates(records.comments) },
            people: { Self.people(users: ids(of: records.users), posts: ids(of: records.posts), records: records, config: config) })
        let comments = duplicates.applied(to: records.comments) ?? []
        let references = references(of: comments, users: people.users, posts: people.posts)
        return content(duplicates: duplicates, comments: comments, references: references, journal: journal, people: people)
    }

    /// The three stages that do not read each other (the comments' duplicates, the journal, the
    /// people), at once on a large site, however each is come by.
    package static func stages(
        _ records: DecodedRecords, duplicates: @Sendable () -> Dropped, people: @Sendable () -> People
    ) -> (duplicates: Dropped, journal: Journal, people: People) {
        let checkJournal = { @Sendable in Self.journal(records) }
        return records.comments.count + records.posts.count >= parallelFrom
            ? Parallel.all(duplicates, checkJournal, people) : (duplicates(), checkJournal(), people())
    }

    /// The validated content, from every stage's result.
    /// - Parameter comments: the comments without `duplicates`' places.
    package static func content(duplicates: Dropped, comments: [Comment], references: Dropped, journal: Journal, people: People)
        -> (content: SiteContent, diagnostics: [Diagnostic])
    {
        let content = SiteContent(
            prompts: journal.prompts, sentPrompts: journal.sentPrompts, users: people.users, posts: people.posts,
            comments: references.applied(to: comments) ?? [], responses: journal.responses)
        return (content, duplicates.problems + journal.problems + people.problems + references.problems)
    }

    /// The comments left out as duplicates (the first of each id stands), with what is said of
    /// them, and of ids whose anchors collide on a post. A function of the comments alone.
    package static func commentDuplicates(_ comments: [Comment]) -> Dropped {
        var unique = Self.unique(comments, \.origin, .comments)
        unique.dropped.problems += commentAnchors(unique.records)
        return unique.dropped
    }

    /// Users with unique ids and distinct, non-empty slugs: the duplicates left out, and what is
    /// said of them and of the slugs. A function of the records alone; none dropped and nothing
    /// said when the ids are sound.
    package static func ids(of users: [UserRecord]) -> Dropped { ids(users, \.origin, .users) }

    /// Posts with unique ids and distinct, non-empty slugs, as `ids(of:)` checks users.
    package static func ids(of posts: [PostRecord]) -> Dropped { ids(posts, \.origin, .posts) }

    private static func ids<Record: Identifiable>(
        _ items: [Record], _ origin: KeyPath<Record, SourceLocation?>, _ collection: ContentCollection
    ) -> Dropped where Record.ID == String {
        let kept = unique(items, origin, collection)
        var dropped = kept.dropped
        dropped.problems += checkSlugs(kept.records.map { ($0.id, $0[keyPath: origin]) }, collection)
        return dropped
    }

    /// One digest of ids in order: what a kept check of them is filed under (`ContentStep`).
    package static func digest(_ ids: [String]) -> UInt64 {
        var hash = StableHash()
        hash.combine(ids.count)
        for id in ids { hash.combine(id) }
        return hash.value
    }

    /// The places of the comments whose author is not a user or whose post does not exist, with
    /// what is said of each. Read only: on every rebuild nearly none is dropped.
    package static func references(of comments: [Comment], users: [User], posts: [Post]) -> Dropped {
        let (userIDs, postIDs) = (Set(users.map(\.id)), Set(posts.map(\.id)))
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
    static func journal(_ records: DecodedRecords) -> Journal {
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
        return Journal(
            prompts: prompts.records, sentPrompts: sentPrompts.records, responses: responses.records,
            problems: prompts.dropped.problems + sentPrompts.dropped.problems + responses.dropped.problems + slugs)
    }

    /// Follows and authors that name users, and tags that are hashtags, over the users and posts
    /// without the duplicates their id checks (`ids(of:)`) left out.
    package static func people(users checkedUsers: Dropped, posts checkedPosts: Dropped, records: DecodedRecords, config: SiteConfig) -> People {
        let userRecords = checkedUsers.applied(to: records.users) ?? []
        let postRecords = checkedPosts.applied(to: records.posts) ?? []
        var problems = checkedUsers.problems + checkedPosts.problems

        let userIDs = Set(userRecords.map(\.id))
        let users = userRecords.map { record in
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

        let posts = postRecords.compactMap { record -> Post? in
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
        return People(users: users, posts: posts, problems: problems)
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
