/// The site owner's written answer to a prompt (CONTRACT §8): shown on the prompt's journal
/// entry page, counted in the journal list, and carried by the journal feed.
package struct Response: Sendable, Hashable, Identifiable {
    /// Where the record was read from, for diagnostics that name it; `nil` for records built in code.
    package var origin: SourceLocation?
    package var id: String
    package var promptID: String
    package var createdAt: Instant
    /// CommonMark source; rendered safely, never trusted.
    package var text: String
    package var updatedAt: Instant?
    package var isDraft: Bool
    /// `lang` (§11): the language of the text, when not the site's.
    package var lang: LanguageTag?

    package init(
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
    package var lastChanged: Instant { max(createdAt, updatedAt ?? createdAt) }
}

extension Post {
    /// When the post last changed: its edit, else its creation.
    package var lastChanged: Instant { max(createdAt, updatedAt ?? createdAt) }
}

extension Comment {
    /// When the comment last changed: its edit, else its writing.
    package var lastChanged: Instant { max(createdAt, updatedAt ?? createdAt) }
}
