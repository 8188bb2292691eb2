import DaybookLanguage
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

    static let fields = ViewFieldTable<Self>([.stored("url") { $0.url }, .stored("label") { $0.label }, .stored("isCurrent") { $0.isCurrent }])
}

/// Who wrote a post or comment.
struct AuthorView: ViewModel {
    var name: String
    var url: String?
    var avatar: ImageView?

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("name") { $0.name }, .stored("url") { $0.url }, .stored("avatar") { $0.avatar }, .derived("initial") { avatarInitial($0.name) }, .stored("language") { $0.language },
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
        .stored("src") { $0.src }, .stored("alt") { $0.alt }, .stored("lazy") { $0.lazy }, .stored("size") { $0.size },
        .stored("srcset") { $0.srcset }, .stored("sizes") { $0.sizes }, .stored("color") { $0.color }, .stored("largeURL") { $0.largeURL },
        .stored("thumbnailSrc") { $0.thumbnailSrc }, .stored("thumbnailSide") { $0.thumbnailSide }, .stored("sensitive") { $0.sensitive },
        .stored("sensitiveReason") { $0.sensitiveReason },
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

    static let fields = ViewFieldTable<Self>([.stored("name") { $0.name }, .stored("url") { $0.url }])
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
    /// Above the latest response on a list item: "Response", or "Latest of 3 responses".
    var responseLabel: String?
    /// The latest response's own language (§11), on its excerpt.
    var latestResponseLanguage: TextLanguage?

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("dataID") { $0.dataID }, .stored("isToday") { $0.isToday },
        .stored("isSkeleton") { $0.isSkeleton }, .stored("title") { $0.title }, .stored("url") { $0.url }, .stored("dateISO") { $0.dateISO },
        .stored("dateLabel") { $0.dateLabel }, .stored("headingLevel") { $0.headingLevel }, .stored("excerptHTML") { $0.excerptHTML },
        .stored("bodyHTML") { $0.bodyHTML }, .stored("responseCount") { $0.responseCount },
        .stored("latestResponseHTML") { $0.latestResponseHTML },
        .stored("responseLabel") { $0.responseLabel }, .stored("latestResponseLanguage") { $0.latestResponseLanguage }, .stored("language") { $0.language },
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

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("dataResponse") { $0.dataResponse },
        .derived("anchor") { Slug.make($0.dataResponse) }, .stored("dateISO") { $0.dateISO },
        .stored("dateLabel") { $0.dateLabel }, .stored("timeLabel") { $0.timeLabel }, .stored("editedISO") { $0.editedISO },
        .stored("editedLabel") { $0.editedLabel }, .stored("textHTML") { $0.textHTML }, .stored("language") { $0.language },
    ])
}

/// A post on a list page, named rather than built: the renderer builds its view and renders it
/// when it draws the page, and keeps each card's HTML (`SiteRenderer.renderItem`, `CardStore`),
/// so a 100,000-post site never holds every post's view at once (it held 250 MB of them).
/// List pages are keyed by the facts their cards read (`PageFact`), never by fingerprint, so
/// the reference need not carry what the card shows.
struct PostReference: ItemView {
    var partial: TemplateName
    var post: Post
    var inList: Bool
    var lazy: Bool

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("post") { $0.post }, .stored("inList") { $0.inList }, .stored("lazy") { $0.lazy },
    ])
}

struct PostView: ItemView {
    var partial: TemplateName
    var dataID: String?
    /// The post's id in the home page's featured section (§13, `data-featured`).
    var featuredID: String?
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

