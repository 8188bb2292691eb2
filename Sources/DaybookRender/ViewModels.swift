import Mustache

/// Stands for a field that has no value. Mustache looks a missing name up in the enclosing
/// contexts, so a post without a location would otherwise pick up the post's own `url`; this
/// value is present but renders as nothing and counts as false in sections.
struct Absent: MustacheCustomRenderable, Sendable {
    var renderText: String { "" }
    var isNull: Bool { true }
}

func orAbsent(_ value: Any?) -> Any { value ?? Absent() }

// View models: what a template can read, named explicitly. Each conforms to `MustacheParent`
// so Mustache looks fields up through one `switch` instead of reflection (Mirror), which is
// both faster and keeps the template's vocabulary visible in one place.

/// A link with its text.
struct LinkView: Sendable, MustacheParent {
    var url: String
    var label: String
    var isCurrent = false

    func child(named name: String) -> Any? {
        switch name {
        case "url": url
        case "label": label
        case "isCurrent": isCurrent
        default: nil
        }
    }
}

/// Who wrote a post or comment.
struct AuthorView: Sendable, MustacheParent {
    var name: String
    var url: String?
    var avatar: ImageView?

    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": orAbsent(url)
        case "avatar": orAbsent(avatar)
        case "initial": self.name.first.map { String($0).uppercased() } ?? "?"
        default: nil
        }
    }
}

struct ImageView: Sendable, MustacheParent {
    var src: String
    var alt: String
    var lazy: Bool
    /// Read from the file's header, so the browser reserves the space before the image arrives.
    var size: ImageSize?

    func child(named name: String) -> Any? {
        switch name {
        case "src": src
        case "alt": alt
        case "lazy": lazy
        case "width": orAbsent(size?.width)
        case "height": orAbsent(size?.height)
        case "isPortrait": (size.map { $0.height > $0.width }) ?? false
        default: nil
        }
    }
}

/// A place a post names; `url` is nil while the place has no page.
struct PlaceView: Sendable, MustacheParent {
    var name: String
    var url: String?

    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "url": orAbsent(url)
        default: nil
        }
    }
}

/// One item of a page. The page template renders it through the partial it names, the way a
/// list cell configures itself: a page can mix item kinds freely.
protocol ItemView: Sendable, MustacheParent {
    /// The partial (a file in `Templates/`) that renders this item.
    var partial: String { get }
}

struct JournalEntryView: ItemView {
    var partial: String
    var dataID: String?
    var isToday: Bool
    var isSkeleton: Bool
    var title: String
    var url: String
    var dateISO: String
    var dateLabel: String
    var headingLevel: Int
    var excerptHTML: String?
    var bodyHTML: String?

    func child(named name: String) -> Any? {
        switch name {
        case "partial": partial
        case "dataID": orAbsent(dataID)
        case "isToday": isToday
        case "isSkeleton": isSkeleton
        case "title": title
        case "url": url
        case "dateISO": dateISO
        case "dateLabel": dateLabel
        case "headingLevel": headingLevel
        case "excerptHTML": orAbsent(excerptHTML)
        case "bodyHTML": orAbsent(bodyHTML)
        default: nil
        }
    }
}

struct PostView: ItemView {
    var partial: String
    var dataID: String?
    var url: String
    var author: AuthorView
    var dateISO: String
    var dateLabel: String
    var timeLabel: String
    var image: ImageView?
    var captionHTML: String?
    var location: PlaceView?
    var tags: [LinkTag]
    var commentLabel: String

    struct LinkTag: Sendable, MustacheParent {
        var name: String
        var url: String
        func child(named key: String) -> Any? {
            switch key {
            case "name": name
            case "url": url
            default: nil
            }
        }
    }

    func child(named name: String) -> Any? {
        switch name {
        case "partial": partial
        case "dataID": orAbsent(dataID)
        case "url": url
        case "author": author
        case "dateISO": dateISO
        case "dateLabel": dateLabel
        case "timeLabel": timeLabel
        case "image": orAbsent(image)
        case "captionHTML": orAbsent(captionHTML)
        case "location": orAbsent(location)
        case "tags": tags
        case "hasTags": !tags.isEmpty
        case "commentLabel": commentLabel
        default: nil
        }
    }
}

struct CommentView: ItemView {
    var partial = "item-comment"
    var anchor: String
    var author: AuthorView
    var dateISO: String
    var dateLabel: String
    var textHTML: String

