import DaybookFeed
import DaybookMarkdown
import DaybookModel

/// One result search can show (CONTRACT §10): what it is, where it links, what its card shows,
/// and the words and filter keys it is found by.
///
/// A card is kept small, since a query fetches the cards of the results it shows: its link is
/// the slug its kind's address is made of (`search.js` makes `/posts/<slug>/` of it, under the
/// site's root), its date a day number, and a comment's card names its writer alone.
package struct SearchDocument: Sendable {
    package enum Kind: String, Sendable {
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
    /// The texts it is found by, in order: folded and split into words only when its words are
    /// not already known (`SearchTerms`), since that is most of the index's work.
    var texts: [String]
    /// Filter keys (`#tag`, `@user`, `~place`; a comment has its post's, after `&`): not words,
    /// found only as filters and by a leading `#tag` or `@id`. A year needs no key: posts come
    /// oldest first, each with its comments, so a year's results are a run of ids
    /// (`SearchIndex.years`).
    var keys: [String]
    /// The item's own language (§11), for its card's text (and title, for a person or a journal
    /// entry, whose title is theirs too): empty for the site's. Kept as plain fields, since a
    /// site's 120,000 results are copied as they are filed.
    var lang = ""
    /// `rtl` or `ltr` where the item's direction is not the site's, else empty.
    var dir = ""
    var titleInLanguage = false

    /// The longest text a card carries.
    static let maxTextCharacters = 160

    package init(kind: Kind, slug: String, title: String, text: String, number: Int, thumbnail: String, texts: [String], keys: [String]) {
        self.kind = kind
        self.slug = slug
        self.title = title
        self.text = text
        self.number = number
        self.thumbnail = thumbnail
        self.texts = texts
        self.keys = keys
    }

    /// The same result in its item's own language (`nil`: the site's); `title` when the title is
    /// the item's text too.
    func speaking(_ language: TextLanguage?, title: Bool = false) -> SearchDocument {
        guard let language else { return self }
        var document = self
        document.lang = language.lang
        document.dir = language.dir ?? ""
        document.titleInLanguage = title
        return document
    }

    /// A hash of everything its card and its terms are made of: equal versions, equal files.
    /// - Parameter terms: its `termsVersion`, which the caller needs too and works out once.
    package func version(terms: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.combine(kind.rawValue)
        hash.combine(slug)
        hash.combine(title)
        hash.combine(text)
        hash.combine(bits: UInt64(bitPattern: Int64(number)))
        hash.combine(thumbnail)
        hash.combine(lang)
        hash.combine(dir)
        hash.combine(titleInLanguage)
        hash.combine(bits: terms)
        return hash.value
    }

    /// A hash of what its terms are made of (`texts` and `keys`), under which they are kept.
    package var termsVersion: UInt64 {
        var hash = StableHash()
        hash.combine(bits: UInt64(texts.count))
        for text in texts { hash.combine(text) }
        hash.combine(bits: UInt64(keys.count))
        for key in keys { hash.combine(key) }
        return hash.value
    }
}

/// What one result is found by: each folded word once, with how often it comes, and its filter
/// keys. The postings are made of these alone.
package struct SearchTerms: Sendable, Equatable {
    /// Each once, in the order of their hash (`SearchText.hash`), then of where they first come.
    package var words: [String]
    /// How often each word comes, in the order of `words`.
    package var counts: [Int]
    /// Sorted, each once.
    package var keys: [String]

    package init(words: [String], counts: [Int], keys: [String]) {
        self.words = words
        self.counts = counts
        self.keys = keys
    }

    /// Folds and splits the document's texts.
    package init(_ document: SearchDocument) {
        var tokens: [String] = []
        for text in document.texts { tokens += SearchText.tokens(text) }
        // Each word's hash and place as one number, sorted: the same words come together without
        // moving a string (a dictionary a result, or sorting the words, was most of the index's
        // time). Words are in the order of their hash, then of where they first come.
        var order = tokens.indices.map { UInt64(SearchText.hash(tokens[$0])) << 32 | UInt64($0) }
        order.sort()
        words = []
        counts = []
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && order[end] >> 32 == order[start] >> 32 { end += 1 }
            let first = tokens[Int(order[start] & 0xFFFF_FFFF)]
            if (start..<end).allSatisfy({ tokens[Int(order[$0] & 0xFFFF_FFFF)] == first }) {
                words.append(first)
                counts.append(end - start)
            } else {
                // Two words with one hash: counted apart.
                let run = words.count
                for position in start..<end {
                    let word = tokens[Int(order[position] & 0xFFFF_FFFF)]
                    if let known = words[run...].firstIndex(of: word) { counts[known] += 1 } else {
                        words.append(word)
                        counts.append(1)
                    }
                }
            }
            start = end
        }
        keys = Set(document.keys).sorted()
    }

    /// Each term as its postings entry counts it: a word with how often it comes, a key once.
    package var counted: [String: Int] {
        var all: [String: Int] = [:]
        for (word, count) in zip(words, counts) { all[word] = count }
        for key in keys { all[key] = 1 }
        return all
    }
}

