import DaybookModel

/// A value read from a file, with its place, so a check made after decoding points at the value.
package struct Sourced<Value: Sendable>: Sendable {
    var value: Value
    var location: SourceLocation

    init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// A decoded user with its `follows`, each at its place, until the validator knows the users.
package struct UserRecord: Sendable, Identifiable {
    var user: User
    var follows: [Sourced<String>]
    package var id: String { user.id }
    var origin: SourceLocation? { user.origin }
}

/// A decoded post with its `tags`, each at its place, until the validator has checked them.
package struct PostRecord: Sendable, Identifiable {
    var post: Post
    var tags: [Sourced<String>]
    package var id: String { post.id }
    var origin: SourceLocation? { post.origin }
}

/// Typed records of one load, before cross-record validation.
package struct DecodedRecords: Sendable {
    var prompts: [Prompt] = []
    var sentPrompts: [SentPrompt] = []
    package var users: [UserRecord] = []
    package var posts: [PostRecord] = []
    package var comments: [Comment] = []
    var responses: [Response] = []

    package init() {}

    /// An empty list takes the other's as it is: a site's comments come in one file, and copying
    /// 100,000 of them into an empty list counted a reference to each.
    mutating func append(contentsOf other: consuming DecodedRecords) {
        func add<Record>(_ more: consuming [Record], to list: inout [Record]) {
            if list.isEmpty { list = more } else { list += more }
        }
        add(other.prompts, to: &prompts)
        add(other.sentPrompts, to: &sentPrompts)
        add(other.users, to: &users)
        add(other.posts, to: &posts)
        add(other.comments, to: &comments)
        add(other.responses, to: &responses)
    }
}

extension RecordReader {
    /// Decodes one record into `records`; a record with an invalid required field is dropped
    /// (its diagnostics say why), so one bad item never hides problems in the others. An invalid
    /// optional field is reported and left out, and the record is kept.
    mutating func decode(into records: inout DecodedRecords) {
        let id = nonEmptyString("id", required: true)
        switch collection {
        case .prompts:
            let title = string("title", required: true)
            let date = day("date")
            let body = string("body")
            let (updatedAt, isDraft) = editFields(createdAt: nil)
            let lang = languageTag()
            guard let id, let title, !isInvalid else { return }
            var prompt = Prompt(id: id, title: title, date: date, body: body, updatedAt: updatedAt, isDraft: isDraft)
            prompt.origin = origin
            prompt.lang = lang
            records.prompts.append(prompt)
        case .sentPrompts:
            let promptID = nonEmptyString("promptId", required: true)
            let sentAt = instant("sentAt", required: true)
            guard let id, let promptID, let sentAt, !isInvalid else { return }
            var sent = SentPrompt(id: id, promptID: promptID, sentAt: sentAt)
            sent.origin = origin
            records.sentPrompts.append(sent)
        case .responses:
            let promptID = nonEmptyString("promptId", required: true)
            let createdAt = instant("createdAt", required: true)
            let text = string("text", required: true)
            let (updatedAt, isDraft) = editFields(createdAt: createdAt)
            let lang = languageTag()
            guard let id, let promptID, let createdAt, let text, !isInvalid else { return }
            var response = Response(id: id, promptID: promptID, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft)
            response.origin = origin
            response.lang = lang
            records.responses.append(response)
        case .users:
            let name = string("name")
            let bio = string("bio")
            let avatar = nonEmptyString("avatar")
            let follows = strings("follows")
            let lang = languageTag()
            guard let id, !isInvalid else { return }
            var user = User(id: id, name: name, bio: bio, avatar: avatar)
            user.origin = origin
            user.lang = lang
            records.users.append(UserRecord(user: user, follows: follows))
        case .posts:
            let author = nonEmptyString("author", required: true)
            let createdAt = instant("createdAt", required: true)
            let caption = string("caption")
            let tags = strings("tags")
            let image = nonEmptyString("image")
            let imageAlt = string("imageAlt")
            let place = location("location")
            let sensitive = sensitivity()
            let (updatedAt, isDraft) = editFields(createdAt: createdAt)
            let lang = languageTag()
            let featured = flag("featured")
            guard let id, let author, let createdAt, !isInvalid else { return }
            var post = Post(
                id: id, author: author, createdAt: createdAt, caption: caption, image: image, imageAlt: imageAlt,
                location: place, updatedAt: updatedAt, isDraft: isDraft)
            post.origin = origin
            post.lang = lang
            post.isFeatured = featured
            (post.isSensitive, post.sensitiveReason) = sensitive
            records.posts.append(PostRecord(post: post, tags: tags))
        case .comments:
            let postID = nonEmptyString("postId", required: true)
            let author = nonEmptyString("author", required: true)
            let createdAt = instant("createdAt", required: true)
            let text = string("text", required: true)
            let (updatedAt, isDraft) = editFields(createdAt: createdAt)
            let lang = languageTag()
            guard let id, let postID, let author, let createdAt, let text, !isInvalid else { return }
            var comment = Comment(
                id: id, postID: postID, author: author, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft)
            comment.origin = origin
            comment.lang = lang
            records.comments.append(comment)
        }
    }
}
