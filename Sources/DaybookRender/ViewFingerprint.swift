import DaybookModel

/// A view model that can say everything a template could read from it.
///
/// Pages are re-rendered only when their fingerprint changes. A template reads nothing but its
/// view model (and other templates, which the theme fingerprint covers), so equal fingerprints
/// mean equal pages. `fingerprintFields` must list every stored property; a test holds each
/// view model to that, by reflection, so a new field cannot be forgotten.
protocol Fingerprinted: Sendable {
    var fingerprintFields: [Any?] { get }
}

extension StableHash {
    /// Hashes a view-model value: strings, numbers, flags, nested view models and arrays of them.
    mutating func combine(viewValue value: Any?) {
        switch value {
        case .none: combine("\u{0}nil")
        case let text as String: combine(text)
        case let number as Int: combine("#\(number)")
        case let flag as Bool: combine(flag ? "\u{1}true" : "\u{1}false")
        case let size as ImageSize: combine("\(size.width)x\(size.height)")
        case let model as any Fingerprinted:
            // A field count, not the type's name: String(describing:) of a type costs more than the fields.
            let fields = model.fingerprintFields
            combine("{\(fields.count)")
            for field in fields { combine(viewValue: field) }
        case let items as [any ItemView]:
            combine("[\(items.count)")
            for item in items { combine(viewValue: item) }
        case let list as [Any]:
            combine("[\(list.count)")
            for element in list { combine(viewValue: element) }
        case let optional as Any? where optional == nil:
            combine("\u{0}nil")
        default:
            // Every type a view model holds is listed above; anything else is a bug to see in tests.
            assertionFailure("no fingerprint for \(type(of: value))")
            combine(String(describing: value))
        }
    }
}

extension LinkView: Fingerprinted { var fingerprintFields: [Any?] { [url, label, isCurrent] } }
extension AuthorView: Fingerprinted { var fingerprintFields: [Any?] { [name, url, avatar] } }
extension ImageView: Fingerprinted { var fingerprintFields: [Any?] { [src, alt, lazy, size] } }
extension PlaceView: Fingerprinted { var fingerprintFields: [Any?] { [name, url] } }
extension JournalEntryView: Fingerprinted {
    var fingerprintFields: [Any?] {
        [partial, dataID, isToday, isSkeleton, title, url, dateISO, dateLabel, headingLevel, excerptHTML, bodyHTML]
    }
}
extension PostView: Fingerprinted {
    var fingerprintFields: [Any?] {
        [partial, dataID, url, author, dateISO, dateLabel, timeLabel, image, captionHTML, location, tags, commentLabel]
    }
}
extension PostView.LinkTag: Fingerprinted { var fingerprintFields: [Any?] { [name, url] } }
extension CommentView: Fingerprinted { var fingerprintFields: [Any?] { [partial, anchor, author, dateISO, dateLabel, textHTML] } }
extension LinkCardView: Fingerprinted { var fingerprintFields: [Any?] { [partial, title, text, url] } }
extension SectionView: Fingerprinted {
    var fingerprintFields: [Any?] { [style, heading, headingID, isList, items, emptyText, moreLink] }
}
extension PaginationView: Fingerprinted {
    var fingerprintFields: [Any?] { [number, count, previousURL, nextURL, previousLabel, nextLabel] }
}
extension PageBodyView: Fingerprinted { var fingerprintFields: [Any?] { [kicker, heading, intro, sections, pagination, root] } }
extension GroupRowView: Fingerprinted {
    var fingerprintFields: [Any?] { [partial, dataID, name, url, countLabel, avatar, initial] }
}
extension ProfileView: Fingerprinted {
    var fingerprintFields: [Any?] { [partial, name, handle, avatar, bioHTML, postCountLabel, follows, followers] }
}
extension SearchView: Fingerprinted { var fingerprintFields: [Any?] { [partial, indexURL, scriptURL, links] } }
extension BuiltPage: Fingerprinted { var fingerprintFields: [Any?] { [bodyTemplate, body, title, bodyClass, current, feeds] } }
extension LayoutView: Fingerprinted {
    var fingerprintFields: [Any?] { [title, siteTitle, root, bodyClass, navigation, feeds, body] }
}

extension Theme {
    /// A hash of every template and asset, so a theme edit re-renders every page.
    public var fingerprint: UInt64 {
        var hash = StableHash()
        hash.combine("daybook-render-1")
        for name in templates.keys.sorted() {
            hash.combine(name)
            hash.combine(templates[name]!.source)
        }
        for path in assets.keys.sorted() {
            hash.combine(path)
            hash.combine(assets[path]!)
        }
        return hash.value
    }
}
