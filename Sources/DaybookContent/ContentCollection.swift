/// The six collections of CONTRACT §2 and the facts about each that loading needs.
public enum ContentCollection: String, Sendable, CaseIterable {
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

    var knownKeys: Set<String> {
        switch self {
        case .prompts: ["id", "title", "date", "body", "updatedAt", "draft"]
        case .sentPrompts: ["id", "promptId", "sentAt"]
        case .responses: ["id", "promptId", "createdAt", "text", "updatedAt", "draft"]
        case .users: ["id", "name", "bio", "avatar", "follows"]
        case .posts: ["id", "author", "createdAt", "caption", "tags", "image", "imageAlt", "location", "sensitive", "updatedAt", "draft"]
        case .comments: ["id", "postId", "author", "createdAt", "text", "updatedAt", "draft"]
        }
    }
}
