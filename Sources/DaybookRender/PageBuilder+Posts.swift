import DaybookFeed
import DaybookMarkdown
import DaybookModel
import Foundation

extension PageBuilder {
    /// What distinguishes one list of posts from another; everything else is the same page.
    struct PostListDescription {
        var posts: [Post]
        var base: String
        var name: String
        var kicker: String?
        var intro: String?
        var head: [SectionView] = []
        var bodyClass: String
        var current: String?
        var feeds: [LinkView] = []
    }

    func describe(_ list: PostList) -> PostListDescription {
        let feeds = input.feeds
        switch list {
        case .timeline:
            let viewer = input.config.timelineViewer.flatMap { feeds.usersByID[$0] }
            return PostListDescription(
                posts: feeds.timeline, base: SiteURLs.timeline, name: "Timeline",
                intro: viewer.map { "Posts by \($0.displayName) and the people they follow." } ?? "Photos, newest first.",
                bodyClass: "page-list page-timeline", current: "timeline", feeds: [timelineFeed])
        case .tag(let index):
            let group = feeds.indexes.tags[index]
            return PostListDescription(
                posts: group.posts, base: "tags/\(group.slug)/", name: "#\(group.name)", kicker: "Hashtag",
                intro: count(group.posts.count, "post", "posts"), bodyClass: "page-list page-tag", current: "tags")
        case .user(let index):
            let group = feeds.indexes.users[index]
            let user = feeds.usersByID[group.id]
            return PostListDescription(
                posts: group.posts, base: "users/\(group.slug)/", name: group.name, kicker: "Profile",
                head: user.map { [SectionView(style: "profile", isList: false, items: [profile($0, postCount: group.posts.count)])] } ?? [],
                bodyClass: "page-list page-user", current: "users")
        case .location(let index):
            let group = feeds.indexes.locations[index]
            return PostListDescription(
                posts: group.posts, base: "locations/\(group.slug)/", name: group.name, kicker: "Place",
                intro: count(group.posts.count, "post", "posts"), bodyClass: "page-list page-location", current: "locations")
        }
    }

    /// One page of any list of posts: the timeline, a tag, a user, a location.
    func postList(_ list: PostList, _ number: Int) -> BuiltPage {
        let description = describe(list)
        let page = paginator.page(number, of: description.posts)
        // The first two cards are likely on screen; later images load lazily.
        let items = page.items.enumerated().map { offset, post in
            postView(post, partial: "item-post-card", inList: true, lazy: offset >= 2 || number > 1)
        }
        let posts = SectionView(
            style: "posts", heading: description.head.isEmpty ? nil : "Posts", headingID: description.head.isEmpty ? nil : "posts",
            isList: true, items: items, emptyText: "No posts yet.")
        return BuiltPage(
            body: PageBodyView(
                kicker: number > 1 ? "\(description.kicker.map { "\($0) · " } ?? "")Page \(number)" : description.kicker,
                heading: description.name, intro: number == 1 ? description.intro : nil,
                sections: (number == 1 ? description.head : []) + [posts],
                pagination: pagination(page, base: description.base), root: urls.root),
            title: title(description.name, page: number), bodyClass: description.bodyClass, current: description.current,
            feeds: description.feeds)
    }

    func postPage(_ post: Post) -> BuiltPage {
        let author = input.feeds.usersByID[post.author]?.displayName ?? post.author
        let view = postView(post, partial: "item-post", inList: false, lazy: false)
        let comments = (input.feeds.comments[post.id] ?? []).map(commentItem)
        let sections = [
            SectionView(style: "post", isList: false, items: [view]),
            SectionView(
                style: "comments", heading: count(comments.count, "comment", "comments"), headingID: "comments", isList: true,
                items: comments, emptyText: "No comments yet."),
        ]
        return BuiltPage(
            body: PageBodyView(kicker: "Post", heading: "Photo by \(author)", sections: sections, root: urls.root),
            title: "Photo by \(author) · \(siteTitle)", bodyClass: "page-post", current: "timeline")
    }

    /// A post as a card or a full post: the shared card with this appearance's partial, list id and loading.
    func postView(_ post: Post, partial: String, inList: Bool, lazy: Bool) -> PostView {
        var view = postCards[post.id] ?? makePostView(post)
        view.partial = partial
        view.dataID = inList ? post.id : nil
        view.image?.lazy = lazy
        return view
    }

    /// Every post's card, built across all cores.
    static func buildCards(_ builder: PageBuilder) -> [String: PostView] {
        let cards = Parallel.mapBlocking(builder.input.feeds.posts) { ($0.id, builder.makePostView($0)) }
        return Dictionary(cards, uniquingKeysWith: { first, _ in first })
    }

    func makePostView(_ post: Post) -> PostView {
        let day = post.createdAt.day(in: zone)
        let time = post.createdAt.timeOfDay(in: zone)
        let comments = input.feeds.comments[post.id]?.count ?? 0
        let place = post.location.map { location in
            PlaceView(name: location.name, url: input.feeds.indexes.locationSlugs[post.id].map { urls.link(SiteURLs.location($0)) })
        }
        return PostView(
            partial: "item-post-card", dataID: nil, url: urls.link(SiteURLs.post(post.id)), author: author(post.author),
            dateISO: post.createdAt.utcText, dateLabel: day.longText,
            timeLabel: "\(time.hour < 10 ? "0" : "")\(time.hour):\(time.minute < 10 ? "0" : "")\(time.minute)",
            // A photo without alt text is still content, not decoration: say whose it is.
            image: post.image.map { image($0, alt: post.imageAlt ?? "Photo by \(author(post.author).name)", lazy: false) },
            captionHTML: post.caption.map(linker.html), location: place,
            tags: post.tags.map { PostView.LinkTag(name: $0, url: urls.link(SiteURLs.tag($0))) },
            commentLabel: count(comments, "comment", "comments"))
    }

    func author(_ id: String) -> AuthorView {
        let user = input.feeds.usersByID[id]
        return AuthorView(
            name: user?.displayName ?? id, url: user == nil ? nil : urls.link(SiteURLs.user(id)),
            avatar: user?.avatar.map { image($0, alt: "", lazy: true) })
    }

    func commentItem(_ comment: Comment) -> CommentView {
        CommentView(
            anchor: Slug.make(comment.id), author: author(comment.author), dateISO: comment.createdAt.utcText,
            dateLabel: comment.createdAt.day(in: zone).longText, textHTML: linker.html(comment.text))
    }
}
