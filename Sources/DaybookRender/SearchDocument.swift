import DaybookFeed
import DaybookMarkdown
import DaybookModel

/// One result search can show (CONTRACT §10): what it is, where it links, what its card shows,
/// and the words and filter keys it is found by.
struct SearchDocument: Sendable {
    enum Kind: String, Sendable {
        case user, tag, place, post, comment, entry
    }

    var kind: Kind
    var url: String
    var title: String
    /// The text its card shows a snippet of.
    var text: String
    var dateLabel: String
    /// A square thumbnail: posts with a photo that is not sensitive.
    var thumbnail: String?
    /// What it is found by: the folded words of every field, in order.
    var words: [String]
    /// Filter keys (`#tag`, `@user`, `~place`, `^year`; a comment has its post's, after `&`):
    /// not words, found only as filters and by a leading `#tag` or `@id`.
    var keys: [String]

    /// The longest snippet text a card carries: the index holds the card of every result.
    static let maxTextCharacters = 160
}

extension PageBuilder {
    /// Everything search finds, from the feeds the pages show (so nothing they hide): people,
    /// hashtags and places, then each post followed by its comments, oldest first (a new post
    /// adds its results at the end), then journal entries, oldest first.
    func searchDocuments() -> [SearchDocument] {
        var documents: [SearchDocument] = []
        let indexes = input.feeds.indexes
        for group in indexes.users {
            let user = input.feeds.usersByID[group.id]
            let bio = user?.bio.map(Self.plainText) ?? ""
            documents.append(
                SearchDocument(
                    kind: .user, url: urls.link(SiteURLs.user(group.id)), title: group.name, text: bio,
                    dateLabel: count(group.posts.count, "post", "posts"), thumbnail: user?.avatar.flatMap(thumbnail),
                    words: SearchText.tokens(group.name) + SearchText.tokens(group.id) + SearchText.tokens(bio), keys: []))
        }
        for group in indexes.tags {
            documents.append(
                SearchDocument(
                    kind: .tag, url: urls.link(SiteURLs.group(.tags, slug: group.slug)), title: "#" + group.name, text: "",
                    dateLabel: count(group.posts.count, "post", "posts"), thumbnail: nil, words: SearchText.tokens(group.name), keys: []))
        }
        for group in indexes.locations {
            documents.append(
                SearchDocument(
                    kind: .place, url: urls.link(SiteURLs.group(.locations, slug: group.slug)), title: group.name, text: "",
                    dateLabel: count(group.posts.count, "post", "posts"), thumbnail: nil, words: SearchText.tokens(group.name), keys: []))
        }
        for post in input.feeds.timeline.reversed() {
            let author = author(post.author).name
            let place = post.location.map(\.name)
            var keys = ["@" + SearchText.fold(post.author), "^" + String(post.createdAt.day(in: zone).year)]
            keys += (input.feeds.postTags[post.id] ?? []).prefix(input.config.hashtagsPerPost).map { "#" + SearchText.fold($0) }
            if let slug = indexes.locationSlugs[post.id] { keys.append("~" + slug) }
            let postURL = urls.link(SiteURLs.post(post.id))
            let caption = post.caption ?? ""
            documents.append(
                SearchDocument(
                    kind: .post, url: postURL, title: place.map { "\(author) · \($0)" } ?? author, text: caption,
                    dateLabel: post.createdAt.day(in: zone).longText,
                    thumbnail: post.isSensitive ? nil : post.image.flatMap(thumbnail),
                    words: SearchText.tokens(caption) + SearchText.tokens(place ?? "") + SearchText.tokens(author)
                        + (author == post.author ? [] : SearchText.tokens(post.author)),
                    keys: keys))
            for comment in input.feeds.comments[post.id] ?? [] {
                documents.append(
                    SearchDocument(
                        kind: .comment, url: postURL + "#comment-" + Slug.make(comment.id),
                        title: "\(self.author(comment.author).name) on \(author)’s post", text: comment.text,
                        dateLabel: comment.createdAt.day(in: zone).longText, thumbnail: nil, words: SearchText.tokens(comment.text),
                        keys: keys.map { "&" + $0 }))
            }
        }
        for entry in input.feeds.journal.reversed() {
            guard let prompt = entry.prompt else { continue }
            let body = prompt.body.map(Self.plainText) ?? ""
            let responses = (input.feeds.responses[entry.promptID] ?? []).map { Self.plainText($0.text) }
            let text = ([body] + responses).filter { !$0.isEmpty }.joined(separator: " · ")
            documents.append(
                SearchDocument(
                    kind: .entry, url: urls.link(SiteURLs.entry(entry.promptID)), title: prompt.title, text: text,
                    dateLabel: entryDay(entry).longText, thumbnail: nil,
                    words: SearchText.tokens(prompt.title) + SearchText.tokens(text), keys: []))
        }
        return documents
    }

    /// A photo's square thumbnail, when the build made one.
    private func thumbnail(_ reference: String) -> String? {
        input.images[reference]?.thumbnail.map { urls.asset(SiteURLs.percentEncoded($0.path)) }
    }

    /// Markdown as the words a reader sees.
    static func plainText(_ markdown: String) -> String { Markdown.plainText(from: markdown) }
}
