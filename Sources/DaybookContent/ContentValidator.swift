import DaybookModel

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

    mutating func validate() {
        let prompts = unique(records.prompts, \.origin, .prompts)
        let sentPrompts = unique(records.sentPrompts, \.origin, .sentPrompts)
        let userRecords = unique(records.users, \.origin, .users)
        let postRecords = unique(records.posts, \.origin, .posts)
        var comments = unique(records.comments, \.origin, .comments)
        // A response's prompt is checked by the feed core, which knows which prompts have an entry.
        let responses = unique(records.responses, \.origin, .responses)

        // CONTRACT §4: ids that become paths must give distinct, non-empty slugs. A sent prompt naming a
        // missing prompt still gets an entry page (a placeholder), so its prompt id takes part too.
        let promptIDs = Set(prompts.map(\.id))
        var placeholderIDs = Set<String>()
        let placeholders = sentPrompts.filter { !promptIDs.contains($0.promptID) && placeholderIDs.insert($0.promptID).inserted }
        checkSlugs(prompts.map { ($0.id, $0.origin) } + placeholders.map { ($0.promptID, $0.origin) }, .prompts)
        checkSlugs(postRecords.map { ($0.id, $0.origin) }, .posts)
        checkSlugs(userRecords.map { ($0.id, $0.origin) }, .users)

        let userIDs = Set(userRecords.map(\.id))
        let users = userRecords.map { record in
            var user = record.user
            for followed in record.follows {
                if userIDs.contains(followed.value) {
                    if !user.follows.contains(followed.value) { user.follows.append(followed.value) }
                } else {
                    diagnostics.append(.warning("user '\(user.id)' follows '\(followed.value)', which is not a user; ignored", at: followed.location))
                }
            }
            return user
        }

        let posts = postRecords.compactMap { record -> Post? in
            var post = record.post
            guard userIDs.contains(post.author) else {
                diagnostics.append(.error("post '\(post.id)' has author '\(post.author)', which is not a user", at: post.origin ?? fallback(.posts)))
                return nil
            }
            for tag in record.tags {
                if Hashtag.normalise(tag.value) != nil {
                    post.extraTags.append(tag.value)
                } else {
                    diagnostics.append(.warning("tag '\(tag.value)' is not a hashtag (word characters with at least one letter, no '#'); ignored", at: tag.location))
                }
            }
            return post
        }

        let postIDs = Set(posts.map(\.id))
        comments.removeAll { comment in
            if !userIDs.contains(comment.author) {
                diagnostics.append(.error("comment '\(comment.id)' has author '\(comment.author)', which is not a user", at: comment.origin ?? fallback(.comments)))
                return true
            }
            if !postIDs.contains(comment.postID) {
                diagnostics.append(.warning("comment '\(comment.id)' is on post '\(comment.postID)', which does not exist; it is left out", at: comment.origin ?? fallback(.comments)))
                return true
            }
            return false
        }

        if let viewer = config.timelineViewer, !userIDs.contains(viewer) {
            diagnostics.append(.error("timeline.viewer '\(viewer)' is not a user", at: config.timelineViewerPosition ?? SourceLocation(path: "site.yml")))
        }
        content = SiteContent(prompts: prompts, sentPrompts: sentPrompts, users: users, posts: posts, comments: comments, responses: responses)
    }

    private func fallback(_ collection: ContentCollection) -> SourceLocation {
        SourceLocation(path: "content/\(collection.rawValue)")
    }

    /// Keeps the first record of each id (in path order) and reports the rest.
    ///
    /// The ids are indexed by position, and the records are copied only when one is dropped: on
    /// 100,000 comments, copying each (and its location into the index) was a tenth of a rebuild.
    private mutating func unique<Record: Identifiable>(
        _ items: [Record], _ origin: KeyPath<Record, SourceLocation?>, _ collection: ContentCollection
    ) -> [Record] where Record.ID == String {
        var first: [String: Int] = [:]
        first.reserveCapacity(items.count)
        var dropped = Set<Int>()
        for index in items.indices {
            let id = items[index].id
            if let earlier = first[id] {
                let note = items[earlier][keyPath: origin].map { " (first defined at \($0.description))" } ?? ""
                diagnostics.append(.error("duplicate \(collection.singular) id '\(id)'\(note)", at: items[index][keyPath: origin] ?? fallback(collection)))
                dropped.insert(index)
            } else {
                first[id] = index
            }
        }
        guard !dropped.isEmpty else { return items }
        return items.indices.filter { !dropped.contains($0) }.map { items[$0] }
    }

    private mutating func checkSlugs(_ ids: [(String, SourceLocation?)], _ collection: ContentCollection) {
        var bySlug: [String: String] = [:]
        for (id, origin) in ids {
            let slug = Slug.make(id)
            let at = origin ?? fallback(collection)
            if slug.isEmpty {
                diagnostics.append(.error("\(collection.singular) id '\(id)' has no letters or digits to make a page address from", at: at))
            } else if let other = bySlug[slug] {
                diagnostics.append(.error("\(collection.singular) ids '\(other)' and '\(id)' both give the page address '\(slug)'; rename one", at: at))
            } else {
                bySlug[slug] = id
            }
        }
    }
}
