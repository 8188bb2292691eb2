/// Everything a site's `content/` holds, decoded and validated, in no particular order.
///
/// The feed core decides every order; nothing here depends on file names or read order.
public struct SiteContent: Sendable, Hashable {
    public var prompts: [Prompt]
    public var sentPrompts: [SentPrompt]
    public var users: [User]
    public var posts: [Post]
    public var comments: [Comment]
    /// The site owner's answers to prompts.
    public var responses: [Response]

    public init(
        prompts: [Prompt] = [], sentPrompts: [SentPrompt] = [], users: [User] = [], posts: [Post] = [],
        comments: [Comment] = [], responses: [Response] = []
    ) {
        self.responses = responses
        self.prompts = prompts
        self.sentPrompts = sentPrompts
        self.users = users
        self.posts = posts
        self.comments = comments
    }
}
