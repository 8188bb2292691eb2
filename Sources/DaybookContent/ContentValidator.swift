import DaybookModel
import DaybookParallel

/// The checks that span records: unique ids, slugs that do not collide, references that resolve.
///
/// All of them live here, after decoding, so each rule is written once whatever file format
/// the records came from.
struct ContentValidator {
    private let records: DecodedRecords
    private let config: SiteConfig
    private(set) var content = SiteContent()
    private(set) var diagnostics: [Diagnostic] = []

    init(records: DecodedRecords, config: SiteConfig) {
        self.records = records
        self.config = config
    }

    /// How many comments and posts make a site large enough to validate on all cores.
    static let parallelFrom = 10_000

    mutating func validate() {
        // The comments, the journal's records and the people's do not meet until comments are
        // matched to users and posts: on a large site their ids and slugs are checked at once, on
        // all cores (100,000 comment ids alone were half of this check on a 20,000-post site).
        // Below that, starting threads costs more than the checks (the fuzz targets, which load
        // one-file sites, ran up to twenty times fewer inputs when every load started them).
        let (records, config) = (self.records, self.config)
        let checkComments = { @Sendable in Self.unique(records.comments, \.origin, .comments) }
        let checkJournal = { @Sendable in Self.journal(records) }
        let checkPeople = { @Sendable in Self.people(records, config: config) }
        let (commentsChecked, journal, people) = records.comments.count + records.posts.count >= Self.parallelFrom
            ? Parallel.all(checkComments, checkJournal, checkPeople) : (checkComments(), checkJournal(), checkPeople())
        var comments = commentsChecked.records
        diagnostics += commentsChecked.problems + journal.problems + people.problems
        let (userIDs, postIDs) = (people.userIDs, Set(people.posts.map(\.id)))
        // Read first, and copy only when a comment is dropped: removing in place made a copy of
        // all 100,000 comments (each field retained) on every `serve` rebuild, where none is dropped.
        if comments.contains(where: { !userIDs.contains($0.author) || !postIDs.contains($0.postID) }) {
            comments.removeAll { comment in
                if !userIDs.contains(comment.author) {
                    diagnostics.append(.error("comment '\(comment.id)' has author '\(comment.author)', which is not a user", at: comment.origin ?? Self.fallback(.comments)))
                    return true
                }
                if !postIDs.contains(comment.postID) {
                    diagnostics.append(.warning("comment '\(comment.id)' is on post '\(comment.postID)', which does not exist; it is left out", at: comment.origin ?? Self.fallback(.comments)))
                    return true
                }
                return false
            }
        }
        content = SiteContent(
            prompts: journal.prompts, sentPrompts: journal.sentPrompts, users: people.users, posts: people.posts, comments: comments,
            responses: journal.responses)
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
        return (prompts.records, sentPrompts.records, responses.records, prompts.problems + sentPrompts.problems + responses.problems + slugs)
    }

    /// Users and posts with unique ids and slugs, follows and authors that name users, and tags
    /// that are hashtags.
    private static func people(_ records: DecodedRecords, config: SiteConfig)
        -> (users: [User], userIDs: Set<String>, posts: [Post], problems: [Diagnostic])
    {
        let userRecords = unique(records.users, \.origin, .users)
        let postRecords = unique(records.posts, \.origin, .posts)
        var problems = userRecords.problems + postRecords.problems
        problems += checkSlugs(postRecords.records.map { ($0.id, $0.origin) }, .posts)
        problems += checkSlugs(userRecords.records.map { ($0.id, $0.origin) }, .users)

        let userIDs = Set(userRecords.records.map(\.id))
        let users = userRecords.records.map { record in
            var user = record.user
            for followed in record.follows {
                if userIDs.contains(followed.value) {
                    if !user.follows.contains(followed.value) { user.follows.append(followed.value) }
                } else {
                    problems.append(.warning("user '\(user.id)' follows '\(followed.value)', which is not a user; ignored", at: followed.location))
                }
            }
            return user
        }

        let posts = postRecords.records.compactMap { record -> Post? in
            var post = record.post
            guard userIDs.contains(post.author) else {
                problems.append(.error("post '\(post.id)' has author '\(post.author)', which is not a user", at: post.origin ?? fallback(.posts)))
                return nil
            }
            for tag in record.tags {
                if Hashtag.normalise(tag.value) != nil {
                    post.extraTags.append(tag.value)
                } else {
                    problems.append(.warning("tag '\(tag.value)' is not a hashtag (word characters with at least one letter, no '#'); ignored", at: tag.location))
                }
            }
            return post
        }
        if let viewer = config.timelineViewer, !userIDs.contains(viewer) {
            problems.append(.error("timeline.viewer '\(viewer)' is not a user", at: config.timelineViewerPosition ?? SourceLocation(path: "site.yml")))
        }
        return (users, userIDs, posts, problems)
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
    ) -> (records: [Record], problems: [Diagnostic]) where Record.ID == String {
        var first: [String: Int] = [:]
        first.reserveCapacity(items.count)
        var dropped = Set<Int>()
        var problems: [Diagnostic] = []
        for index in items.indices {
            let id = items[index].id
            if let earlier = first[id] {
                let note = items[earlier][keyPath: origin].map { " (first defined at \($0.description))" } ?? ""
                problems.append(.error("duplicate \(collection.singular) id '\(id)'\(note)", at: items[index][keyPath: origin] ?? fallback(collection)))
                dropped.insert(index)
            } else {
                first[id] = index
            }
        }
        guard !dropped.isEmpty else { return (items, problems) }
        return (items.indices.filter { !dropped.contains($0) }.map { items[$0] }, problems)
    }

    private static func checkSlugs(_ ids: [(String, SourceLocation?)], _ collection: ContentCollection) -> [Diagnostic] {
        var bySlug: [String: String] = [:]
        var problems: [Diagnostic] = []
        for (id, origin) in ids {
            let slug = Slug.make(id)
            let at = origin ?? fallback(collection)
            if slug.isEmpty {
                problems.append(.error("\(collection.singular) id '\(id)' has no letters or digits to make a page address from", at: at))
            } else if let other = bySlug[slug] {
                problems.append(.error("\(collection.singular) ids '\(other)' and '\(id)' both give the page address '\(slug)'; rename one", at: at))
            } else {
                bySlug[slug] = id
            }
        }
        return problems
    }
}
