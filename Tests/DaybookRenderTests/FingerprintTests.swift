@testable import DaybookRender
import DaybookModel
import Testing

/// Pages are skipped when their fingerprint is unchanged, so a view-model field left out of
/// the fingerprint would leave stale pages behind. Reflection holds every type to its fields.
@Suite("View-model fingerprints")
struct FingerprintTests {
    static let link = LinkView(url: "/a/", label: "A")
    static let image = ImageView(src: "/i.png", alt: "", lazy: true, size: ImageSize(width: 1, height: 2))
    static let author = AuthorView(name: "Ana", url: "/u/", avatar: image)
    static let entry = JournalEntryView(
        partial: "p", dataID: "x", isToday: true, isSkeleton: false, title: "T", url: "/x/", dateISO: "d", dateLabel: "l",
        headingLevel: 2, excerptHTML: "<p>e</p>", bodyHTML: nil)
    static let post = PostView(
        partial: "p", dataID: "p1", url: "/p/", author: author, dateISO: "d", dateLabel: "l", timeLabel: "t", image: image,
        captionHTML: "c", location: PlaceView(name: "L", url: nil), tags: [.init(name: "t", url: "/t/")], commentLabel: "1")
    static let section = SectionView(style: "s", heading: "H", headingID: "h", isList: true, items: [entry, post], emptyText: "e", moreLink: link)
    static let body = PageBodyView(kicker: "k", heading: "h", intro: "i", sections: [section], pagination: nil, root: "/")

    static let samples: [any Fingerprinted] = [
        link, image, author, PlaceView(name: "L", url: "/l/"), entry, post, PostView.LinkTag(name: "t", url: "/t/"),
        CommentView(anchor: "c", author: author, dateISO: "d", dateLabel: "l", textHTML: "t"),
        LinkCardView(title: "t", text: "x", url: "/"), section,
        PaginationView(number: 1, count: 2, previousURL: nil, nextURL: "/2/", previousLabel: "p", nextLabel: "n"), body,
        GroupRowView(partial: "p", dataID: "d", name: "n", url: "/", countLabel: "1", avatar: nil, initial: "N"),
        ProfileView(name: "n", handle: "@n", avatar: nil, bioHTML: nil, postCountLabel: "0", follows: [link], followers: []),
        SearchView(indexURL: "/i", scriptURL: "/s", links: [link]),
        BuiltPage(body: body, title: "t", bodyClass: "c", current: nil, feeds: [link]),
        LayoutView(title: "t", siteTitle: "s", root: "/", bodyClass: "b", navigation: [link], feeds: [], body: "x"),
    ]

    @Test("every stored property of every view model is in its fingerprint")
    func complete() {
        for sample in Self.samples {
            let stored = Mirror(reflecting: sample).children.compactMap(\.label)
            #expect(sample.fingerprintFields.count == stored.count, "\(type(of: sample)) stores \(stored) but fingerprints \(sample.fingerprintFields.count) fields")
        }
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
