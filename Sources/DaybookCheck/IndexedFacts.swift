import DaybookModel

/// A page's facts with each string replaced by its index in the check's `StringTable`: what the
/// checks read, whether the page was parsed now or its facts came from the cache (where they are
/// stored in this form, so a cached page costs no string at all).
struct IndexedFacts: Sendable {
    struct Position: Sendable, Hashable {
        var line: Int
        var column: Int
    }

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
    /// What is wrong with the page as parsed: HTML5 parse errors, and attributes the contract
    /// rules out (an empty `href`).
    var pageErrors: [Named] = []
    /// Whether every field was read; `false` for facts read from the cache for their ids alone
    /// (`init(payload:tableCount:whole:)`), which hold no links, images or errors.
    private(set) var isWhole = true

    /// Reads what `encode` wrote; `nil` when the bytes are damaged or name a string past
    /// `tableCount` (the archive is untrusted).
    ///
    /// Every field is a little-endian `UInt32`, so the payload is read as words, each list's
    /// count checked once against the words left: a check after an edit reads 32,000 pages'
    /// facts this way, and a bounds check and a closure call per field were a tenth of it.
    ///
    /// - Parameter whole: `false` to keep only the titles and ids, what a page whose verdict the
    ///   cache holds is read for (its 1.5 million links were most of what a check after an edit
    ///   copied). The rest is checked all the same, so the whole facts read later never fail.
    init?(payload: ArraySlice<UInt8>, tableCount: Int, whole: Bool = true) {
        guard payload.count % 4 == 0 else { return nil }
        let decoded: IndexedFacts? = payload.withUnsafeBytes { raw in
            var words = Words(raw: raw, tableCount: UInt32(clamping: tableCount), keeps: whole)
            guard let titles = words.namedList(keeping: true), let ids = words.namedList(keeping: true), let links = words.links(),
                let images = words.positions(), let errors = words.namedList(keeping: whole), words.atEnd
            else { return nil }
            guard whole else { return IndexedFacts(titles: titles, ids: ids, isWhole: false) }
            return IndexedFacts(titles: titles, ids: ids, links: links, imagesWithoutAlt: images, pageErrors: errors)
        }
        guard let decoded else { return nil }
        self = decoded
    }

    private init(titles: [Named], ids: [Named], isWhole: Bool) {
        (self.titles, self.ids, self.isWhole) = (titles, ids, isWhole)
    }

    init(titles: [Named] = [], ids: [Named] = [], links: [Link] = [], imagesWithoutAlt: [Position] = [], pageErrors: [Named] = []) {
        (self.titles, self.ids, self.links, self.imagesWithoutAlt, self.pageErrors) = (titles, ids, links, imagesWithoutAlt, pageErrors)
    }

    /// The payload's words, read in order.
    private struct Words {
        let raw: UnsafeRawBufferPointer
        let tableCount: UInt32
        /// Whether the links and images are kept, or only checked.
        let keeps: Bool
        var at = 0

        init(raw: UnsafeRawBufferPointer, tableCount: UInt32, keeps: Bool) {
            (self.raw, self.tableCount, self.keeps) = (raw, tableCount, keeps)
        }

        var atEnd: Bool { at == raw.count }

        /// The word at `at + offset`, unchecked: callers check the words left first.
        private func word(_ offset: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4 * offset, as: UInt32.self)) }

        /// A list's count, when the words left hold that many elements of `width` words.
        private mutating func count(width: Int) -> Int? {
            guard raw.count - at >= 4 else { return nil }
            let count = Int(word(0))
            at += 4
            guard count <= (raw.count - at) / (4 * width) else { return nil }
            return count
        }

        private func position(_ offset: Int) -> Position { Position(line: Int(word(offset)), column: Int(word(offset + 1))) }

        /// A list of named strings, checked whole; empty unless `keeping`.
        mutating func namedList(keeping: Bool) -> [Named]? {
            guard let count = count(width: 3) else { return nil }
            var list: [Named] = []
            if keeping { list.reserveCapacity(count) }
            for _ in 0..<count {
                let text = word(0)
                guard text < tableCount else { return nil }
                if keeping { list.append(Named(text: text, position: position(1))) }
                at += 12
            }
            return list
        }

        mutating func links() -> [Link]? {
            guard let count = count(width: 4) else { return nil }
            var list: [Link] = []
            if keeps { list.reserveCapacity(count) }
            for _ in 0..<count {
                let (url, attribute) = (word(0), word(1))
                guard url < tableCount, attribute < tableCount else { return nil }
                if keeps { list.append(Link(url: url, attribute: attribute, position: position(2))) }
                at += 16
            }
            return list
        }

        mutating func positions() -> [Position]? {
            guard let count = count(width: 2) else { return nil }
            // Nothing to check in a position: skipped whole when not kept.
            guard keeps else {
                at += 8 * count
                return []
            }
            var list: [Position] = []
            list.reserveCapacity(count)
            for _ in 0..<count {
                list.append(position(0))
                at += 8
            }
            return list
        }
    }

    /// The facts as a cache entry, each index passed through `index` (the archive's table may be
    /// a compacted copy of the check's).
    func encode(_ index: (UInt32) -> UInt32) -> [UInt8] {
        precondition(isWhole, "facts read for their ids alone are not written back")
        // Gathered as words, then copied out as bytes at once: a cold check encodes 1.4 million
        // links, and a byte writer's call per field was most of saving them.
        var words: [UInt32] = []
        words.reserveCapacity(5 + 3 * (titles.count + ids.count + pageErrors.count) + 4 * links.count + 2 * imagesWithoutAlt.count)
        func position(_ at: Position) {
            words.append(UInt32(clamping: at.line).littleEndian)
            words.append(UInt32(clamping: at.column).littleEndian)
        }
        func named(_ list: [Named]) {
            words.append(UInt32(list.count).littleEndian)
            for item in list {
                words.append(index(item.text).littleEndian)
                position(item.position)
            }
        }
        named(titles)
        named(ids)
        words.append(UInt32(links.count).littleEndian)
        for link in links {
            words.append(index(link.url).littleEndian)
            words.append(index(link.attribute).littleEndian)
            position(link.position)
        }
        words.append(UInt32(imagesWithoutAlt.count).littleEndian)
        imagesWithoutAlt.forEach(position)
        named(pageErrors)
        return words.withUnsafeBytes { Array($0) }
    }

    /// The same facts with each string index `i` replaced by `map[i]`.
    func remapped(_ map: [UInt32]) -> IndexedFacts {
        precondition(isWhole, "facts read for their ids alone are not renumbered")
        var facts = self
        func named(_ list: inout [Named]) {
            for index in list.indices { list[index].text = map[Int(list[index].text)] }
        }
        named(&facts.titles)
        named(&facts.ids)
        named(&facts.pageErrors)
        for index in facts.links.indices {
            facts.links[index].url = map[Int(facts.links[index].url)]
            facts.links[index].attribute = map[Int(facts.links[index].attribute)]
        }
        return facts
    }

    /// Every string index the facts hold.
    var strings: [UInt32] {
        precondition(isWhole, "facts read for their ids alone do not hold every string")
        return titles.map(\.text) + ids.map(\.text) + links.flatMap { [$0.url, $0.attribute] } + pageErrors.map(\.text)
    }
}
