import DaybookModel
import Mustache

// View models: what a template can read, named explicitly. Each has one field table (see
// `ViewField`): Mustache looks names up through it instead of reflection (Mirror), which is
// faster and keeps the template's vocabulary visible in one place, and the page fingerprint
// hashes the table's stored fields, so the two cannot disagree.

/// A link with its text.
struct LinkView: ViewModel {
    var url: String
    var label: String
    var isCurrent = false

    static let fields = ViewFieldTable<Self>([.stored("url", \.url), .stored("label", \.label), .stored("isCurrent", \.isCurrent)])
}

/// Who wrote a post or comment.
struct AuthorView: ViewModel {
    var name: String
    var url: String?
    var avatar: ImageView?

    static let fields = ViewFieldTable<Self>([
        .stored("name", \.name), .stored("url", \.url), .stored("avatar", \.avatar), .derived("initial") { avatarInitial($0.name) },
    ])
}

/// The letter shown in place of a missing avatar.
func avatarInitial(_ name: String) -> String { name.first.map { String($0).uppercased() } ?? "?" }

struct ImageView: ViewModel {
    var src: String
    var alt: String
    var lazy: Bool
    /// Read from the file's header, so the browser reserves the space before the image arrives.
    var size: ImageSize?
    // Responsive copies, placeholder colour and sensitivity (CONTRACT §7), set by `PageBuilder.photo`.
    var srcset: String?
    var sizes: String?
    /// `#rrggbb`, the placeholder background while the photo loads.
    var color: String?
    /// The widest copy, for the preview dialog and the no-script link of a sensitive photo.
    var largeURL: String?
    var thumbnailSrc: String?
    var thumbnailSide: Int?
    var sensitive = false
    var sensitiveReason: String?

    static let fields = ViewFieldTable<Self>([
        .stored("src", \.src), .stored("alt", \.alt), .stored("lazy", \.lazy), .stored("size", \.size),
        .stored("srcset", \.srcset), .stored("sizes", \.sizes), .stored("color", \.color), .stored("largeURL", \.largeURL),
        .stored("thumbnailSrc", \.thumbnailSrc), .stored("thumbnailSide", \.thumbnailSide), .stored("sensitive", \.sensitive),
        .stored("sensitiveReason", \.sensitiveReason),
        .derived("width") { $0.size?.width }, .derived("height") { $0.size?.height },
        .derived("isPortrait") { $0.size.map { $0.height > $0.width } ?? false },
        // A photo in a card links to its post: `{{url}}` inside `{{#image}}` is the post's.
        .inherited("url"),
    ])
}

/// A place a post names; `url` is nil while the place has no page.
struct PlaceView: ViewModel {
    var name: String
    var url: String?

    static let fields = ViewFieldTable<Self>([.stored("name", \.name), .stored("url", \.url)])
}

/// One item of a page. The page template renders it through the partial it names, the way a
/// list cell configures itself: a page can mix item kinds freely.
protocol ItemView: ViewModel {
    /// The partial (a file in `Templates/`) that renders this item.
    var partial: TemplateName { get }
}

struct JournalEntryView: ItemView {
    var partial: TemplateName
    var dataID: String?
    var isToday: Bool
    var isSkeleton: Bool
    var title: String
    var url: String
    /// The day as `YYYY-MM-DD`, for `<time datetime>`; `dateLabel` is the same day for people.
    var dateISO: String
    var dateLabel: String
    var headingLevel: Int
    var excerptHTML: String?
    var bodyHTML: String?
    /// How many responses the entry shows, on a list item that has any (`data-responses`).
    var responseCount: Int?
    /// The first paragraph of the latest response, on a list item.
    var latestResponseHTML: String?

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("dataID", \.dataID), .stored("isToday", \.isToday),
        .stored("isSkeleton", \.isSkeleton), .stored("title", \.title), .stored("url", \.url), .stored("dateISO", \.dateISO),
        .stored("dateLabel", \.dateLabel), .stored("headingLevel", \.headingLevel), .stored("excerptHTML", \.excerptHTML),
        .stored("bodyHTML", \.bodyHTML), .stored("responseCount", \.responseCount),
        .stored("latestResponseHTML", \.latestResponseHTML),
        .derived("responseLabel") { entry in
            entry.responseCount.map { $0 == 1 ? "Response" : "Latest of \($0) responses" } ?? "Latest response"
        },
    ])
}