/// What one result or run of results is made of, in the results' order (`PageBuilder.searchUnits`).
package enum SearchUnit: Sendable {
    case user(PostGroup), tag(PostGroup), place(PostGroup), bio(PostGroup), post(Post), entry(JournalEntry)
}

extension PageBuilder {
    /// What each result or run of results of search is made of, in the results' order (the
    /// incremental layer makes them, run by run, as the search files need them): everything
    /// search finds, from the feeds the pages show (so nothing they hide): people, hashtags and
    /// places by name (they lead the results), then people by their bio (a second result for
    /// the same profile, ranked with the rest, so that a word in many bios does not push the
    /// posts down), then each post followed by its comments, oldest first (a new post adds its
    /// results at the end), then journal entries, oldest first.
    ///
    /// Appended into one array made to size, on every `serve` save: concatenated, every group
    /// and post was copied twice more, each copy counting in every one of its fields.
    package func searchUnits() -> [SearchUnit] {
        let (indexes, feeds) = (input.feeds.indexes, input.feeds)
        let users = feeds.usersByID
        var units: [SearchUnit] = []
        units.reserveCapacity(2 * indexes.users.count + indexes.tags.count + indexes.locations.count + feeds.timeline.count + feeds.journal.count)
        for group in indexes.users { units.append(.user(group)) }
        for group in indexes.tags { units.append(.tag(group)) }
        for group in indexes.locations { units.append(.place(group)) }
        for group in indexes.users where !(users[group.id]?.bio ?? "").isEmpty { units.append(.bio(group)) }
        for post in feeds.timeline.reversed() { units.append(.post(post)) }
        for entry in feeds.journal.reversed() where entry.prompt != nil { units.append(.entry(entry)) }
        return units
    }

    /// How many results `unit` makes: a post's run is the post and its comments.
    package func searchCount(_ unit: SearchUnit) -> Int {
        if case .post(let post) = unit { 1 + (input.feeds.comments[post.id]?.count ?? 0) } else { 1 }
    }

    /// Each person's name by id, looked up once: a user's whole record was copied out for each of
    /// 100,000 comments.
    package func searchNames() -> [String: String] {
        var names: [String: String] = [:]
        names.reserveCapacity(input.feeds.usersByID.count)
        for (id, user) in input.feeds.usersByID { names[id] = user.displayName }
        return names
    }