    func child(named name: String) -> Any? {
        switch name {
        case "partial": partial
        case "anchor": anchor
        case "author": author
        case "dateISO": dateISO
        case "dateLabel": dateLabel
        case "textHTML": textHTML
        default: nil
        }
    }
}

struct LinkCardView: ItemView {
    var partial = "item-link-card"
    var title: String
    var text: String
    var url: String

    func child(named name: String) -> Any? {
        switch name {
        case "partial": partial
        case "title": title
        case "text": text
        case "url": url
        default: nil
        }
    }
}

/// A group of items on a page, optionally a list (`<ol>`) with a heading.
struct SectionView: Sendable, MustacheParent {
    var style: String
    var heading: String?
    var headingID: String?
    var isList: Bool
    var items: [any ItemView]
    var emptyText: String?
    var moreLink: LinkView?

    func child(named name: String) -> Any? {
        switch name {
        case "style": style
        case "heading": orAbsent(heading)
        case "headingID": orAbsent(headingID)
        case "isList": isList
        case "items": items.map { $0 as Any }
        case "emptyText": orAbsent(items.isEmpty ? emptyText : nil)
        case "moreLink": orAbsent(moreLink)
        default: nil
        }
    }
}

struct PaginationView: Sendable, MustacheParent {
    var number: Int
    var count: Int
    var previousURL: String?
    var nextURL: String?
    var previousLabel: String
    var nextLabel: String

    func child(named name: String) -> Any? {
        switch name {
        case "number": number
        case "count": count
        case "previousURL": orAbsent(previousURL)
        case "nextURL": orAbsent(nextURL)
        case "previousLabel": previousLabel
        case "nextLabel": nextLabel
        default: nil
        }
    }
}

/// The body of an ordinary page: a header and sections of items, with optional pagination.
struct PageBodyView: Sendable, MustacheParent {
    var kicker: String?
    var heading: String
    var intro: String?
    var sections: [SectionView]
    var pagination: PaginationView?
    var root: String

    func child(named name: String) -> Any? {
        switch name {
        case "kicker": orAbsent(kicker)
        case "heading": heading
        case "intro": orAbsent(intro)
        case "sections": sections
        case "pagination": orAbsent(pagination.flatMap { $0.count > 1 ? $0 : nil })
        case "root": root
        default: nil
        }
    }
}

/// What the layout around every page reads.
struct LayoutView: Sendable, MustacheParent {
    var title: String
    var siteTitle: String
    var root: String
    var bodyClass: String
    var navigation: [LinkView]
    var feeds: [LinkView]
    var body: String

    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "siteTitle": siteTitle
        case "root": root
        case "bodyClass": bodyClass
        case "navigation": navigation
        case "feeds": feeds
        case "body": body
        default: nil
        }
    }
}

/// A row of the tag, user or location index: a name, a count, a link.
struct GroupRowView: ItemView {
    var partial: String
    var dataID: String
    var name: String
    var url: String
    var countLabel: String
    var avatar: ImageView?
    var initial: String

    func child(named key: String) -> Any? {
        switch key {
        case "partial": partial
        case "dataID": dataID
        case "name": name
        case "url": url
        case "countLabel": countLabel
        case "avatar": orAbsent(avatar)
        case "initial": initial
        default: nil
        }
    }
}

/// The head of a user's page: who they are, whom they follow and who follows them.
struct ProfileView: ItemView {
    var partial = "item-profile"
    var name: String
    var handle: String
    var avatar: ImageView?
    var bioHTML: String?
    var postCountLabel: String
    var follows: [LinkView]
    var followers: [LinkView]

    func child(named key: String) -> Any? {
        switch key {
        case "partial": partial
        case "name": name
        case "handle": handle
        case "avatar": orAbsent(avatar)
        case "initial": name.first.map { String($0).uppercased() } ?? "?"
        case "bioHTML": orAbsent(bioHTML)
        case "postCountLabel": postCountLabel
        case "follows": follows
        case "hasFollows": !follows.isEmpty
        case "followers": followers
        case "hasFollowers": !followers.isEmpty
        default: nil
        }
    }
}

/// The search page's body: where the index is, and the no-script links to the full indexes.
struct SearchView: ItemView {
    var partial = "item-search"
    var indexURL: String
    var scriptURL: String
    var links: [LinkView]

    func child(named key: String) -> Any? {
        switch key {
        case "partial": partial
        case "indexURL": indexURL
        case "scriptURL": scriptURL
        case "links": links
        default: nil
        }
    }
}
