@testable import DaybookRender
import DaybookModel
import Mustache
import Testing

/// Pages are skipped when their fingerprint is unchanged, so a view-model field left out of
/// the fingerprint would leave stale pages behind. Reflection holds every type to its fields.
@Suite("View-model fingerprints")
struct FingerprintTests {
    static let link = LinkView(url: "/a/", label: "A")
    static let image = ImageView(src: "/i.png", alt: "", lazy: true, size: ImageSize(width: 1, height: 2))
    static let author = AuthorView(name: "Ana", url: "/u/", avatar: image)
    static let entry = JournalEntryView(
        partial: .journalEntry, dataID: "x", isToday: true, isSkeleton: false, title: "T", url: "/x/", dateISO: "d", dateLabel: "l",
        headingLevel: 2, excerptHTML: "<p>e</p>", bodyHTML: nil)
    static let post = PostView(
        partial: .postCard, dataID: "p1", url: "/p/", author: author, dateISO: "d", dateLabel: "l", timeLabel: "t", image: image,
        captionHTML: "c", location: PlaceView(name: "L", url: nil), tags: [.init(name: "t", url: "/t/")], commentLabel: "1")
    static let section = SectionView(style: "s", heading: "H", headingID: "h", isList: true, items: [entry, post], emptyText: "e", moreLink: link)
    static let body = PageBodyView(kicker: "k", heading: "h", intro: "i", sections: [section], pagination: nil, root: "/")

    static let samples: [any ViewModel] = [
        link, image, author, PlaceView(name: "L", url: "/l/"), entry, post, PostView.LinkTag(name: "t", url: "/t/"),
        PostReference(partial: .postCard, post: Post(id: "p1", author: "ana", createdAt: Instant(secondsSince1970: 0)), inList: true, lazy: false),
        CommentView(anchor: "c", author: author, dateISO: "d", dateLabel: "l", timeLabel: "t", editedISO: "e", editedLabel: "E", textHTML: "t"),
        ResponseView(dataResponse: "r", dateISO: "d", dateLabel: "l", timeLabel: "t", editedISO: nil, editedLabel: nil, textHTML: "<p>r</p>"),
        LinkCardView(title: "t", text: "x", url: "/"), section,
        PaginationView(number: 1, count: 2, countLabel: "Page 1 of 2", previousURL: nil, nextURL: "/2/", previousLabel: "p", nextLabel: "n"), body,
        GroupRowView(partial: .tagRow, dataID: "d", name: "n", url: "/", countLabel: "1", avatar: nil, initial: "N"),
        ProfileView(name: "n", handle: "@n", avatar: nil, bioHTML: nil, postCountLabel: "0", follows: [link], followers: []),
        SearchView(indexURL: "/i", configuration: "{}", scriptURL: "/s", links: [link], scriptWords: "{}"),
        BuiltPage(body: body, title: "t", bodyClass: "c", current: nil, feeds: [link]),
        LayoutView(title: "t", siteTitle: "s", root: "/", bodyClass: "b", navigation: [link], feeds: [], footer: [link], body: "x", lang: "en", scriptWords: "{}"),
        PrerenderedItem(html: "<p>x</p>"),
    ]

    /// The stored fields of a view model's table, by name, in table order.
    static func storedNames(_ model: some ViewModel) -> [String] { type(of: model).fields.storedNames }

    @Test("every stored property of every view model is in its field table, by name, once")
    func complete() {
        for sample in Self.samples {
            let stored = Mirror(reflecting: sample).children.compactMap(\.label)
            #expect(Self.storedNames(sample) == stored, "\(type(of: sample))")
        }
    }

    @Test("a table that lists a name twice and leaves another out fails the completeness check")
    func namesNotCounts() {
        struct Broken: ViewModel {
            var url: String
            var label: String
            static let fields = ViewFieldTable<Self>([.stored("url") { $0.url }, .stored("url") { $0.url }])
        }
        let broken = Broken(url: "/", label: "x")
        #expect(Self.storedNames(broken).count == Mirror(reflecting: broken).children.count)
        #expect(Self.storedNames(broken) != Mirror(reflecting: broken).children.compactMap(\.label))
    }

    @Test("a name outside the table renders as nothing instead of an enclosing model's field")
    func noFallThrough() throws {
        let template = try MustacheTemplate(string: "{{#location}}[{{name}}|{{url}}|{{dateISO}}]{{/location}}{{#image}}<{{url}}>{{/image}}")
        var post = Self.post
        post.location = PlaceView(name: "L", url: nil)
        // `url` is the place's own (absent) and `dateISO` is not a place's field: neither may show the post's.
        // An image's `url` is deliberately the post's link (`inherited`).
        #expect(template.render(post) == "[L||]</p/>")
    }

    @Test("a change anywhere in a page's view model changes its fingerprint")
    func sensitive() {
        func key(_ value: Any) -> UInt64 {
            var hash = StableHash()
            hash.combine(viewValue: value)
            return hash.value
        }
        var edited = Self.post
        edited.image?.size = ImageSize(width: 1, height: 3)
        #expect(key(Self.post) != key(edited))
        var section = Self.section
        section.items = [Self.entry, edited]
        #expect(key(Self.section) != key(section))
        #expect(key(Self.section) == key(Self.section))
        var moved = Self.section
        moved.items = [Self.post, Self.entry]
        #expect(key(Self.section) != key(moved))
    }
}
