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
    private(set) var content = SiteContent()
    private(set) var diagnostics: [Diagnostic] = []
    /// This validation's checks, with what they were made of, for the next load of a long-lived process.
    private(set) var keptChecks: KeptChecks?

    /// A load's checks across records, with what they were made of. A long-lived process (`serve`)
    /// hands the comments' to the next load, which takes them when its comments are the same records
    /// (decoded once and kept, so they compare at once) and the users and posts have the same ids:
    /// on a 20,000-post site the checks index 100,000 ids and look up 200,000, and most edits
    /// touch no comment.
    ///
    /// Likewise the posts' and users' ids, in record order, when they were unique and gave
    /// distinct slugs: the same ids are so again (an edit seldom changes an id, and making 20,000
    /// slugs was a tenth of the checks).
    struct KeptChecks: Sendable {
        var comments: [Comment]
        var unique: (records: [Comment], problems: [Diagnostic])
        var userIDs: Set<String>
        var postIDs: Set<String>
        var kept: [Comment]
        var problems: [Diagnostic]
        var soundIDs = SoundIDs()
    }

    /// Post and user ids, in record order, that were unique and gave distinct slugs.
    struct SoundIDs: Sendable {
        var posts: [String]?
        var users: [String]?
    }

    /// - Parameter previous: the last load's `keptChecks`, from a long-lived process.
    init(records: DecodedRecords, config: SiteConfig, reusing previous: KeptChecks? = nil) {
        self.records = records
        self.config = config
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
        let (records, config, previous) = (self.records, self.config, self.previous)
        let checkComments = { @Sendable in
            if let previous, previous.comments == records.comments { return (previous.unique, true) }
            return (Self.unique(records.comments, \.origin, .comments), false)
        }
        let checkJournal = { @Sendable in Self.journal(records) }
        let checkPeople = { @Sendable in Self.people(records, config: config, sound: previous?.soundIDs ?? SoundIDs()) }
        let (commentsChecked, journal, people) = records.comments.count + records.posts.count >= Self.parallelFrom
            ? Parallel.all(checkComments, checkJournal, checkPeople) : (checkComments(), checkJournal(), checkPeople())
        let (unique, sameComments) = commentsChecked
        diagnostics += unique.problems + journal.problems + people.problems
        let (userIDs, postIDs) = (people.userIDs, Set(people.posts.map(\.id)))
        let comments: [Comment]
        var problems: [Diagnostic] = []
        if let previous, sameComments, previous.userIDs == userIDs, previous.postIDs == postIDs {
            (comments, problems) = (previous.kept, previous.problems)
        } else {
            comments = Self.known(unique.records, userIDs: userIDs, postIDs: postIDs, problems: &problems)
        }
        diagnostics += problems
        keptChecks = KeptChecks(
            comments: records.comments, unique: unique, userIDs: userIDs, postIDs: postIDs, kept: comments, problems: problems,
            soundIDs: people.sound)
        content = SiteContent(
            prompts: journal.prompts, sentPrompts: journal.sentPrompts, users: people.users, posts: people.posts, comments: comments,
            responses: journal.responses)
    }

    /// The comments whose author is a user and whose post exists; the others are reported.
    private static func known(_ comments: [Comment], userIDs: Set<String>, postIDs: Set<String>, problems: inout [Diagnostic]) -> [Comment] {
        // Read first, and copy only when a comment is dropped: removing in place made a copy of
        // all 100,000 comments (each field retained) on every `serve` rebuild, where none is dropped.
        guard comments.contains(where: { !userIDs.contains($0.author) || !postIDs.contains($0.postID) }) else { return comments }
        var kept = comments
        kept.removeAll { comment in
            if !userIDs.contains(comment.author) {
                problems.append(.error("comment '\(comment.id)' has author '\(comment.author)', which is not a user", at: comment.origin ?? Self.fallback(.comments)))
                return true
            }
            if !postIDs.contains(comment.postID) {
                problems.append(.warning("comment '\(comment.id)' is on post '\(comment.postID)', which does not exist; it is left out", at: comment.origin ?? Self.fallback(.comments)))
                return true
            }
            return false
        }
        return kept
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
    /// - Parameter sound: ids known to be unique with distinct slugs; the same ids are not checked again.
    private static func people(_ records: DecodedRecords, config: SiteConfig, sound: SoundIDs = SoundIDs())
        -> (users: [User], userIDs: Set<String>, posts: [Post], problems: [Diagnostic], sound: SoundIDs)
    {
        func checked<Record: Identifiable>(_ items: [Record], _ origin: KeyPath<Record, SourceLocation?>, _ collection: ContentCollection, sound: [String]?)
            -> (records: [Record], problems: [Diagnostic], sound: [String]?) where Record.ID == String
        {
            let ids = items.map(\.id)
            if ids == sound { return (items, [], ids) }
            let kept = unique(items, origin, collection)
            let problems = kept.problems + checkSlugs(kept.records.map { ($0.id, $0[keyPath: origin]) }, collection)
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
        return (users, userIDs, posts, problems, SoundIDs(posts: postRecords.sound, users: userRecords.sound))
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