/// One of the site owner's responses on a journal entry page (`data-response`).
struct ResponseView: ItemView {
    var partial = TemplateName.response
    var dataResponse: String
    /// The instant in UTC (RFC 3339) for `<time datetime>`; the labels are in the site's zone.
    var dateISO: String
    var dateLabel: String
    var timeLabel: String
    /// The last edit, when there was one.
    var editedISO: String?
    var editedLabel: String?
    var textHTML: String

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("dataResponse", \.dataResponse),
        .derived("anchor") { Slug.make($0.dataResponse) }, .stored("dateISO", \.dateISO),
        .stored("dateLabel", \.dateLabel), .stored("timeLabel", \.timeLabel), .stored("editedISO", \.editedISO),
        .stored("editedLabel", \.editedLabel), .stored("textHTML", \.textHTML),
    ])
}

/// A post on a list page, named rather than built: the renderer builds its view and renders it
/// when it draws the page, and keeps each card's HTML (`SiteRenderer.renderItem`, `CardStore`),
/// so a 100,000-post site never holds every post's view at once (it held 250 MB of them).
/// List pages are keyed by the posts' versions (`PageKeys`), never by fingerprint, so the
/// reference need not carry what the card shows.
struct PostReference: ItemView {
    var partial: TemplateName
    var post: Post
    var inList: Bool
    var lazy: Bool

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("post", \.post), .stored("inList", \.inList), .stored("lazy", \.lazy),
    ])
}

struct PostView: ItemView {
    var partial: TemplateName
    var dataID: String?
    var url: String
    var author: AuthorView
    /// The instant in UTC (RFC 3339), for `<time datetime>`; the labels are in the site's zone.
    var dateISO: String
    var dateLabel: String
    var timeLabel: String
    var image: ImageView?
    var captionHTML: String?
    var location: PlaceView?
    var tags: [LinkTag]
    var commentLabel: String
    /// `report` with this post's address (CONTRACT §7), on the post's own page only.
    var reportURL: String? = nil
    /// The last edit (RFC 3339 and the day for people), when there was one.
    var editedISO: String?
    var editedLabel: String?
    /// The author's next newer and next older post, on the post's own page only (`data-nav`).
    var newerURL: String?
    var olderURL: String?

    struct LinkTag: ViewModel {
        var name: String
        var url: String

        static let fields = ViewFieldTable<Self>([.stored("name", \.name), .stored("url", \.url)])
    }

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("dataID", \.dataID), .stored("url", \.url), .stored("author", \.author),
        .stored("dateISO", \.dateISO), .stored("dateLabel", \.dateLabel), .stored("timeLabel", \.timeLabel),
        .stored("image", \.image), .stored("captionHTML", \.captionHTML), .stored("location", \.location),
        .stored("tags", \.tags), .derived("hasTags") { !$0.tags.isEmpty }, .stored("commentLabel", \.commentLabel),
        .stored("reportURL", \.reportURL),
        .stored("editedISO", \.editedISO), .stored("editedLabel", \.editedLabel), .stored("newerURL", \.newerURL),
        .stored("olderURL", \.olderURL), .derived("hasNavigation") { $0.newerURL != nil || $0.olderURL != nil },
    ])
}

struct CommentView: ItemView {
    var partial = TemplateName.comment
    var anchor: String
    var author: AuthorView
    var dateISO: String
    var dateLabel: String
    /// `HH:MM` in the site's zone: a conversation needs the time, not only the day.
    var timeLabel: String
    var editedISO: String?
    var editedLabel: String?
    var textHTML: String

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("anchor", \.anchor), .stored("author", \.author),
        .stored("dateISO", \.dateISO), .stored("dateLabel", \.dateLabel), .stored("timeLabel", \.timeLabel),
        .stored("editedISO", \.editedISO), .stored("editedLabel", \.editedLabel), .stored("textHTML", \.textHTML),
    ])
}

struct LinkCardView: ItemView {
    var partial = TemplateName.linkCard
    var title: String
    var text: String
    var url: String

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("title", \.title), .stored("text", \.text), .stored("url", \.url),
    ])
}

/// A group of items on a page, optionally a list (`<ol>`) with a heading.
struct SectionView: ViewModel {
    var style: String
    var heading: String?
    var headingID: String?
    var isList: Bool
    var items: [any ItemView]
    var emptyText: String?
    var moreLink: LinkView?