        static let fields = ViewFieldTable<Self>([.stored("name") { $0.name }, .stored("url") { $0.url }])
    }

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("dataID") { $0.dataID }, .stored("featuredID") { $0.featuredID },
        .stored("url") { $0.url }, .stored("author") { $0.author },
        .stored("dateISO") { $0.dateISO }, .stored("dateLabel") { $0.dateLabel }, .stored("timeLabel") { $0.timeLabel },
        .stored("image") { $0.image }, .stored("captionHTML") { $0.captionHTML }, .stored("location") { $0.location },
        .stored("tags") { $0.tags }, .derived("hasTags") { !$0.tags.isEmpty }, .stored("commentLabel") { $0.commentLabel },
        .stored("reportURL") { $0.reportURL },
        .stored("editedISO") { $0.editedISO }, .stored("editedLabel") { $0.editedLabel }, .stored("newerURL") { $0.newerURL },
        .stored("olderURL") { $0.olderURL }, .derived("hasNavigation") { $0.newerURL != nil || $0.olderURL != nil }, .stored("language") { $0.language },
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

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("anchor") { $0.anchor }, .stored("author") { $0.author },
        .stored("dateISO") { $0.dateISO }, .stored("dateLabel") { $0.dateLabel }, .stored("timeLabel") { $0.timeLabel },
        .stored("editedISO") { $0.editedISO }, .stored("editedLabel") { $0.editedLabel }, .stored("textHTML") { $0.textHTML }, .stored("language") { $0.language },
    ])
}

struct LinkCardView: ItemView {
    var partial = TemplateName.linkCard
    var title: String
    var text: String
    var url: String

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("title") { $0.title }, .stored("text") { $0.text }, .stored("url") { $0.url },
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
    /// `data-section` (§13): the home page's featured section says so.
    var dataSection: String?

    static let fields = ViewFieldTable<Self>([
        .stored("style") { $0.style }, .stored("heading") { $0.heading }, .stored("headingID") { $0.headingID },
        .stored("isList") { $0.isList },
        ViewField(name: "items", kind: .stored, read: { $0.items.map { $0 as Any } }, value: { .list(ItemList(items: $0.items)) }),
        // Shown only when the list is empty.
        ViewField(name: "emptyText", kind: .stored) { $0.items.isEmpty ? $0.emptyText : nil },
        .stored("moreLink") { $0.moreLink }, .stored("dataSection") { $0.dataSection },
    ])
}

struct PaginationView: ViewModel {
    var number: Int
    var count: Int
    /// "Page 2 of 5" in the site's language.
    var countLabel: String
    var previousURL: String?
    var nextURL: String?
    var previousLabel: String
    var nextLabel: String