    /// The results of `unit`, in order, handed to `emit`; `names` is `searchNames()`.
    package func documents(of unit: SearchUnit, names: [String: String], _ emit: (SearchDocument) -> Void) {
        let users = input.feeds.usersByID
        switch unit {
        case .user(let group):
            let user = users[group.id]
            emit(
                SearchDocument(
                    kind: .user, slug: Slug.make(group.id), title: group.name, text: user?.bio.map(Self.plainText) ?? "",
                    number: group.posts.count, thumbnail: user?.avatar.flatMap(thumbnail) ?? "", texts: [group.name, group.id], keys: []
                ).speaking(language(user?.lang), title: true))
        case .tag(let group):
            emit(
                SearchDocument(
                    kind: .tag, slug: group.slug, title: group.name, text: "", number: group.posts.count, thumbnail: "", texts: [group.name],
                    keys: []))
        case .place(let group):
            emit(
                SearchDocument(
                    kind: .place, slug: group.slug, title: group.name, text: "", number: group.posts.count, thumbnail: "",
                    texts: [group.name], keys: []))
        case .bio(let group):
            let user = users[group.id]
            let text = Self.plainText(user?.bio ?? "")
            emit(
                SearchDocument(
                    kind: .user, slug: Slug.make(group.id), title: group.name, text: text, number: group.posts.count,
                    thumbnail: user?.avatar.flatMap(thumbnail) ?? "", texts: [text], keys: []).speaking(language(user?.lang), title: true))
        case .post(let post):
            postDocuments(post, names: names, emit)
        case .entry(let entry):
            let prompt = entry.prompt
            let body = prompt?.body.map(Self.plainText) ?? ""
            let responses = (input.feeds.responses[entry.promptID] ?? []).map { Self.plainText($0.text) }
            let text = ([body] + responses).filter { !$0.isEmpty }.joined(separator: " · ")
            let title = prompt?.title ?? ""
            emit(
                SearchDocument(
                    kind: .entry, slug: Slug.make(entry.promptID), title: title, text: text, number: entryDay(entry).daysSince1970,
                    thumbnail: "", texts: [title, text], keys: []).speaking(language(prompt?.lang), title: true))
        }
    }

    /// A post's result, then its comments'.
    private func postDocuments(_ post: Post, names: [String: String], _ emit: (SearchDocument) -> Void) {
        let indexes = input.feeds.indexes
        let author = names[post.author] ?? post.author
        let place = post.location?.name
        let day = post.createdAt.day(in: zone)
        var keys = ["@" + SearchText.fold(post.author)]
        keys += (input.feeds.postTags[post.id] ?? []).prefix(input.config.hashtagsPerPost).map { "#" + SearchText.fold($0) }
        if let slug = indexes.locationSlugs[post.id] { keys.append("~" + slug) }
        let slug = Slug.make(post.id)
        let caption = post.caption ?? ""
        var texts = [caption, author]
        if let place { texts.append(place) }
        if author != post.author { texts.append(post.author) }
        emit(
            SearchDocument(
                kind: .post, slug: slug, title: place.map { "\(author) · \($0)" } ?? author, text: caption, number: day.daysSince1970,
                thumbnail: post.isSensitive ? "" : post.image.flatMap(thumbnail) ?? "", texts: texts, keys: keys).speaking(language(post.lang)))
        let commentKeys = keys.map { "&" + $0 }
        for comment in input.feeds.comments[post.id] ?? [] {
            emit(
                SearchDocument(
                    kind: .comment, slug: slug + "#" + Slug.make(comment.id), title: names[comment.author] ?? comment.author, text: comment.text,
                    number: comment.createdAt.day(in: zone).daysSince1970, thumbnail: "", texts: [comment.text],
                    keys: commentKeys).speaking(language(comment.lang)))
        }
    }

    /// A photo's square thumbnail below the site's root, when the build made one.
    private func thumbnail(_ reference: String) -> String? {
        input.images[reference]?.thumbnail.map { SiteURLs.percentEncoded($0.path) }
    }

    /// Markdown as the words a reader sees.
    static func plainText(_ markdown: String) -> String { Markdown.plainText(from: markdown) }
}
