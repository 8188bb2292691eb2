// Stable hashes of the content models, for page keys that outlive the process.
//
// Each model's hash feeds every stored property a page could show; `origin` (where the record
// was written) is left out, because moving a record inside its file changes no page. A test
// holds each list to the type's stored properties by name, so a new field cannot be forgotten.

extension StableHash {
    package mutating func combine(_ instant: Instant?) {
        if let instant { combine(instant.secondsSince1970) } else { combine("\u{0}nil") }
    }

    package mutating func combine(_ text: String?) {
        if let text { combine(text) } else { combine("\u{0}nil") }
    }

    package mutating func combine(_ flag: Bool) { combine(flag ? "\u{1}true" : "\u{1}false") }

    package mutating func combine(_ number: Int) { combine(bits: UInt64(bitPattern: Int64(number))) }

    package mutating func combine(_ day: CalendarDay?) { combine(day?.description) }

    package mutating func combine(_ tag: LanguageTag?) { combine(tag?.text) }

    package mutating func combine(_ prompt: Prompt) {
        combine("prompt")
        combine(prompt.id)
        combine(prompt.title)
        combine(prompt.date)
        combine(prompt.body)
        combine(prompt.updatedAt)
        combine(prompt.isDraft)
        combine(prompt.lang)
    }

    package mutating func combine(_ response: Response) {
        combine("response")
        combine(response.id)
        combine(response.promptID)
        combine(response.createdAt)
        combine(response.text)
        combine(response.updatedAt)
        combine(response.isDraft)
        combine(response.lang)
    }

    /// Every setting a page can show or be laid out by; where `baseURL` and `timeline.viewer` were
    /// written is left out, as a record's `origin` is: only warnings point there.
    package mutating func combine(_ config: SiteConfig) {
        combine("site-config")
        combine(config.title)
        combine(config.baseURL)
        combine(config.timeZoneIdentifier)
        combine(config.pageSize)
        combine(config.feedSize)
        combine(config.timelineViewer)
        combine(config.hashtagsPerPost)
        combine(config.imageWidths.count)
        config.imageWidths.forEach { combine($0) }
        combine(config.imageFormat)
        combine(config.imageOriginals)
        combine(config.report)
        combine(config.language)
        combine(config.description)
        combine(config.icon)
    }

    package mutating func combine(_ user: User) {
        combine("user")
        combine(user.id)
        combine(user.name)
        combine(user.bio)
        combine(user.avatar)
        combine(user.follows.count)
        user.follows.forEach { combine($0) }
        combine(user.lang)
    }

    package mutating func combine(_ location: Location?) {
        guard let location else { return combine("\u{0}nil") }
        combine(location.name)
        for coordinate in [location.latitude, location.longitude] {
            if let coordinate { combine(coordinate) } else { combine("\u{0}nil") }
        }
    }

    /// A post by its content key (`Post.contentKey`), worked out once per post.
    package mutating func combine(_ post: Post) { combine(bits: post.contentKey) }

    /// A comment by its content key (`Comment.contentKey`), worked out once per comment.
    package mutating func combine(_ comment: Comment) { combine(bits: comment.contentKey) }
}

extension Post.Fields: KeyedFields {
    @usableFromInline var contentKey: UInt64 {
        var hash = StableHash()
        hash.combine("post")
        hash.combine(id)
        hash.combine(author)
        hash.combine(createdAt)
        hash.combine(caption)
        hash.combine(extraTags.count)
        extraTags.forEach { hash.combine($0) }
        hash.combine(image)
        hash.combine(imageAlt)
        hash.combine(location)
        hash.combine(isSensitive)
        hash.combine(sensitiveReason)
        hash.combine(updatedAt)
        hash.combine(isDraft)
        hash.combine(lang)
        hash.combine(isFeatured)
        return hash.value
    }
}

extension Comment.Fields: KeyedFields {
    @usableFromInline var contentKey: UInt64 {
        var hash = StableHash()
        hash.combine("comment")
        hash.combine(id)
        hash.combine(postID)
        hash.combine(author)
        hash.combine(createdAt)
        hash.combine(text)
        hash.combine(updatedAt)
        hash.combine(isDraft)
        hash.combine(lang)
        return hash.value
    }
}

extension Post {
    /// A stable hash of every field but `origin`, worked out once per post (and again after an
    /// edit): what the timeline's versions and the page keys take of a post.
    package var contentKey: UInt64 { box.contentKey }

    /// Takes `key` as this post's `contentKey` without working it out, for a cache that stored
    /// the key beside the fields (`RecordCache`): hashing 20,000 posts' fields again was a fifth
    /// of the lists' versions in a one-post rebuild. A key of other fields would leave pages
    /// stale, so nothing else calls it; the next edit of the post works the key out again.
    package func restoreContentKey(_ key: UInt64) { box.restoreContentKey(key) }
}

extension Comment {
    /// A stable hash of every field but `origin`, worked out once per comment (and again after an edit).
    package var contentKey: UInt64 { box.contentKey }

    /// As `Post.restoreContentKey`: 100,000 comments' keys were most of the lists' versions in
    /// a one-post rebuild.
    package func restoreContentKey(_ key: UInt64) { box.restoreContentKey(key) }
}
