import DaybookModel

/// What the checks need from a feed or a sitemap once it is parsed: whether it is well-formed,
/// its root, what the feed checks found, its `rel="self"` link and its `<loc>` URLs, with each
/// string an index in the check's `StringTable`. Kept in the facts cache by the file's bytes, so
/// after a one-post edit the 2,000 unchanged feeds and the 32,000-URL sitemap are not parsed
/// again; the URLs are still resolved against the files as they are on every run.
struct XMLSummary: Sendable {
    /// A string and where it stands.
    struct Located: Sendable {
        var text: UInt32
        var line: Int
        var column: Int
    }

    var root: UInt32?
    /// Why the file is not well-formed.
    var error: Located?
    /// What `SiteChecker.checkFeed` found in a feed.
    var feedProblems: [Located] = []
    /// A feed's first `<link rel="self">` address: the site's address is read from it.
    var selfLink: UInt32?
    /// `urlset/url/loc` of a sitemap, trimmed.
    var pageLocations: [Located] = []
    /// `sitemapindex/sitemap/loc` of a sitemap index, trimmed.
    var sitemapLocations: [Located] = []
    /// The `href` of each `<link>` of a feed and of its entries: links of the site like a page's.
    var feedLinks: [Located] = []

    init(_ facts: XMLFacts, feedProblems: [Diagnostic], table: inout StringTable) {
        root = facts.root.map { table.intern($0) }
        error = facts.error.map { Located(text: table.intern($0.message), line: $0.line, column: $0.column) }
        self.feedProblems = feedProblems.map {
            Located(text: table.intern($0.message), line: $0.location.line ?? 1, column: $0.location.column ?? 1)
        }
        if facts.root == "feed", let link = facts.all("feed/link").first(where: { $0.attributes["rel"] == "self" })?.attributes["href"] {
            selfLink = table.intern(link)
        }
        func locations(_ path: String) -> [Located] {
            facts.all(path).map { Located(text: table.intern(SiteChecker.trimmed($0.text)), line: $0.line, column: $0.column) }
        }
        pageLocations = locations("urlset/url/loc")
        sitemapLocations = locations("sitemapindex/sitemap/loc")
        if facts.root == "feed" {
            feedLinks = (facts.all("feed/link") + facts.all("feed/entry/link")).compactMap { link in
                link.attributes["href"].map { Located(text: table.intern(SiteChecker.trimmed($0)), line: link.line, column: link.column) }
            }
        }
    }

    /// Reads what `encode` wrote; `nil` when damaged or naming a string past `tableCount`.
    init?(payload: ArraySlice<UInt8>, tableCount: Int) {
        var reader = ByteReader(payload, at: payload.startIndex)
        func text() -> UInt32? {
            guard let index = reader.uint32(), Int(index) < tableCount else { return nil }
            return index
        }
        func optionalText() -> UInt32?? {
            guard let present = reader.bool() else { return nil }
            return present ? text().map { $0 } : .some(nil)
        }
        func located() -> Located? {
            guard let text = text(), let line = reader.uint32(), let column = reader.uint32() else { return nil }
            return Located(text: text, line: Int(line), column: Int(column))
        }
        func list() -> [Located]? { ByteReader.elements(reader.listCount(minimumBytes: 12), located) }
        guard let root = optionalText(), let hasError = reader.bool() else { return nil }
        let error = hasError ? located() : nil
        guard !hasError || error != nil, let problems = list(), let selfLink = optionalText(), let pages = list(),
            let sitemaps = list(), let links = list(), reader.atEnd
        else { return nil }
        (self.root, self.error, self.feedProblems, self.selfLink) = (root, error, problems, selfLink)
        (self.pageLocations, self.sitemapLocations, self.feedLinks) = (pages, sitemaps, links)
    }

    func encode(_ index: (UInt32) -> UInt32) -> [UInt8] {
        var payload = ByteWriter()
        func optional(_ text: UInt32?) {
            payload.bool(text != nil)
            if let text { payload.uint32(index(text)) }
        }
        func located(_ value: Located) {
            payload.uint32(index(value.text))
            payload.uint32(UInt32(clamping: value.line))
            payload.uint32(UInt32(clamping: value.column))
        }
        func list(_ values: [Located]) {
            payload.uint32(UInt32(values.count))
            values.forEach(located)
        }
        optional(root)
        payload.bool(error != nil)
        error.map(located)
        list(feedProblems)
        optional(selfLink)
        list(pageLocations)
        list(sitemapLocations)
        list(feedLinks)
        return payload.bytes
    }

    func remapped(_ map: [UInt32]) -> XMLSummary {
        var summary = self
        func renumbered(_ text: UInt32) -> UInt32 { map[Int(text)] }
        func renumbered(_ list: inout [Located]) {
            for index in list.indices { list[index].text = map[Int(list[index].text)] }
        }
        summary.root = root.map(renumbered)
        if let error { summary.error?.text = renumbered(error.text) }
        summary.selfLink = selfLink.map(renumbered)
        renumbered(&summary.feedProblems)
        renumbered(&summary.pageLocations)
        renumbered(&summary.sitemapLocations)
        renumbered(&summary.feedLinks)
        return summary
    }

    /// A hash of the located strings of `lists`, by their text: what a verdict on the file
    /// read of it. A caption edit changes a feed's summaries and a sitemap's dates, not the
    /// links or URLs they list, so their verdicts are taken again.
    func key(of lists: [[Located]], table: StringTable) -> UInt64 {
        var hash = StableHash()
        for list in lists {
            hash.combine(bits: UInt64(list.count))
            for item in list {
                hash.combine(table[item.text])
                hash.combine(bits: UInt64(item.line) << 32 | UInt64(UInt32(truncatingIfNeeded: item.column)))
            }
        }
        return hash.value
    }

    /// Every string index the summary holds.
    var strings: [UInt32] {
        [root, error?.text, selfLink].compactMap { $0 } + (feedProblems + pageLocations + sitemapLocations + feedLinks).map(\.text)
    }
}
