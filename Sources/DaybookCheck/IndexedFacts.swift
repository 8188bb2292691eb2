import DaybookModel

/// A page's facts with each string replaced by its index in the check's `StringTable`: what the
/// checks read, whether the page was parsed now or its facts came from the cache (where they are
/// stored in this form, so a cached page costs no string at all).
struct IndexedFacts: Sendable {
    typealias Position = PageFacts.Position

    /// A string (a title, an id, a parse message) and where it stands.
    struct Named: Sendable {
        var text: UInt32
        var position: Position
    }

    struct Link: Sendable {
        var url: UInt32
        var attribute: UInt32
        var position: Position
    }

    var titles: [Named] = []
    var ids: [Named] = []
    var links: [Link] = []
    var imagesWithoutAlt: [Position] = []
    var parseErrors: [Named] = []

    init(_ facts: PageFacts, table: inout StringTable) {
        titles = facts.titles.map { Named(text: table.intern($0.text), position: $0.position) }
        ids = facts.ids.map { Named(text: table.intern($0.id), position: $0.position) }
        links = facts.links.map { Link(url: table.intern($0.url), attribute: table.intern($0.attribute), position: $0.position) }
        imagesWithoutAlt = facts.imagesWithoutAlt
        parseErrors = facts.parseErrors.map { Named(text: table.intern($0.message), position: $0.position) }
    }

    /// Reads what `encode` wrote; `nil` when the bytes are damaged or name a string past
    /// `tableCount` (the archive is untrusted).
    init?(payload: ArraySlice<UInt8>, tableCount: Int) {
        var reader = ByteReader(payload, at: payload.startIndex)
        func text() -> UInt32? {
            guard let index = reader.uint32(), Int(index) < tableCount else { return nil }
            return index
        }
        func position() -> Position? {
            guard let line = reader.uint32(), let column = reader.uint32() else { return nil }
            return Position(line: Int(line), column: Int(column))
        }
        func named() -> Named? {
            guard let text = text(), let at = position() else { return nil }
            return Named(text: text, position: at)
        }
        func list<T>(_ element: () -> T?) -> [T]? { ByteReader.elements(reader.listCount(minimumBytes: 4), element) }
        guard let titles = list(named), let ids = list(named),
            let links = list({ () -> Link? in
                guard let url = text(), let attribute = text(), let at = position() else { return nil }
                return Link(url: url, attribute: attribute, position: at)
            }),
            let images = list(position), let errors = list(named), reader.atEnd
        else { return nil }
        (self.titles, self.ids, self.links, self.imagesWithoutAlt, self.parseErrors) = (titles, ids, links, images, errors)
    }

    /// The facts as a cache entry, each index passed through `index` (the archive's table may be
    /// a compacted copy of the check's).
    func encode(_ index: (UInt32) -> UInt32) -> [UInt8] {
        var payload = ByteWriter()
        func position(_ at: Position) {
            payload.uint32(UInt32(clamping: at.line))
            payload.uint32(UInt32(clamping: at.column))
        }
        func named(_ list: [Named]) {
            payload.uint32(UInt32(list.count))
            for item in list {
                payload.uint32(index(item.text))
                position(item.position)
            }
        }
        named(titles)
        named(ids)
        payload.uint32(UInt32(links.count))
        for link in links {
            payload.uint32(index(link.url))
            payload.uint32(index(link.attribute))
            position(link.position)
        }
        payload.uint32(UInt32(imagesWithoutAlt.count))
        imagesWithoutAlt.forEach(position)
        named(parseErrors)
        return payload.bytes
    }

    /// The same facts with each string index `i` replaced by `map[i]`.
    func remapped(_ map: [UInt32]) -> IndexedFacts {
        var facts = self
        func named(_ list: inout [Named]) {
            for index in list.indices { list[index].text = map[Int(list[index].text)] }
        }
        named(&facts.titles)
        named(&facts.ids)
        named(&facts.parseErrors)
        for index in facts.links.indices {
            facts.links[index].url = map[Int(facts.links[index].url)]
            facts.links[index].attribute = map[Int(facts.links[index].attribute)]
        }
        return facts
    }

    /// Every string index the facts hold.
    var strings: [UInt32] {
        titles.map(\.text) + ids.map(\.text) + links.flatMap { [$0.url, $0.attribute] } + parseErrors.map(\.text)
    }
}
