import DaybookFeed
import DaybookModel

extension PageBuilder {
    /// What distinguishes one list's page from another's; everything else is the same page.
    struct ListDescription {
        var count: Int
        var base: String
        var name: String
        /// Above the heading on page 1; later pages add "· Page K".
        var kicker: String?
        /// Under the heading, on page 1 only.
        var intro: String?
        /// Sections above the list, on page 1 only (a user's profile).
        var head: [SectionView] = []
        var style: String
        var emptyText: String
        var bodyClass: String
        var current: SiteSection
        var feeds: [LinkView] = []
        var previousLabel = "Newer"
        var nextLabel = "Older"
        /// The views of the items in `range` (positions in the whole list).
        var items: (Range<Int>) -> [any ItemView]
    }

    /// The one table of list pages: each list's items, address and wording.
    func describe(_ list: SiteList) -> ListDescription {
        let feeds = input.feeds
        let count = list.count(in: feeds)
        let base = list.base(in: feeds)
        switch list {
        case .journal:
            return ListDescription(
                count: count, base: base, name: "Journal", intro: "Daily prompts, newest first.", style: "entries",
                emptyText: "No prompts yet.", bodyClass: "page-list page-journal", current: .journal, feeds: [journalFeed],
                items: { feeds.journal[$0].map { entryItem($0, headingLevel: 2, inList: true) } })
        case .timeline:
            if let id = input.config.timelineViewer { reads?.record(.person(id)) }
            let viewer = input.config.timelineViewer.flatMap { feeds.usersByID[$0] }
            return postList(
                feeds.timeline, count: count, base: base, name: "Timeline",
                intro: viewer.map { "Posts by \($0.displayName) and the people they follow." } ?? "Photos, newest first.",
                bodyClass: "page-list page-timeline", current: .timeline, feeds: [timelineFeed])
        case .index(let kind):
            let groups = kind.groups(in: feeds.indexes)
            let (name, intro): (String, String) =
                switch kind {
                case .tags: ("Hashtags", "Every hashtag, most used first.")
                case .users: ("People", "Everyone on the timeline, by name.")
                case .locations: ("Places", "Every place, most photographed first.")
                }
            return ListDescription(
                count: count, base: base, name: name, intro: intro, style: kind.rawValue, emptyText: "Nothing here yet.",
                bodyClass: "page-list page-\(kind.rawValue)", current: kind.section, previousLabel: "Previous", nextLabel: "Next",
                items: { groups[$0].map { row(kind, $0) } })
        case .group(let kind, let index):
            let group = kind.groups(in: feeds.indexes)[index]
            switch kind {
            case .tags:
                return postList(
                    group.posts, count: count, base: base, name: "#\(group.name)", kicker: "Hashtag",
                    intro: self.count(count, "post", "posts"), bodyClass: "page-list page-tag", current: .tags)
            case .users:
                // Read whether or not the person has a record: one added later gives the page its profile.
                reads?.record(.profile(group.id))
                let user = feeds.usersByID[group.id]
                return postList(
                    group.posts, count: count, base: base, name: group.name, kicker: "Profile", partial: .gridPhoto, style: "grid",
                    head: user.map { [SectionView(style: "profile", isList: false, items: [profile($0, postCount: count)])] } ?? [],
                    bodyClass: "page-list page-user", current: .users,
                    // CONTRACT §5: a profile links its two feeds.
                    feeds: [
                        LinkView(url: urls.link(SiteURLs.userFeed(group.id)), label: "\(group.name): posts"),
                        LinkView(url: urls.link(SiteURLs.userCommentsFeed(group.id)), label: "\(group.name): comments on their posts"),
                    ])
            case .locations:
                return postList(
                    group.posts, count: count, base: base, name: group.name, kicker: "Place",
                    intro: self.count(count, "post", "posts"), bodyClass: "page-list page-location", current: .locations)
            }
        }
    }

    /// A list of posts: the timeline, a tag, a user, a location.
    private func postList(
        _ posts: [Post], count: Int, base: String, name: String, kicker: String? = nil, partial: TemplateName = .postCard,
        style: String = "posts", intro: String? = nil, head: [SectionView] = [], bodyClass: String, current: SiteSection,
        feeds: [LinkView] = []
    ) -> ListDescription {
        ListDescription(
            count: count, base: base, name: name, kicker: kicker, intro: intro, head: head, style: style,
            emptyText: "No posts yet.", bodyClass: bodyClass, current: current, feeds: feeds,
            items: { range in
                // The first two cards of the first page are likely on screen; later images load lazily.
                posts[range].enumerated().map { offset, post in
                    PostReference(partial: partial, post: post, inList: true, lazy: offset >= 2 || range.lowerBound > 0)
                }
            })
    }

    /// Page `number` of any list.
    func listPage(_ list: SiteList, _ number: Int) -> BuiltPage {
        let description = describe(list)
        let page = paginator.page(number, count: description.count, items: description.items)
        let hasHead = !description.head.isEmpty
        let section = SectionView(
            style: description.style, heading: hasHead ? "Posts" : nil, headingID: hasHead ? "posts" : nil, isList: true,
            items: page.items, emptyText: description.emptyText)
        return BuiltPage(
            body: PageBodyView(
                kicker: number > 1 ? "\(description.kicker.map { "\($0) · " } ?? "")Page \(number)" : description.kicker,
                heading: description.name, intro: number == 1 ? description.intro : nil,
                sections: (number == 1 ? description.head : []) + [section],
                pagination: pagination(page, base: description.base, previous: description.previousLabel, next: description.nextLabel),
                root: urls.root),
            title: title(description.name, page: number), bodyClass: description.bodyClass, current: description.current,
            feeds: description.feeds)
    }
}
