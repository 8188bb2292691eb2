import DaybookFeed
import DaybookMarkdown
import DaybookModel
import DaybookParallel

/// One result search can show (CONTRACT §10): what it is, where it links, what its card shows,
/// and the words and filter keys it is found by.
///
/// A card is kept small, since a query fetches the cards of the results it shows: its link is
/// the slug its kind's address is made of (`search.js` makes `/posts/<slug>/` of it, under the
/// site's root), its date a day number, and a comment's card names its writer alone.
struct SearchDocument: Sendable {
    enum Kind: String, Sendable {
        case user = "u", tag = "t", place = "l", post = "p", comment = "c", entry = "e"
    }

    var kind: Kind
    /// The slug of its page (`p1`); a comment's is its post's, `#`, and its own (`p1#c1`).
    var slug: String
    var title: String
    /// The text its card shows, cut to `maxTextCharacters`.
    var text: String
    /// The day (days since 1970) of a post, comment or entry; the post count of a person,
    /// hashtag or place.
    var number: Int
    /// A square thumbnail below the site's root: posts with a photo that is not sensitive, and avatars.
    var thumbnail: String
    /// What it is found by: the folded words of every field, in order.
    var words: [String]
    /// Filter keys (`#tag`, `@user`, `~place`; a comment has its post's, after `&`): not words,
    /// found only as filters and by a leading `#tag` or `@id`. A year needs no key: posts come
    /// oldest first, each with its comments, so a year's results are a run of ids
    /// (`SearchIndex.years`).
    var keys: [String]

    /// The longest text a card carries.
    static let maxTextCharacters = 160
}

extension PageBuilder {
    /// Everything search finds, from the feeds the pages show (so nothing they hide): people,
    /// hashtags and places by name (they lead the results), then people by their bio (a second
    /// result for the same profile, ranked with the rest, so that a word in many bios does not
    /// push the posts down), then each post followed by its comments, oldest first (a new post
    /// adds its results at the end), then journal entries, oldest first.
    func searchDocuments() -> [SearchDocument] {
        let indexes = input.feeds.indexes
        let users = input.feeds.usersByID
        var documents: [SearchDocument] = []
        for group in indexes.users {
            let user = users[group.id]
            documents.append(
                SearchDocument(
                    kind: .user, slug: Slug.make(group.id), title: group.name, text: user?.bio.map(Self.plainText) ?? "",
                    number: group.posts.count, thumbnail: user?.avatar.flatMap(thumbnail) ?? "",
                    words: SearchText.tokens(group.name) + SearchText.tokens(group.id), keys: []))
        }
        for group in indexes.tags {
            documents.append(
                SearchDocument(
                    kind: .tag, slug: group.slug, title: group.name, text: "", number: group.posts.count, thumbnail: "",
                    words: SearchText.tokens(group.name), keys: []))
        }
        for group in indexes.locations {
            documents.append(
                SearchDocument(
                    kind: .place, slug: group.slug, title: group.name, text: "", number: group.posts.count, thumbnail: "",
                    words: SearchText.tokens(group.name), keys: []))
        }
        for group in indexes.users {
            guard let user = users[group.id], let bio = user.bio, !bio.isEmpty else { continue }
            let text = Self.plainText(bio)
            documents.append(
                SearchDocument(
                    kind: .user, slug: Slug.make(group.id), title: group.name, text: text, number: group.posts.count,
                    thumbnail: user.avatar.flatMap(thumbnail) ?? "", words: SearchText.tokens(text), keys: []))
        }
        // Posts on all cores (a rebuild renders few pages, and the index waits on this), in order.
        documents += Parallel.mapBlocking(Array(input.feeds.timeline.reversed())) { post in postDocuments(post) }.flatMap { $0 }
        for entry in input.feeds.journal.reversed() {
            guard let prompt = entry.prompt else { continue }
            let body = prompt.body.map(Self.plainText) ?? ""
            let responses = (input.feeds.responses[entry.promptID] ?? []).map { Self.plainText($0.text) }
            let text = ([body] + responses).filter { !$0.isEmpty }.joined(separator: " · ")
            documents.append(
                SearchDocument(
                    kind: .entry, slug: Slug.make(entry.promptID), title: prompt.title, text: text, number: entryDay(entry).daysSince1970,
                    thumbnail: "", words: SearchText.tokens(prompt.title) + SearchText.tokens(text), keys: []))
        }
        return documents
    }

    /// A post's result, then its comments'.
    private func postDocuments(_ post: Post) -> [SearchDocument] {
        let indexes = input.feeds.indexes
        let author = displayName(post.author)
        let place = post.location?.name
        let day = post.createdAt.day(in: zone)
        var keys = ["@" + SearchText.fold(post.author)]
        keys += (input.feeds.postTags[post.id] ?? []).prefix(input.config.hashtagsPerPost).map { "#" + SearchText.fold($0) }
        if let slug = indexes.locationSlugs[post.id] { keys.append("~" + slug) }
        let slug = Slug.make(post.id)
        let caption = post.caption ?? ""
        var words = SearchText.tokens(caption) + SearchText.tokens(author)
        if let place { words += SearchText.tokens(place) }
        if author != post.author { words += SearchText.tokens(post.author) }
        var documents = [
            SearchDocument(
                kind: .post, slug: slug, title: place.map { "\(author) · \($0)" } ?? author, text: caption, number: day.daysSince1970,
                thumbnail: post.isSensitive ? "" : post.image.flatMap(thumbnail) ?? "", words: words, keys: keys)
        ]
        let commentKeys = keys.map { "&" + $0 }
        for comment in input.feeds.comments[post.id] ?? [] {
            documents.append(
                SearchDocument(
                    kind: .comment, slug: slug + "#" + Slug.make(comment.id), title: displayName(comment.author), text: comment.text,
                    number: comment.createdAt.day(in: zone).daysSince1970, thumbnail: "", words: SearchText.tokens(comment.text),
                    keys: commentKeys))
        }
        return documents
    }

    /// A person's name as the pages show it (their id when they have none, or are unknown).
    private func displayName(_ id: String) -> String { input.feeds.usersByID[id]?.displayName ?? id }

    /// A photo's square thumbnail below the site's root, when the build made one.
    private func thumbnail(_ reference: String) -> String? {
        input.images[reference]?.thumbnail.map { SiteURLs.percentEncoded($0.path) }
    }

    /// Markdown as the words a reader sees.
    static func plainText(_ markdown: String) -> String { Markdown.plainText(from: markdown) }
}
