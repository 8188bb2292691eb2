/// The six collections of CONTRACT §2 and the facts about each that loading needs.
package enum ContentCollection: String, Sendable, CaseIterable {
    case prompts
    case sentPrompts = "sent-prompts"
    case responses
    case users
    case posts
    case comments

    /// The field that the text after a Markdown item's front matter fills; `nil` for sent prompts.
    var mainTextField: String? {
        switch self {
        case .prompts: "body"
        case .sentPrompts: nil
        case .responses: "text"
        case .users: "bio"
        case .posts: "caption"
        case .comments: "text"
        }
    }

    /// How messages name one item: "prompt", "sent prompt", …
    var singular: String {
        switch self {
        case .prompts: "prompt"
        case .sentPrompts: "sent prompt"
        case .responses: "response"
        case .users: "user"
        case .posts: "post"
        case .comments: "comment"
        }
    }

    /// The keys a record of this collection may have. Kept once per collection and searched in
    /// order: building a set of them for each of 100,000 comments, and hashing every key into it,
    /// was a tenth of decoding a list file.
    var knownKeys: [String] {
        switch self {
        case .prompts: Self.promptKeys
        case .sentPrompts: Self.sentPromptKeys
        case .responses: Self.responseKeys
        case .users: Self.userKeys
        case .posts: Self.postKeys
        case .comments: Self.commentKeys
        }
    }

    private static let promptKeys = ["id", "title", "date", "body", "updatedAt", "draft", "lang"]
    private static let sentPromptKeys = ["id", "promptId", "sentAt"]
    private static let responseKeys = ["id", "promptId", "createdAt", "text", "updatedAt", "draft", "lang"]
    private static let userKeys = ["id", "name", "bio", "avatar", "follows", "lang"]
    private static let postKeys = ["id", "author", "createdAt", "caption", "tags", "image", "imageAlt", "location", "sensitive", "updatedAt", "draft", "lang", "featured"]
    private static let commentKeys = ["id", "postId", "author", "createdAt", "text", "updatedAt", "draft", "lang"]
}
