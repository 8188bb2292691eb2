/// Everything a site's `content/` holds, decoded and validated, in no particular order.
///
/// The feed core decides every order; nothing here depends on file names or read order.
package struct SiteContent: Sendable, Hashable {
    package var prompts: [Prompt]
    package var sentPrompts: [SentPrompt]
    package var users: [User]
    package var posts: [Post]
    package var comments: [Comment]
    /// The site owner's answers to prompts.
    package var responses: [Response]

    package init(
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
