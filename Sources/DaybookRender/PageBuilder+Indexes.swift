import DaybookFeed
import DaybookMarkdown
import DaybookModel
import Foundation

extension PageBuilder {
    /// `/tags/`, `/users/` and `/locations/`: one paginated list of groups each.
    func groupIndex(_ kind: GroupKind, _ number: Int) -> BuiltPage {
        let indexes = input.feeds.indexes
        let (groups, name, intro): ([PostGroup], String, String) =
            switch kind {
            case .tags: (indexes.tags, "Hashtags", "Every hashtag, most used first.")
            case .users: (indexes.users, "People", "Everyone on the timeline, by name.")
            case .locations: (indexes.locations, "Places", "Every place, most photographed first.")
            }
        let page = paginator.page(number, of: groups)
        let items = page.items.map { row(kind, $0) }
        return BuiltPage(
            body: PageBodyView(
                kicker: number > 1 ? "Page \(number)" : nil, heading: name, intro: number == 1 ? intro : nil,
                sections: [SectionView(style: kind.rawValue, isList: true, items: items, emptyText: "Nothing here yet.")],
                pagination: pagination(page, base: "\(kind.rawValue)/", previous: "Previous", next: "Next"), root: urls.root),
            title: title(name, page: number), bodyClass: "page-list page-\(kind.rawValue)", current: kind.rawValue)
    }

    private func row(_ kind: GroupKind, _ group: PostGroup) -> GroupRowView {
        let posts = count(group.posts.count, "post", "posts")
        switch kind {
        case .tags:
            return GroupRowView(
                partial: "item-tag", dataID: group.id, name: group.name, url: urls.link(SiteURLs.tag(group.id)), countLabel: posts,
                initial: "#")
        case .users:
            let user = input.feeds.usersByID[group.id]
            return GroupRowView(
                partial: "item-user", dataID: group.id, name: group.name, url: urls.link(SiteURLs.user(group.id)), countLabel: posts,
                avatar: user?.avatar.map { image($0, alt: "", lazy: true) }, initial: group.name.first.map { String($0).uppercased() } ?? "?")
        case .locations:
            return GroupRowView(
                partial: "item-location", dataID: group.name, name: group.name, url: urls.link(SiteURLs.location(group.slug)),
                countLabel: posts, initial: "")
        }
    }

    func profile(_ user: User, postCount: Int) -> ProfileView {
        let byID = input.feeds.usersByID
        let link = { (id: String) in LinkView(url: urls.link(SiteURLs.user(id)), label: byID[id]?.displayName ?? id) }
        return ProfileView(
            name: user.displayName, handle: "@\(user.id)", avatar: user.avatar.map { image($0, alt: "", lazy: false) },
            bioHTML: user.bio.map(Markdown.html(from:)), postCountLabel: count(postCount, "post", "posts"),
            follows: user.follows.map(link), followers: (input.feeds.followers[user.id] ?? []).map(link))
    }
}
