import DaybookModel

/// A file's decoded records as bytes, for the incremental layer to keep between builds
/// (`ContentStep`): a rebuild after a one-post edit decodes that one file and reads every other
/// file's records back instead of parsing 30 MB of JSON and YAML again. Posts and comments keep
/// their content keys, so the page keys do not hash their fields again.
///
/// The bytes come back from the site folder, which is untrusted: reading checks every length,
/// and bytes that do not read whole are no records. Written by hand because no listed package
/// encodes these types compactly; Foundation's coders cost more than the parsers they would replace.
extension DecodedRecords {
    package var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.records(self)
        return writer.bytes
    }

    /// The records `bytes` gave, each at its place in the file at `path`.
    package init?(bytes: ArraySlice<UInt8>, path: String) {
        var reader = ByteReader(bytes, at: bytes.startIndex)
        guard let records = reader.records(path: path) else { return nil }
        self = records
    }
}

// MARK: - Records as bytes

extension ByteWriter {
    mutating func sourced(_ values: [Sourced<String>]) {
        int(values.count)
        for value in values {
            string(value.value)
            location(value.location)
        }
    }

    mutating func records(_ records: DecodedRecords) {
        int(records.prompts.count)
        for prompt in records.prompts {
            location(prompt.origin)
            string(prompt.id)
            string(prompt.title)
            string(prompt.date?.description)
            string(prompt.body)
            instant(prompt.updatedAt)
            bool(prompt.isDraft)
            string(prompt.lang?.text)
        }
        int(records.sentPrompts.count)
        for sent in records.sentPrompts {
            location(sent.origin)
            string(sent.id)
            string(sent.promptID)
            instant(sent.sentAt)
        }
        int(records.users.count)
        for record in records.users {
            let user = record.user
            location(user.origin)
            string(user.id)
            string(user.name)
            string(user.bio)
            string(user.avatar)
            strings(user.follows)
            sourced(record.follows)
            string(user.lang?.text)
        }
        int(records.posts.count)
        for record in records.posts {
            let post = record.post
            location(post.origin)
            string(post.id)
            string(post.author)
            instant(post.createdAt)
            string(post.caption)
            strings(post.extraTags)
            string(post.image)
            string(post.imageAlt)
            bool(post.location != nil)
            if let place = post.location {
                string(place.name)
                double(place.latitude)
                double(place.longitude)
            }
            bool(post.isSensitive)
            string(post.sensitiveReason)
            instant(post.updatedAt)
            bool(post.isDraft)
            string(post.lang?.text)
            bool(post.isFeatured)
            sourced(record.tags)
            uint64(post.contentKey)
        }
        int(records.comments.count)
        for comment in records.comments {
            location(comment.origin)
            string(comment.id)
            string(comment.postID)
            string(comment.author)
            instant(comment.createdAt)
            string(comment.text)
            instant(comment.updatedAt)
            bool(comment.isDraft)
            string(comment.lang?.text)
            uint64(comment.contentKey)
        }
        int(records.responses.count)
        for response in records.responses {
            location(response.origin)
            string(response.id)
            string(response.promptID)
            instant(response.createdAt)
            string(response.text)
            instant(response.updatedAt)
            bool(response.isDraft)
            string(response.lang?.text)
        }
    }
}

extension ByteReader {
    /// An item's `lang`: `.some(nil)` when it has none, `nil` when the bytes are damaged (a tag
    /// read back must still be well formed, as the reader made it).
    mutating func languageTag() -> LanguageTag?? {
        guard let text = optionalString() else { return nil }
        guard let text else { return .some(nil) }
        return LanguageTag(text).map { .some($0) }
    }

    mutating func sourced(path: String) -> [Sourced<String>]? {
        guard let count = count() else { return nil }
        var values: [Sourced<String>] = []
        for _ in 0..<count {
            guard let value = string(), let place = location(path: path), let place else { return nil }
            values.append(Sourced(value, at: place))
        }
        return values
    }

