import DaybookModel
import DaybookParallel
import Foundation

/// Proves a rendered site sound: every internal link and fragment resolves, every page parses
/// and has one title, ids are unique, images have alt text, feeds and the sitemap are valid.
///
/// Works on a `CheckSource`, so the same checks run on a folder (`daybook check`) and on a
/// build in memory (`daybook build --check`). Pages are parsed on all cores.
package struct SiteChecker: Sendable {
    /// The site's published address (`https://example.org/blog/`); `nil` to read it from the
    /// output (a feed's `rel="self"` link, else the sitemap's shortest URL).
    package var baseURL: String?

    package init(baseURL: String? = nil) { self.baseURL = baseURL }

    package func check(_ source: some CheckSource) async -> CheckReport {
        var cache: PageFactsCache?
        return await check(source, cache: &cache)
    }

    /// Checks `source`, reading the facts of pages whose bytes `cache` knows instead of parsing
    /// them and taking the verdict on each file that still holds (`FileVerdict`) instead of
    /// judging its links again, and leaves in `cache` this run's facts and verdicts.
    ///
    /// In order: every file's facts (read, or parsed on all cores); the verdicts that hold; the
    /// links of the other pages, feeds and sitemap resolved and judged; what they all found,
    /// reported.
    package func check(_ source: some CheckSource, cache: inout PageFactsCache?) async -> CheckReport {
        let started = ContinuousClock.now
        let files = Set(source.paths.filter { !Self.isHidden($0) })
        let htmlPaths = files.filter(Self.isPage).sorted()
        let xmlPaths = files.filter { $0.hasSuffix(".xml") }.sorted()

        // The table leaves the cache while this run adds to it, and the reads look up entries
        // without it (`lookups`): shared, its first growth copied all its strings (179,000 on
        // medium), a twentieth of a check after an edit.
        var table = cache?.table ?? StringTable()
        cache?.table = StringTable()
        // Pages and feeds are read at once, so that neither waits for the other's last run.
        let known = cache?.lookups
        async let pageRuns = Self.read(htmlPaths, from: source, known: known, cached: { $0.facts($1, whole: false) }) { _, bytes, table in
            PageParser.facts(of: bytes, table: &table)
        }
        async let xmlRuns = Self.read(xmlPaths, from: source, known: known, cached: { $0.summary($1) }) { path, bytes, table in
            let document = XMLFacts(xml: bytes)
            let problems = document.error == nil && document.root == "feed" ? Self.checkFeed(path, document) : []
            return XMLSummary(document, feedProblems: problems, table: &table)
        }
        // Each file's facts, and for a page, feed or sitemap, the verdict on it.
        cache?.expect(2 * (htmlPaths.count + xmlPaths.count))
        let (facts, factsKeys, unreadPages) = Self.pages(htmlPaths, await Self.merge(pageRuns, into: &table), cache: &cache)
        var diagnostics = unreadPages
        let (xml, unreadXML) = Self.summaries(xmlPaths, await Self.merge(xmlRuns, into: &table), cache: &cache)
        diagnostics += unreadXML
        cache?.table = table

        let base = baseURL ?? Self.detectBaseURL(xml, table: table) ?? "/"
        let resolver = LinkResolver(files: files, baseURL: base)
        var site = CheckedPages(paths: htmlPaths, facts: facts, table: table)
        let verdicts = VerdictKeys(cache == nil ? nil : FileVerdict.context(baseURL: base, files: files, unread: htmlPaths.indices.filter { facts[$0] == nil }))

        // Pages whose verdicts hold are taken as they are; the others are checked now.
        let stored = cache
        let pageLookups = await Parallel.mapChunks(Array(htmlPaths.indices)) { [site] indexes in
            indexes.map { index -> (key: UInt64?, verdict: FileVerdict?) in
                let key = verdicts.key(path: htmlPaths[index], facts: factsKeys[index])
                return (key, facts[index] == nil ? nil : verdicts.held(stored, key: key, on: site))
            }
        }
        let pageKeys = pageLookups.map(\.key)
        var pageVerdicts = pageLookups.map(\.verdict)
        // Likewise each feed's links, and the sitemap's URLs.
        let feedPaths = xmlPaths.filter { xml[$0]?.error == nil && xml[$0]?.root.map({ table[$0] }) == "feed" }
        var feedVerdicts: [String: FileVerdict] = [:]
        let feedKeys = Dictionary(uniqueKeysWithValues: feedPaths.map { ($0, verdicts.key(path: $0, facts: xml[$0]!.key(of: [xml[$0]!.feedLinks], table: table))) })
        for path in feedPaths { feedVerdicts[path] = verdicts.held(cache, key: feedKeys[path]!, on: site) }
        let sitemapKey = verdicts.key(path: "sitemap.xml", facts: Self.sitemapsKey(xml, table: table))
        let sitemap = xml["sitemap.xml"].flatMap { $0.error == nil ? $0 : nil }
        var sitemapVerdict = sitemap == nil ? nil : verdicts.held(cache, key: sitemapKey, on: site)

        let checking = htmlPaths.indices.filter { facts[$0] != nil && pageVerdicts[$0] == nil }
        let feedsChecked = Set(feedPaths.filter { feedVerdicts[$0] == nil })
        let sitemapChecked = sitemap != nil && sitemapVerdict == nil
        // A page taken from the cache was read for its ids alone; the pages checked need the rest.
        for index in checking where facts[index]?.isWhole == false {
            guard let whole = stored?.facts(factsKeys[index]) else { preconditionFailure("the cached facts read whole before") }
            site.complete(index, with: whole)
        }
        var extra = feedsChecked.flatMap { xml[$0]!.feedLinks.map(\.text) }
        if sitemapChecked {
            extra += xml.values.filter { $0.root.map({ table[$0] }) != "feed" }.flatMap { ($0.pageLocations + $0.sitemapLocations).map(\.text) }
        }
        let shared = await LinkAnswers.everywhere(resolver: resolver, pages: site, checking: checking, extra: extra)
        let checked = await Parallel.mapChunks(checking) { [site] indexes -> [FileVerdict] in
            var answers = LinkAnswers(shared)
            return indexes.map { Self.checkPage($0, site.facts[$0]!, site: site, answers: &answers) }
        }
        for (index, verdict) in zip(checking, checked) { pageVerdicts[index] = verdict }
        let checkedSet = Set(checking)
        for path in feedsChecked { feedVerdicts[path] = Self.checkFeedLinks(path, xml[path]!, answers: shared, site: site) }
        if sitemapChecked, let sitemap { sitemapVerdict = Self.checkSitemap(sitemap, xml: xml, answers: shared, pages: htmlPaths) }

        var internalLinks = 0
        var external = Set<String>()
        for (index, verdict) in pageVerdicts.enumerated() {
            guard let verdict else { continue }
            verdicts.record(verdict, in: &cache, key: pageKeys[index], cached: !checkedSet.contains(index))
            diagnostics += verdict.diagnostics
            internalLinks += verdict.count
            for url in verdict.external { external.insert(String(LinkResolver.trimmed(table[url]))) }
        }

        var feeds = 0
        var sitemapCount = 0
        for path in xmlPaths {
            guard let document = xml[path] else { continue }
            if let error = document.error {
                diagnostics.append(.error(table[error.text], at: SourceLocation(path: path, line: error.line, column: error.column)))
                continue
            }
            if document.root.map({ table[$0] }) == "feed" {
                feeds += 1
                diagnostics += document.feedProblems.map {
                    .error(table[$0.text], at: SourceLocation(path: path, line: $0.line, column: $0.column))
                }
                if let verdict = feedVerdicts[path] {
                    verdicts.record(verdict, in: &cache, key: feedKeys[path]!, cached: !feedsChecked.contains(path))
                    diagnostics += verdict.diagnostics
                }
            } else if path == "sitemap.xml", let verdict = sitemapVerdict {
                // The parts of a sitemap index are checked through the index.
                verdicts.record(verdict, in: &cache, key: sitemapKey, cached: !sitemapChecked)
                diagnostics += verdict.diagnostics
                sitemapCount = verdict.count
            }
        }
        cache?.finish()
        diagnostics += Self.checkLeftovers(source)
        if !files.contains("sitemap.xml") {
            diagnostics.append(.error("the site has no sitemap.xml", at: SourceLocation(path: "sitemap.xml")))
        }
        let elapsed = ContinuousClock.now - started
        return CheckReport(
            diagnostics: diagnostics.sorted(), pages: htmlPaths.count, internalLinks: internalLinks,
            externalLinks: external.sorted(), feeds: feeds, sitemapURLs: sitemapCount,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// A feed's links (the `<link href>` of the feed and of each entry) resolve as a page's do,
    /// fragments too: a comments feed links each comment by its element id (CONTRACT §4, §6).
    static func checkFeedLinks(_ path: String, _ feed: XMLSummary, answers: LinkAnswers, site: CheckedPages) -> FileVerdict {
        var targets = FileVerdict.Targets()
        let found = feed.feedLinks.compactMap { link -> Diagnostic? in
            let answer = answers.answer(link.text, fromFile: path)
            targets.note(answer, from: nil)
            return linkError(answer, url: site.table[link.text], at: SourceLocation(path: path, line: link.line, column: link.column), site: site)
        }
        return targets.verdict(diagnostics: found, on: site)
    }

    /// Whether the file at `path` is a page: `<path>/index.html`, or `404.html` (CONTRACT §4:
    /// every page is `<path>/index.html`, linked as `<path>/`). Another HTML file, such as a
    /// search engine's verification file copied from `content/`, is a file: links may name it,
    /// but it is the site's author's, not held to the rules of a page (a title, a place in the
    /// sitemap), which a build does not check either.
    static func isPage(_ path: String) -> Bool {
        path == "404.html" || path == "index.html" || path.hasSuffix("/index.html")
    }

    /// Whether a name on the path starts with a dot (the build's own files, `.well-known`, …),
    /// read on bytes: a cold check asks it of 34,000 paths before anything else.
    static func isHidden(_ path: String) -> Bool {
        var atNameStart = true
        for byte in path.utf8 {
            if atNameStart && byte == UInt8(ascii: ".") { return true }
            atNameStart = byte == UInt8(ascii: "/")
        }
        return false
    }

    /// Each page's facts as read, recorded in `cache`; `nil` for a page that could not be read,
    /// which is reported.
    private static func pages(
        _ paths: [String], _ pages: [Read<IndexedFacts>?], cache: inout PageFactsCache?
    ) -> ([IndexedFacts?], keys: [UInt64], [Diagnostic]) {
        var facts: [IndexedFacts?] = []
        var keys: [UInt64] = []
        facts.reserveCapacity(paths.count)
        keys.reserveCapacity(paths.count)
        var diagnostics: [Diagnostic] = []
        for (path, page) in zip(paths, pages) {
            keys.append(page?.key ?? 0)
            guard let page else {
                diagnostics.append(.error("cannot read the page: it is a symbolic link, not a regular file, or too large to check", at: SourceLocation(path: path)))
                facts.append(nil)
                continue
            }
            facts.append(page.facts)
            cache?.use(page.facts, key: page.key, cached: page.cached)
            cache?.noteFile(path, status: page.status, key: page.key, stored: page.stored)
        }
        return (facts, keys, diagnostics)
    }

    /// What the checks need of each feed and sitemap, by path, as read (a feed is checked as it
    /// is parsed), recorded in `cache`.
    private static func summaries(
        _ paths: [String], _ files: [Read<XMLSummary>?], cache: inout PageFactsCache?
    ) -> ([String: XMLSummary], [Diagnostic]) {
        var xml: [String: XMLSummary] = [:]
        var diagnostics: [Diagnostic] = []
        for (path, file) in zip(paths, files) {
            // Not read (a link, not a file, over the size limit): an error, as for a page, so that
            // a sitemap or feed put out of reach fails the check instead of passing unread.
            guard let file else {
                diagnostics.append(.error("cannot read the file: it is a symbolic link, not a regular file, or too large to check", at: SourceLocation(path: path)))
                continue
            }
            xml[path] = file.facts
            cache?.use(file.facts, key: file.key, cached: file.cached)
            cache?.noteFile(path, status: file.status, key: file.key, stored: file.stored)
        }
        return (xml, diagnostics)
    }

    /// What a check read of one file: its key and status (for the cache), and its facts, from
    /// the cache (`cached`) or parsed now.
    struct Read<Facts: Sendable>: Sendable {
        var key: UInt64
        var status: FileStatus?
        var facts: Facts
        var cached: Bool
        var stored = PageFactsCache.StoredKey.absent
    }

    /// Files read on all cores in runs; each run interns the strings of what it parses into a
    /// table of its own (`merge` then renumbers them).
    typealias ReadRun<Facts: Sendable> = (own: StringTable, files: [Read<Facts>?])

    /// Each file's facts, run by run in the order of `paths`, from the cache when it knows the
    /// file's bytes, else parsed now; `nil` for a file that cannot be read.
    private static func read<Facts: ArchivedFacts>(
        _ paths: [String], from source: some CheckSource, known: PageFactsCache?,
        cached: @escaping @Sendable (PageFactsCache, UInt64) -> Facts?,
        parse: @escaping @Sendable (_ path: String, _ bytes: [UInt8], _ table: inout StringTable) -> Facts
    ) async -> [ReadRun<Facts>] {
        await Parallel.map(Parallel.runs(of: paths)) { run -> ReadRun<Facts> in
            var own = StringTable()
            let files = run.map { path in
                read(path, from: source, known: known, cached: cached) { parse(path, $0, &own) }
            }
            return (own, files)
        }
    }

    /// The files of `runs` with their facts over `table`. A cold check parses 32,000 pages with
    /// 1.4 million links: only each run's distinct strings are merged into `table`, and the
    /// parsed facts renumbered (on all cores). Facts from the cache already name `table`.
    private static func merge<Facts: ArchivedFacts>(_ runs: [ReadRun<Facts>], into table: inout StringTable) async -> [Read<Facts>?] {
        var maps: [[UInt32]] = []
        // At most every run's strings are new (on a cold check of medium, 349,000 for 179,000 distinct).
        table.reserveCapacity(more: runs.reduce(0) { $0 + $1.own.count })
        for run in runs { maps.append(run.own.strings.map { table.intern($0) }) }
        let renumbered = await Parallel.map(Array(zip(runs.map(\.files), maps))) { files, map in
            files.map { file in file.map { $0.cached ? $0 : Read(key: $0.key, status: $0.status, facts: $0.facts.remapped(map), cached: false, stored: $0.stored) } }
        }
        return renumbered.flatMap { $0 }
    }

    /// One file as a check reads it: its key and status, and its facts from `known` when its
    /// status or its bytes say they are there, else as `parse` finds them; `nil` when it cannot
    /// be read. Without a cache, the key is 0 and nothing but the bytes is read.
    private static func read<Facts>(
        _ path: String, from source: some CheckSource, known: PageFactsCache?,
        cached: (PageFactsCache, UInt64) -> Facts?, parse: ([UInt8]) -> Facts
    ) -> Read<Facts>? {
        // The status first, then the bytes: a write in between leaves a status older than the
        // bytes read, which the next run does not trust. A file the cache holds no key for takes
        // its status from the open file instead (the same order: `fstat`, then the bytes).
        guard let known else { return source.bytes(of: path).map { Read(key: 0, status: nil, facts: parse($0), cached: false) } }
        var status: FileStatus?
        var storedKey = PageFactsCache.StoredKey.absent
        let bytes: [UInt8]
        if let stored = known.storedKey(path) {
            status = source.status(of: path)
            if let key = known.key(stored, status: status) {
                storedKey = .trusted
                if let facts = cached(known, key) { return Read(key: key, status: status, facts: facts, cached: true, stored: .trusted) }
            } else {
                storedKey = .stale
            }
            guard let read = source.bytes(of: path) else { return nil }
            bytes = read
        } else {
            guard let read = source.bytesAndStatus(of: path) else { return nil }
            (bytes, status) = read
        }
        let key = PageFactsCache.key(bytes)
        if let facts = cached(known, key) { return Read(key: key, status: status, facts: facts, cached: true, stored: storedKey) }
        return Read(key: key, status: status, facts: parse(bytes), cached: false, stored: storedKey)
    }

    /// The suffix of a file the build writes before renaming it into place.
    static let temporarySuffix = ".daybook-tmp"
    /// The folder inside the output where the build keeps those files while it runs.
    static let temporaryFolder = ".daybook-tmp"

    /// A temporary file or folder left in the output means a build was stopped half-way: the
    /// file is a page that was never put in place (or one of a post since removed), and a
    /// server would publish it as it stands.
    static func checkLeftovers(_ source: some CheckSource) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for path in source.paths where path.hasSuffix(temporarySuffix) {
            found.append(.error("a temporary file left by an interrupted build: build the site again, or delete it", at: SourceLocation(path: path)))
        }
        if source.exists(temporaryFolder) {
            found.append(.error("a folder of temporary files left by an interrupted build: build the site again, or delete it", at: SourceLocation(path: temporaryFolder)))
        }
        return found
    }

    /// What is wrong with the page at `index`: its own structure and every link on it.
    static func checkPage(_ index: Int, _ page: IndexedFacts, site: CheckedPages, answers: inout LinkAnswers) -> FileVerdict {
        let path = site.paths[index]
        let table = site.table
        var found: [Diagnostic] = []
        func at(_ position: IndexedFacts.Position) -> SourceLocation {
            SourceLocation(path: path, line: position.line, column: position.column)
        }
        for error in page.pageErrors { found.append(.error(table[error.text], at: at(error.position))) }
        switch page.titles.count {
        case 0: found.append(.error("the page has no <title>", at: SourceLocation(path: path, line: 1, column: 1)))
        case 1:
            if table[page.titles[0].text].allSatisfy(\.isWhitespace) { found.append(.error("the <title> is empty", at: at(page.titles[0].position))) }
        default:
            for title in page.titles.dropFirst() { found.append(.error("the page has \(page.titles.count) <title> elements", at: at(title.position))) }
        }
        var firstLine: [UInt32: Int] = [:]
        for id in page.ids {
            if let line = firstLine[id.text] {
                found.append(.error("duplicate id '\(table[id.text])' (first at line \(line))", at: at(id.position)))
            } else {
                firstLine[id.text] = id.position.line
            }
        }
        for position in page.imagesWithoutAlt { found.append(.error("<img> without alt text", at: at(position))) }

        var internalCount = 0
        var external: [UInt32: Void] = [:]
        var targets = FileVerdict.Targets()
        for link in page.links {
            let answer = answers.answer(link.url, from: index)
            switch answer {
            case .external: external[link.url] = ()
            case .missing, .file: internalCount += 1
            case .ignored, .problem: break
            }
            targets.note(answer, from: index)
            if let error = Self.linkError(answer, url: table[link.url], at: at(link.position), site: site, naming: table[link.attribute]) {
                found.append(error)
            }
        }
        var verdict = targets.verdict(diagnostics: found, on: site)
        verdict.count = internalCount
        verdict.external = external.keys.sorted()
        return verdict
    }

    /// What is wrong with a link, by what it led to, wherever it stands (a page, a feed): one
    /// wording for both.
    ///
    /// `naming` is the attribute or `<meta>` property the URL stands in: a canonical URL or a
    /// link preview's (CONTRACT §12) is said as such, since no reader clicks it and a broken one
    /// only shows in a search result or a shared link.
    static func linkError(_ answer: LinkAnswers.Answer, url: String, at: SourceLocation, site: CheckedPages, naming: String = "href") -> Diagnostic? {
        switch answer {
        case .ignored, .external: return nil
        case .problem(let message): return .error(message, at: at)
        case .missing where naming == PageParser.canonical: return .error("the canonical URL \(url) names no file of the output", at: at)
        case .missing where PageParser.previewProperties.contains(naming): return .error("\(naming) \(url) names no file of the output", at: at)
        case .missing: return .error("link to \(url) does not resolve", at: at)
        case .file(_, let target, let fragment):
            guard let fragment, let target, !site.has(id: fragment.index, on: target) else { return nil }
            return .error("link to \(url): \(site.paths[target]) has no element with id '\(fragment.text)'", at: at)
        }
    }

    /// RFC 4287: a feed and each entry need an id, a title and an `updated` date; an author on the feed or on every entry.
    static func checkFeed(_ path: String, _ feed: XMLFacts) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let rootLine = feed.elements.last?.line ?? 1
        for required in ["id", "title", "updated"] where feed.all("feed/\(required)").isEmpty {
            found.append(.error("the Atom feed has no <\(required)>", at: SourceLocation(path: path, line: rootLine, column: 1)))
        }
        let feedHasAuthor = !feed.all("feed/author/name").isEmpty
        // Elements are listed as they end, so an entry's children come just before it: one pass
        // (a feed's entries times its elements was most of a check's time on feeds).
        var children = Set<String>()
        var index = 0
        for element in feed.elements {
            if element.path.hasPrefix("feed/entry/") {
                children.insert(element.path)
                continue
            }
            guard element.path == "feed/entry" else { continue }
            index += 1
            let at = SourceLocation(path: path, line: element.line, column: element.column)
            for required in ["id", "title", "updated"] where !children.contains("feed/entry/\(required)") {
                found.append(.error("Atom entry \(index) has no <\(required)>", at: at))
            }
            if !feedHasAuthor && !children.contains("feed/entry/author/name") {
                found.append(.error("Atom entry \(index) has no author, and the feed has none", at: at))
            }
            children = []
        }
        for updated in feed.elements where updated.path.hasSuffix("/updated") && Instant(rfc3339: updated.text) == nil {
            found.append(.error("<updated> '\(updated.text)' is not an RFC 3339 date-time", at: SourceLocation(path: path, line: updated.line, column: updated.column)))
        }
        return found
    }

    /// Every sitemap URL is a page in the folder, and every page (404 aside) is in the sitemap,
    /// following a sitemap index (`<sitemapindex>`) to its parts.
    static func checkSitemap(_ sitemap: XMLSummary, xml: [String: XMLSummary], answers: LinkAnswers, pages: [String]) -> FileVerdict {
        let table = answers.pages.table
        var found: [Diagnostic] = []
        var listed = Set<String>()
        var count = 0
        var sets: [(path: String, document: XMLSummary)] = []
        var complete = true
        if sitemap.root.map({ table[$0] }) == "sitemapindex" {
            for entry in sitemap.sitemapLocations {
                let at = SourceLocation(path: "sitemap.xml", line: entry.line, column: entry.column)
                guard case .file(let part, _, _) = answers.answerFromRoot(entry.text), let document = xml[part] else {
                    found.append(.error("sitemap index entry \(table[entry.text]) is not a sitemap in the folder", at: at))
                    continue
                }
                // A broken part is reported in its own file; the pages it would list are unknown.
                if document.error == nil { sets.append((part, document)) } else { complete = false }
            }
        } else {
            sets.append(("sitemap.xml", sitemap))
        }
        for (path, document) in sets {
            count += document.pageLocations.count
            for loc in document.pageLocations {
                if case .file(let target, _, _) = answers.answerFromRoot(loc.text), target.hasSuffix(".html") {
                    listed.insert(target)
                } else {
                    found.append(.error("sitemap URL \(table[loc.text]) has no page in the folder", at: SourceLocation(path: path, line: loc.line, column: loc.column)))
                }
            }
        }
        for page in pages where complete && page != "404.html" && !listed.contains(page) {
            found.append(.error("the page is not in sitemap.xml", at: SourceLocation(path: page, line: 1, column: 1)))
        }
        return FileVerdict(diagnostics: found, count: count)
    }

    /// What the sitemap check reads besides the files: every XML file's root, whether it parsed
    /// and its URLs (none, in a feed), by path. A sitemap index may name any XML file as a part,
    /// and a part that did not parse leaves the pages it would list unknown.
    static func sitemapsKey(_ xml: [String: XMLSummary], table: StringTable) -> UInt64 {
        var hash = StableHash()
        for (path, document) in xml.sorted(by: { $0.key < $1.key }) {
            hash.combine(path)
            hash.combine(document.root.map { table[$0] } ?? "")
            hash.combine(bits: document.error == nil ? 0 : 1)
            hash.combine(bits: document.key(of: [document.pageLocations, document.sitemapLocations], table: table))
        }
        return hash.value
    }

    /// The text without the whitespace around it; most sitemap URLs have none, and are returned
    /// without going through Foundation (32,000 of them on a 20,000-post site).
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last, first <= 0x20 || first >= 0x80 || last <= 0x20 || last >= 0x80
        else { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The site's address as the output states it: a feed's `rel="self"` link minus the feed's
    /// path, else the shortest sitemap URL (the home page).
    static func detectBaseURL(_ xml: [String: XMLSummary], table: StringTable) -> String? {
        for (path, document) in xml.sorted(by: { $0.key < $1.key }) where document.root.map({ table[$0] }) == "feed" {
            if let link = document.selfLink.map({ table[$0] }), link.hasSuffix(path) {
                return String(link.dropLast(path.count))
            }
        }
        return xml["sitemap.xml"]?.pageLocations.map { table[$0.text] }.min { $0.count < $1.count }
    }
}
