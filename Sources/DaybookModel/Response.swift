/// The site owner's written answer to a prompt (CONTRACT §8): shown on the prompt's journal
/// entry page, counted in the journal list, and carried by the journal feed.
public struct Response: Sendable, Hashable, Identifiable {
    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    public var origin: SourceLocation?
    public var id: String
    public var promptID: String
    public var createdAt: Instant
    /// CommonMark source; rendered safely, never trusted.
    public var text: String
    public var updatedAt: Instant?
    public var isDraft: Bool

    public init(
        id: String, promptID: String, createdAt: Instant, text: String, updatedAt: Instant? = nil, isDraft: Bool = false
    ) {
        self.id = id
        self.promptID = promptID
        self.createdAt = createdAt
        self.text = text
        self.updatedAt = updatedAt
        self.isDraft = isDraft
    }

    /// When the response last changed: its edit, else its writing.
    public var lastChanged: Instant { max(createdAt, updatedAt ?? createdAt) }
}

extension Post {
    /// When the post last changed: its edit, else its creation.
    public var lastChanged: Instant { max(createdAt, updatedAt ?? createdAt) }
}

extension Comment {
    /// When the comment last changed: its edit, else its writing.
    public var lastChanged: Instant { max(createdAt, updatedAt ?? createdAt) }
}