    static let fields = ViewFieldTable<Self>([
        .stored("number") { $0.number }, .stored("count") { $0.count }, .stored("countLabel") { $0.countLabel },
        .stored("previousURL") { $0.previousURL },
        .stored("nextURL") { $0.nextURL }, .stored("previousLabel") { $0.previousLabel }, .stored("nextLabel") { $0.nextLabel },
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

    /// The heading's own language, when it is an item's text (a prompt's title, a person's name).
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("kicker") { $0.kicker }, .stored("heading") { $0.heading }, .stored("intro") { $0.intro }, .stored("sections") { $0.sections },
        // A single page has no pagination bar.
        ViewField(name: "pagination", kind: .stored) { $0.pagination.flatMap { $0.count > 1 ? $0 : nil } },
        .stored("root") { $0.root }, .stored("language") { $0.language },
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
    /// The site's language (§11), for `<html lang>`.
    var lang: String
    /// `rtl` for a language written right to left, else `nil`: `dir` is then left out.
    var dir: String?
    /// The words `preview.js` and `load-more.js` show, as JSON (`<body data-words>`), on the
    /// pages where they run (a grid, a next page): 400 bytes on each of 30,000 pages otherwise.
    var scriptWords: String?
    /// Link previews' and search engines' tags (§12); `nil` without an absolute `baseURL`.
    var head: HeadView?
    /// The site's icons (`icon` in site.yml); none without it, so no page asks for a missing one.
    var icons: [IconLinkView] = []

    static let fields = ViewFieldTable<Self>([
        .stored("title") { $0.title }, .stored("siteTitle") { $0.siteTitle }, .stored("root") { $0.root },
        .stored("bodyClass") { $0.bodyClass }, .stored("navigation") { $0.navigation }, .stored("feeds") { $0.feeds },
        .stored("footer") { $0.footer }, .stored("body") { $0.body }, .stored("lang") { $0.lang }, .stored("dir") { $0.dir },
        .stored("scriptWords") { $0.scriptWords }, .stored("head") { $0.head }, .stored("icons") { $0.icons },
    ])

    /// The keys `preview.js` and `load-more.js` read.
    static let scriptKeys = ["photoPreview", "close", "openPost", "sensitivePhoto", "showPhoto", "loadMoreFailed"]
}

/// One `<link>` to a site icon.
struct IconLinkView: ViewModel {
    var relation: String
    /// `32x32`; left out of Apple's touch icon, which has one size.
    var sizes: String?
    var url: String

    static let fields = ViewFieldTable<Self>([.stored("relation") { $0.relation }, .stored("sizes") { $0.sizes }, .stored("url") { $0.url }])
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

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("dataID") { $0.dataID }, .stored("name") { $0.name }, .stored("url") { $0.url },
        .stored("countLabel") { $0.countLabel }, .stored("avatar") { $0.avatar }, .stored("initial") { $0.initial }, .stored("language") { $0.language },
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

    /// The item's own language (§11), on the element holding its text.
    var language: TextLanguage?
    /// People to follow (§13), most followed by this person's follows first.
    var suggested: [SuggestedPersonView] = []

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("name") { $0.name }, .stored("handle") { $0.handle },
        .stored("avatar") { $0.avatar }, .derived("initial") { avatarInitial($0.name) }, .stored("bioHTML") { $0.bioHTML },
        .stored("postCountLabel") { $0.postCountLabel }, .stored("follows") { $0.follows },
        .derived("hasFollows") { !$0.follows.isEmpty }, .stored("followers") { $0.followers },
        .derived("hasFollowers") { !$0.followers.isEmpty }, .stored("feeds") { $0.feeds },
        .derived("hasFeeds") { !$0.feeds.isEmpty }, .stored("language") { $0.language },
        .stored("suggested") { $0.suggested }, .derived("hasSuggested") { !$0.suggested.isEmpty },
    ])
}

/// The search page's body: where the index is, and the no-script links to the full indexes.
struct SearchView: ItemView {
    var partial = TemplateName.search
    /// The folder of the index files (`search/`).
    var indexURL: String
    /// `SearchIndex.configuration`: the index's layout and ranking numbers, as JSON.
    var configuration: String
    var scriptURL: String
    var links: [LinkView]
    /// The words `search.js` shows, as JSON (`data-words`): its plural entries keep every form,
    /// for the browser's `Intl.PluralRules` to choose from.
    var scriptWords: String

    static let fields = ViewFieldTable<Self>([
        .stored("partial") { $0.partial.rawValue }, .stored("indexURL") { $0.indexURL }, .stored("configuration") { $0.configuration },
        .stored("scriptURL") { $0.scriptURL },
        .stored("links") { $0.links }, .stored("scriptWords") { $0.scriptWords },
    ])

    /// The keys `search.js` reads.
    static let scriptKeys = [
        "person", "hashtag", "place", "post", "comment", "journal", "postCount", "noResults", "resultCount", "showingResults", "searching",
        "searchFailed",
    ]

    static func scriptWords(_ words: ThemeWords) -> String { words.json(keys: scriptKeys) }
}

/// An item's `lang` (CONTRACT §11), with `dir` only where its direction is not the site's.
struct TextLanguage: ViewModel {
    var lang: String
    var dir: String?

    static let fields = ViewFieldTable<Self>([.stored("lang") { $0.lang }, .stored("dir") { $0.dir }])
}

/// One suggested person on a profile (§13): `data-suggested` on the link to their profile.
struct SuggestedPersonView: ViewModel {
    var id: String
    var name: String
    var url: String
    /// "Followed by Ana and 2 others".
    var label: String
    var language: TextLanguage?

    static let fields = ViewFieldTable<Self>([
        .stored("id") { $0.id }, .stored("name") { $0.name }, .stored("url") { $0.url }, .stored("label") { $0.label },
        .stored("language") { $0.language },
    ])
}