    mutating func records(path: String) -> DecodedRecords? {
        var records = DecodedRecords()
        guard let prompts = count() else { return nil }
        for _ in 0..<prompts {
            guard let origin = location(path: path), let id = string(), let title = string(), let date = optionalString(),
                let body = optionalString(), let updatedAt = optionalInstant(), let isDraft = bool(), let lang = languageTag()
            else { return nil }
            var prompt = Prompt(id: id, title: title, date: date.flatMap(CalendarDay.init), body: body, updatedAt: updatedAt, isDraft: isDraft)
            prompt.origin = origin
            prompt.lang = lang
            records.prompts.append(prompt)
        }
        guard let sent = count() else { return nil }
        for _ in 0..<sent {
            guard let origin = location(path: path), let id = string(), let promptID = string(), let sentAt = instant() else { return nil }
            var prompt = SentPrompt(id: id, promptID: promptID, sentAt: sentAt)
            prompt.origin = origin
            records.sentPrompts.append(prompt)
        }
        guard let users = count() else { return nil }
        for _ in 0..<users {
            guard let origin = location(path: path), let id = string(), let name = optionalString(), let bio = optionalString(),
                let avatar = optionalString(), let follows = strings(), let sourced = sourced(path: path), let lang = languageTag()
            else { return nil }
            var user = User(id: id, name: name, bio: bio, avatar: avatar, follows: follows)
            user.origin = origin
            user.lang = lang
            records.users.append(UserRecord(user: user, follows: sourced))
        }
        guard let posts = count() else { return nil }
        for _ in 0..<posts {
            guard let origin = location(path: path), let id = string(), let author = string(), let createdAt = instant(),
                let caption = optionalString(), let extraTags = strings(), let image = optionalString(), let imageAlt = optionalString(),
                let hasPlace = bool()
            else { return nil }
            var place: Location?
            if hasPlace {
                guard let name = string(), let latitude = optionalDouble(), let longitude = optionalDouble() else { return nil }
                place = Location(name: name, latitude: latitude, longitude: longitude)
            }
            guard let isSensitive = bool(), let reason = optionalString(), let updatedAt = optionalInstant(), let isDraft = bool(),
                let lang = languageTag(), let featured = bool(), let tags = sourced(path: path), let key = uint64()
            else { return nil }
            var post = Post(
                id: id, author: author, createdAt: createdAt, caption: caption, extraTags: extraTags, image: image, imageAlt: imageAlt,
                location: place, updatedAt: updatedAt, isDraft: isDraft)
            post.origin = origin
            post.isSensitive = isSensitive
            post.sensitiveReason = reason
            post.lang = lang
            post.isFeatured = featured
            // After the last field is set: setting one works the key out afresh.
            post.restoreContentKey(key)
            records.posts.append(PostRecord(post: post, tags: tags))
        }
        guard let comments = count() else { return nil }
        records.comments.reserveCapacity(comments)
        for _ in 0..<comments {
            guard let origin = location(path: path), let id = string(), let postID = string(), let author = string(),
                let createdAt = instant(), let text = string(), let updatedAt = optionalInstant(), let isDraft = bool(), let lang = languageTag(),
                let key = uint64()
            else { return nil }
            var comment = Comment(id: id, postID: postID, author: author, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft)
            comment.origin = origin
            comment.lang = lang
            comment.restoreContentKey(key)
            records.comments.append(comment)
        }
        guard let responses = count() else { return nil }
        for _ in 0..<responses {
            guard let origin = location(path: path), let id = string(), let promptID = string(), let createdAt = instant(),
                let text = string(), let updatedAt = optionalInstant(), let isDraft = bool(), let lang = languageTag()
            else { return nil }
            var response = Response(id: id, promptID: promptID, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft)
            response.origin = origin
            response.lang = lang
            records.responses.append(response)
        }
        return atEnd ? records : nil
    }
}
