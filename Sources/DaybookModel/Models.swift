/// A daily prompt: a question the journal asks on its `date`, with an optional Markdown body.
package struct Prompt: Sendable, Hashable, Identifiable {
    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    package var origin: SourceLocation?
    package var id: String
    package var title: String
    /// The calendar day (site time zone) on which this is today's prompt.
    package var date: CalendarDay?
    /// CommonMark source; rendered safely, never trusted.
    package var body: String?
    /// The last edit (CONTRACT §8); feeds and the sitemap date the entry by it.
    package var updatedAt: Instant?
    /// `draft: true`: left out of the site, with its sendings and responses, unless `--drafts`.
    package var isDraft: Bool
    /// `lang` (§11): the language of the title and body, when not the site's.
    package var lang: LanguageTag?

    package init(
        id: String, title: String, date: CalendarDay? = nil, body: String? = nil, updatedAt: Instant? = nil, isDraft: Bool = false
    ) {
        self.id = id
        self.title = title
        self.date = date
        self.body = body
        self.updatedAt = updatedAt
        self.isDraft = isDraft
    }
}

/// One time a prompt was sent to the journal's owner. A prompt may be sent many times.
package struct SentPrompt: Sendable, Hashable, Identifiable {
    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    package var origin: SourceLocation?
    package var id: String
    package var promptID: String
    package var sentAt: Instant

    package init(id: String, promptID: String, sentAt: Instant) {
        self.id = id
        self.promptID = promptID
        self.sentAt = sentAt
    }
}

/// Someone who posts to the timeline.
package struct User: Sendable, Hashable, Identifiable {
    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    package var origin: SourceLocation?
    package var id: String
    /// The display name as written; `nil` means "show the id".
    package var name: String?
    package var bio: String?
    package var avatar: String?
    package var follows: [String]
    /// `lang` (§11): the language of the name and bio, when not the site's.
    package var lang: LanguageTag?

    package init(id: String, name: String? = nil, bio: String? = nil, avatar: String? = nil, follows: [String] = []) {
        self.id = id
        self.name = name
        self.bio = bio
        self.avatar = avatar
        self.follows = follows
    }

    package var displayName: String { name ?? id }
}

