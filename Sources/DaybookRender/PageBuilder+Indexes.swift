import DaybookFeed
import DaybookMarkdown
import DaybookLanguage
import DaybookModel
import Foundation

extension PageBuilder {
    /// A row of an index: the group's name, post count and page.
    func row(_ kind: GroupKind, _ group: PostGroup) -> GroupRowView {
        let posts = count("postCount", group.posts.count)
        let url = urls.link(SiteURLs.group(kind, slug: group.slug))
        switch kind {
        case .tags:
            return GroupRowView(
                partial: .tagRow, dataID: group.id, name: group.name, url: url, countLabel: posts,
                initial: "#")
        case .users:
            reads?.record(.person(group.id))
            let user = input.feeds.usersByID[group.id]
            return GroupRowView(
                partial: .userRow, dataID: group.id, name: group.name, url: url, countLabel: posts,
                avatar: user?.avatar.map { avatar($0, lazy: true) }, initial: avatarInitial(group.name), language: language(user?.lang))
        case .locations:
            return GroupRowView(
                partial: .locationRow, dataID: group.name, name: group.name, url: url,
                countLabel: posts, initial: "")
        }
    }

    func profile(_ user: User, postCount: Int) -> ProfileView {
        reads?.record(.profile(user.id))
        let byID = input.feeds.usersByID
        let link = { (id: String) in
            reads?.record(.person(id))
            return LinkView(url: urls.link(SiteURLs.user(id)), label: byID[id]?.displayName ?? id) }
        return ProfileView(
            name: user.displayName, handle: "@\(user.id)", avatar: user.avatar.map { avatar($0, lazy: false) },
            bioHTML: user.bio.map(markdown), postCountLabel: count("postCount", postCount),
            follows: user.follows.map(link), followers: (input.feeds.followers[user.id] ?? []).map(link),
            feeds: [
                LinkView(url: urls.link(SiteURLs.userFeed(user.id)), label: words["posts"]),
                LinkView(url: urls.link(SiteURLs.userCommentsFeed(user.id)), label: words["comments"]),
            ], language: language(user.lang), suggested: suggestions(for: user.id))
    }

    /// The people `id` is suggested (§13): from the build's table when it handed one in, else
    /// worked out from the follow graph. A profile's page and its key both read this.
    func suggestedPeople(for id: String) -> [PeopleSuggestions.Suggestion] {
        guard let table = input.suggestions else { return PeopleSuggestions(usersByID: input.feeds.usersByID).suggestions(for: id) }
        return table[id] ?? []
    }

    /// The people a profile suggests (§13), each with who of this person's follows follows them.
    func suggestions(for id: String) -> [SuggestedPersonView] {
        let byID = input.feeds.usersByID
        func name(_ id: String) -> String {
            reads?.record(.person(id))
            return byID[id]?.displayName ?? id
        }
        return suggestedPeople(for: id).map { suggestion in
            let first = name(suggestion.followedBy[0])
            let others = suggestion.followedBy.count - 1
            return SuggestedPersonView(
                id: suggestion.id, name: name(suggestion.id), url: urls.link(SiteURLs.user(suggestion.id)),
                label: others == 0
                    ? words.text("followedByOne", ["name": first]) : words.count("followedByMore", others, written: dates.number(others), ["name": first]),
                language: language(byID[suggestion.id]?.lang))
        }
    }
}
