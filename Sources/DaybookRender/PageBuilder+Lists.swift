import DaybookFeed
import DaybookLanguage
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
        /// Keys of the theme's words for the links to the previous and next pages.
        var previousWord = "newer"
        var nextWord = "older"
        /// The heading's own language, when it is an item's text (a person's name).
        var language: TextLanguage?
        /// What the page says of itself to link previews (§12), when not its intro.
        var summary: PageSummary?
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
                count: count, base: base, name: words["journal"], intro: words["journalIntro"], style: "entries",
                emptyText: words["noPrompts"], bodyClass: "page-list page-journal", current: .journal, feeds: [journalFeed],
                items: { feeds.journal[$0].map { entryItem($0, headingLevel: 2, inList: true) } })
        case .timeline:
            if let id = input.config.timelineViewer { reads?.record(.person(id)) }
            let viewer = input.config.timelineViewer.flatMap { feeds.usersByID[$0] }
            return postList(
                feeds.timeline, count: count, base: base, name: words["timeline"],
                intro: viewer.map { words.text("timelineIntroFor", ["name": $0.displayName]) } ?? words["timelineIntro"],
                bodyClass: "page-list page-timeline", current: .timeline, feeds: [timelineFeed])
        case .index(let kind):
            let groups = kind.groups(in: feeds.indexes)
            let (name, intro): (String, String) =
                switch kind {
                case .tags: ("hashtags", "hashtagsIntro")
                case .users: ("people", "peopleIntro")
                case .locations: ("places", "placesIntro")
                }
            return ListDescription(
                count: count, base: base, name: words[name], intro: words[intro], style: kind.rawValue, emptyText: words["nothingYet"],
                bodyClass: "page-list page-\(kind.rawValue)", current: kind.section, previousWord: "previous", nextWord: "next",
                items: { groups[$0].map { row(kind, $0) } })
        case .group(let kind, let index):
            let group = kind.groups(in: feeds.indexes)[index]
            switch kind {
            case .tags:
                return postList(
                    group.posts, count: count, base: base, name: "#\(group.name)", kicker: words["hashtag"],
                    intro: self.count("postCount", count), bodyClass: "page-list page-tag", current: .tags)
            case .users:
                // Read whether or not the person has a record: one added later gives the page its profile.
                reads?.record(.profile(group.id))
                let user = feeds.usersByID[group.id]
                var description = postList(
                    group.posts, count: count, base: base, name: group.name, kicker: words["profile"], partial: .gridPhoto, style: "grid",
                    head: user.map { [SectionView(style: "profile", isList: false, items: [profile($0, postCount: count)])] } ?? [],
                    bodyClass: "page-list page-user", current: .users,
                    // CONTRACT §5: a profile links its two feeds.
                    feeds: [
                        LinkView(url: urls.link(SiteURLs.userFeed(group.id)), label: words.text("userPosts", ["name": group.name])),
                        LinkView(url: urls.link(SiteURLs.userCommentsFeed(group.id)), label: words.text("commentsOnTheirPosts", ["name": group.name])),
                    ])
                description.language = language(user?.lang)
                description.summary = profileSummary(group, user: user)
                return description
            case .locations:
                return postList(
                    group.posts, count: count, base: base, name: group.name, kicker: words["place"],
                    intro: self.count("postCount", count), bodyClass: "page-list page-location", current: .locations)
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
            emptyText: words["noPosts"], bodyClass: bodyClass, current: current, feeds: feeds,
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
            style: description.style, heading: hasHead ? words["posts"] : nil, headingID: hasHead ? "posts" : nil, isList: true,
            items: page.items, emptyText: description.emptyText)
        return BuiltPage(
            body: PageBodyView(
                kicker: number > 1
                    ? "\(description.kicker.map { "\($0) · " } ?? "")\(words.text("pageNumber", ["number": dates.number(number)]))" : description.kicker,
                heading: description.name, intro: number == 1 ? description.intro : nil,
                sections: (number == 1 ? description.head : []) + [section],
                pagination: pagination(page, base: description.base, previous: words[description.previousWord], next: words[description.nextWord]),
                root: urls.root, language: description.language),
            title: title(description.name, page: number), bodyClass: description.bodyClass, current: description.current,
            feeds: description.feeds, summary: description.summary ?? summary(intro: description.intro ?? description.name))
    }
}
