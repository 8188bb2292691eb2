// Stable hashes of the content models, for page keys that outlive the process.
//
// Each model's hash feeds every stored property a page could show; `origin` (where the record
// was written) is left out, because moving a record inside its file changes no page. A test
// holds each list to the type's stored properties by name, so a new field cannot be forgotten.

extension StableHash {
    public mutating func combine(_ instant: Instant?) {
        if let instant { combine(instant.secondsSince1970) } else { combine("\u{0}nil") }
    }

    public mutating func combine(_ text: String?) {
        if let text { combine(text) } else { combine("\u{0}nil") }
    }

    public mutating func combine(_ flag: Bool) { combine(flag ? "\u{1}true" : "\u{1}false") }

    public mutating func combine(_ number: Int) { combine(bits: UInt64(bitPattern: Int64(number))) }

    public mutating func combine(_ day: CalendarDay?) { combine(day?.description) }

    public mutating func combine(_ prompt: Prompt) {
        combine("prompt")
        combine(prompt.id)
        combine(prompt.title)
        combine(prompt.date)
        combine(prompt.body)
        combine(prompt.updatedAt)
        combine(prompt.isDraft)
    }

    public mutating func combine(_ response: Response) {
        combine("response")
        combine(response.id)
        combine(response.promptID)
        combine(response.createdAt)
        combine(response.text)
        combine(response.updatedAt)
        combine(response.isDraft)
    }

    public mutating func combine(_ user: User) {
        combine("user")
        combine(user.id)
        combine(user.name)
        combine(user.bio)
        combine(user.avatar)
        combine(user.follows.count)
        user.follows.forEach { combine($0) }
    }

    public mutating func combine(_ location: Location?) {
        guard let location else { return combine("\u{0}nil") }
        combine(location.name)
        for coordinate in [location.latitude, location.longitude] {
            if let coordinate { combine(coordinate) } else { combine("\u{0}nil") }
        }
    }

    public mutating func combine(_ post: Post) {
        combine("post")
        combine(post.id)
        combine(post.author)
        combine(post.createdAt)
        combine(post.caption)
        combine(post.extraTags.count)
        post.extraTags.forEach { combine($0) }
        combine(post.image)
        combine(post.imageAlt)
        combine(post.location)
        combine(post.isSensitive)
        combine(post.sensitiveReason)
        combine(post.updatedAt)
        combine(post.isDraft)
    }

    public mutating func combine(_ comment: Comment) {
        combine("comment")
        combine(comment.id)
        combine(comment.postID)
        combine(comment.author)
        combine(comment.createdAt)
        combine(comment.text)
        combine(comment.updatedAt)
        combine(comment.isDraft)
    }
}