/// Where a photo was taken, as the poster named it.
package struct Location: Sendable, Hashable {
    package var name: String
    package var latitude: Double?
    package var longitude: Double?

    package init(name: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A photo on the timeline with its caption.
///
/// Its fields live behind one reference (`SharedFields`), as a `Comment`'s do: the timeline, the
/// list of every post and each tag, person and place list hold the same posts, and a copy is one
/// reference count (and eight bytes) instead of thirteen fields.
package struct Post: Sendable, Hashable, Identifiable {
    @usableFromInline struct Fields: Sendable, Hashable {
        @usableFromInline var origin: SourceLocation?
        @usableFromInline var id: String
        @usableFromInline var author: String
        @usableFromInline var createdAt: Instant
        @usableFromInline var caption: String?
        @usableFromInline var extraTags: [String]
        @usableFromInline var image: String?
        @usableFromInline var imageAlt: String?
        @usableFromInline var location: Location?
        @usableFromInline var isSensitive: Bool
        @usableFromInline var sensitiveReason: String?
        @usableFromInline var updatedAt: Instant?
        @usableFromInline var isDraft: Bool
        @usableFromInline var lang: LanguageTag?
        @usableFromInline var isFeatured: Bool
    }

    @usableFromInline var box: SharedFields<Fields>

    package init(
        id: String, author: String, createdAt: Instant, caption: String? = nil, extraTags: [String] = [],
        image: String? = nil, imageAlt: String? = nil, location: Location? = nil, updatedAt: Instant? = nil,
        isDraft: Bool = false
    ) {
        box = SharedFields(Fields(
            origin: nil, id: id, author: author, createdAt: createdAt, caption: caption, extraTags: extraTags, image: image,
            imageAlt: imageAlt, location: location, isSensitive: false, sensitiveReason: nil, updatedAt: updatedAt, isDraft: isDraft, lang: nil,
            isFeatured: false))
    }

    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    package var origin: SourceLocation? {
        @inlinable get { box.fields.origin }
        set { box.set { $0.origin = newValue } }
    }
    package var id: String {
        @inlinable get { box.fields.id }
        set { box.set { $0.id = newValue } }
    }
    package var author: String {
        @inlinable get { box.fields.author }
        set { box.set { $0.author = newValue } }
    }
    package var createdAt: Instant {
        @inlinable get { box.fields.createdAt }
        set { box.set { $0.createdAt = newValue } }
    }
    /// Plain text; `#hashtags` and `@mentions` in it become links.
    package var caption: String? {
        @inlinable get { box.fields.caption }
        set { box.set { $0.caption = newValue } }
    }
    /// Extra hashtags as written, without `#`.
    package var extraTags: [String] {
        @inlinable get { box.fields.extraTags }
        set { box.set { $0.extraTags = newValue } }
    }
    package var image: String? {
        @inlinable get { box.fields.image }
        set { box.set { $0.image = newValue } }
    }
    package var imageAlt: String? {
        @inlinable get { box.fields.imageAlt }
        set { box.set { $0.imageAlt = newValue } }
    }
    package var location: Location? {
        @inlinable get { box.fields.location }
        set { box.set { $0.location = newValue } }
    }
    /// `sensitive` (CONTRACT §7): the photo is shown only when the reader asks.
    package var isSensitive: Bool {
        @inlinable get { box.fields.isSensitive }
        set { box.set { $0.isSensitive = newValue } }
    }
    /// Why, when `sensitive` was given as text; shown in the closed `<details>`'s summary.
    package var sensitiveReason: String? {
        @inlinable get { box.fields.sensitiveReason }
        set { box.set { $0.sensitiveReason = newValue } }
    }
    /// The last edit; a post page says "edited" with it, feeds date the post by it.
    package var updatedAt: Instant? {
        @inlinable get { box.fields.updatedAt }
        set { box.set { $0.updatedAt = newValue } }
    }
    /// `draft: true`: left out of the site, with its comments, unless `--drafts`.
    package var isDraft: Bool {
        @inlinable get { box.fields.isDraft }
        set { box.set { $0.isDraft = newValue } }
    }
    /// `lang` (§11): the language of the caption and alt text, when not the site's.
    package var lang: LanguageTag? {
        @inlinable get { box.fields.lang }
        set { box.set { $0.lang = newValue } }
    }
    /// `featured: true` (§13): shown on the home page in its own section.
    package var isFeatured: Bool {
        @inlinable get { box.fields.isFeatured }
        set { box.set { $0.isFeatured = newValue } }
    }

    /// CONTRACT §2: the caption's hashtags, then the `tags` field, normalised, each once.
    package var tags: [String] {
        let fromCaption = Hashtag.tags(in: caption ?? "")
        guard !extraTags.isEmpty else { return fromCaption }
        var result = Hashtag.DistinctTags()
        for tag in fromCaption + extraTags.compactMap(Hashtag.normalise) { result.insert(tag) }
        return result.tags
    }
}

/// A comment under a post.
///
/// Its fields live behind one reference (`SharedFields`), so copying a comment is one reference
/// count instead of five: a site's 100,000 comments are copied by every order and grouping of
/// them, and those copies were a tenth of a rebuild.
package struct Comment: Sendable, Hashable, Identifiable {
    @usableFromInline struct Fields: Sendable, Hashable {
        @usableFromInline var origin: SourceLocation?
        @usableFromInline var id: String
        @usableFromInline var postID: String
        @usableFromInline var author: String
        @usableFromInline var createdAt: Instant
        @usableFromInline var text: String
        @usableFromInline var updatedAt: Instant?
        @usableFromInline var isDraft: Bool
        @usableFromInline var lang: LanguageTag?
    }

    @usableFromInline var box: SharedFields<Fields>

    package init(
        id: String, postID: String, author: String, createdAt: Instant, text: String, updatedAt: Instant? = nil,
        isDraft: Bool = false
    ) {
        box = SharedFields(Fields(origin: nil, id: id, postID: postID, author: author, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft, lang: nil))
    }

    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    package var origin: SourceLocation? {
        @inlinable get { box.fields.origin }
        set { box.set { $0.origin = newValue } }
    }
    package var id: String {
        @inlinable get { box.fields.id }
        set { box.set { $0.id = newValue } }
    }
    package var postID: String {
        @inlinable get { box.fields.postID }
        set { box.set { $0.postID = newValue } }
    }
    package var author: String {
        @inlinable get { box.fields.author }
        set { box.set { $0.author = newValue } }
    }
    package var createdAt: Instant {
        @inlinable get { box.fields.createdAt }
        set { box.set { $0.createdAt = newValue } }
    }
    package var text: String {
        @inlinable get { box.fields.text }
        set { box.set { $0.text = newValue } }
    }
    package var updatedAt: Instant? {
        @inlinable get { box.fields.updatedAt }
        set { box.set { $0.updatedAt = newValue } }
    }
    package var isDraft: Bool {
        @inlinable get { box.fields.isDraft }
        set { box.set { $0.isDraft = newValue } }
    }
    /// `lang` (§11): the language of the text, when not the site's.
    package var lang: LanguageTag? {
        @inlinable get { box.fields.lang }
        set { box.set { $0.lang = newValue } }
    }
}

/// Shows a post's fields, not its box, as `Comment` does.
extension Post: CustomReflectable {
    package var customMirror: Mirror { Mirror(reflecting: box.fields) }
}

/// Shows a comment's fields, not its box: in debug output, and to the tests that hold every field
/// to the comment's stable hash.
extension Comment: CustomReflectable {
    package var customMirror: Mirror { Mirror(reflecting: box.fields) }
}
