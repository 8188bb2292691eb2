/// The templates the renderer calls by name: `Templates/<rawValue>.mustache` each.
///
/// One enum, so a page builder cannot name a partial the theme check does not know, and the
/// theme check cannot forget one the builders use.
enum TemplateName: String, CaseIterable, Sendable {
    case layout
    case page
    case pagination
    case notFound = "404"
    case journalEntry = "item-journal-entry"
    case journalEntryFull = "item-journal-entry-full"
    case skeleton = "item-skeleton"
    case postCard = "item-post-card"
    /// A post as a square thumbnail in a profile's photo grid.
    case gridPhoto = "item-grid-photo"
    case post = "item-post"
    case comment = "item-comment"
    case response = "item-response"
    case linkCard = "item-link-card"
    case tagRow = "item-tag"
    case userRow = "item-user"
    case locationRow = "item-location"
    case profile = "item-profile"
    case search = "item-search"
    /// Registered by the renderer itself: prints an item rendered ahead of its page.
    case prerendered = "daybook-prerendered-item"

    /// The templates a theme must provide: all but the renderer's own.
    static var themeTemplates: [TemplateName] { allCases.filter { $0 != .prerendered } }
}

/// The part of the site a page belongs to: the navigation marks it with `aria-current`.
enum SiteSection: String, Sendable, Hashable {
    case home
    case journal
    case timeline
    case search
    case tags
    case users
    case locations

    /// The site navigation, in order, with each entry's label as a key of the theme's words.
    static let navigation: [(section: SiteSection, word: String)] = [
        (.journal, "journal"), (.timeline, "timeline"), (.search, "search"),
    ]
}