    static let fields = ViewFieldTable<Self>([
        .stored("style", \.style), .stored("heading", \.heading), .stored("headingID", \.headingID),
        .stored("isList", \.isList),
        ViewField(name: "items", kind: .stored, read: { $0.items.map { $0 as Any } }, value: { .list(ItemList(items: $0.items)) }),
        // Shown only when the list is empty.
        ViewField(name: "emptyText", kind: .stored) { $0.items.isEmpty ? $0.emptyText : nil },
        .stored("moreLink", \.moreLink),
    ])
}

struct PaginationView: ViewModel {
    var number: Int
    var count: Int
    var previousURL: String?
    var nextURL: String?
    var previousLabel: String
    var nextLabel: String

    static let fields = ViewFieldTable<Self>([
        .stored("number", \.number), .stored("count", \.count), .stored("previousURL", \.previousURL),
        .stored("nextURL", \.nextURL), .stored("previousLabel", \.previousLabel), .stored("nextLabel", \.nextLabel),
    ])
}

/// The body of an ordinary page: a header and sections of items, with optional pagination.
struct PageBodyView: ViewModel {
    var kicker: String?
    var heading: String
    var intro: String?
    var sections: [SectionView]
    var pagination: PaginationView?
    var root: String

    static let fields = ViewFieldTable<Self>([
        .stored("kicker", \.kicker), .stored("heading", \.heading), .stored("intro", \.intro), .stored("sections", \.sections),
        // A single page has no pagination bar.
        ViewField(name: "pagination", kind: .stored) { $0.pagination.flatMap { $0.count > 1 ? $0 : nil } },
        .stored("root", \.root),
    ])
}

/// What the layout around every page reads.
struct LayoutView: ViewModel {
    var title: String
    var siteTitle: String
    var root: String
    var bodyClass: String
    var navigation: [LinkView]
    var feeds: [LinkView]
    /// The footer's links to the indexes and feeds.
    var footer: [LinkView]
    var body: String

    static let fields = ViewFieldTable<Self>([
        .stored("title", \.title), .stored("siteTitle", \.siteTitle), .stored("root", \.root),
        .stored("bodyClass", \.bodyClass), .stored("navigation", \.navigation), .stored("feeds", \.feeds),
        .stored("footer", \.footer), .stored("body", \.body),
    ])
}

/// A row of the tag, user or location index: a name, a count, a link.
struct GroupRowView: ItemView {
    var partial: TemplateName
    var dataID: String
    var name: String
    var url: String
    var countLabel: String
    var avatar: ImageView?
    var initial: String

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("dataID", \.dataID), .stored("name", \.name), .stored("url", \.url),
        .stored("countLabel", \.countLabel), .stored("avatar", \.avatar), .stored("initial", \.initial),
    ])
}

/// The head of a user's page: who they are, whom they follow and who follows them.
struct ProfileView: ItemView {
    var partial = TemplateName.profile
    var name: String
    var handle: String
    var avatar: ImageView?
    var bioHTML: String?
    var postCountLabel: String
    var follows: [LinkView]
    var followers: [LinkView]
    /// The person's posts feed and the feed of comments on their posts.
    var feeds: [LinkView] = []

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("name", \.name), .stored("handle", \.handle),
        .stored("avatar", \.avatar), .derived("initial") { avatarInitial($0.name) }, .stored("bioHTML", \.bioHTML),
        .stored("postCountLabel", \.postCountLabel), .stored("follows", \.follows),
        .derived("hasFollows") { !$0.follows.isEmpty }, .stored("followers", \.followers),
        .derived("hasFollowers") { !$0.followers.isEmpty }, .stored("feeds", \.feeds),
        .derived("hasFeeds") { !$0.feeds.isEmpty },
    ])
}

/// The search page's body: where the index is, and the no-script links to the full indexes.
struct SearchView: ItemView {
    var partial = TemplateName.search
    var indexURL: String
    var scriptURL: String
    var links: [LinkView]

    static let fields = ViewFieldTable<Self>([
        .stored("partial", \.partial.rawValue), .stored("indexURL", \.indexURL), .stored("scriptURL", \.scriptURL),
        .stored("links", \.links),
    ])
}
