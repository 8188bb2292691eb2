import DaybookModel
import DaybookParallel
import Foundation

/// Proves a rendered site sound: every internal link and fragment resolves, every page parses
/// and has one title, ids are unique, images have alt text, feeds and the sitemap are valid.
///
/// Works on a `CheckSource`, so the same checks run on a folder (`daybook check`) and on a
/// build in memory (`daybook build --check`). Pages are parsed on all cores.
public struct SiteChecker: Sendable {
    /// The site's published address (`https://example.org/blog/`); `nil` to read it from the
    /// output (a feed's `rel="self"` link, else the sitemap's shortest URL).
    public var baseURL: String?

    public init(baseURL: String? = nil) { self.baseURL = baseURL }

    public func check(_ source: some CheckSource) async -> CheckReport {
        var cache: PageFactsCache?
        return await check(source, cache: &cache)
    }

    /// Checks `source`, reading the facts of pages whose bytes `cache` knows instead of parsing
    /// them, and leaves in `cache` the facts of this run's pages.
    public func check(_ source: some CheckSource, cache: inout PageFactsCache?) async -> CheckReport {
        let started = ContinuousClock.now
        let files = Set(source.paths.filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } })
        let htmlPaths = files.filter { $0.hasSuffix(".html") }.sorted()
        let xmlPaths = files.filter { $0.hasSuffix(".xml") }.sorted()

        let known = cache
        let pages = await Parallel.map(htmlPaths) { path -> (facts: PageFacts, key: UInt64, cached: Bool)? in
            guard let bytes = source.bytes(of: path) else { return nil }
            guard let known else { return (PageFacts(html: bytes), 0, false) }
            let key = PageFactsCache.key(bytes)
            if let facts = known.facts(key) { return (facts, key, true) }
            return (PageFacts(html: bytes), key, false)
        }
        var facts: [String: PageFacts] = [:]
        var diagnostics: [Diagnostic] = []
        for (path, page) in zip(htmlPaths, pages) {
            if let page {
                facts[path] = page.facts
                cache?.use(page.facts, key: page.key, cached: page.cached)
            } else {
                diagnostics.append(.error("cannot read the page", at: SourceLocation(path: path)))
            }
        }
        cache?.finish()
        var xml: [String: XMLFacts] = [:]
        for path in xmlPaths {
            if let bytes = source.bytes(of: path) { xml[path] = XMLFacts(xml: bytes) }
        }

        let base = baseURL ?? Self.detectBaseURL(xml) ?? "/"
        let resolver = LinkResolver(files: files, baseURL: base)
        let ids = facts.mapValues(\.idSet)
        let parsed = facts
        let pageResults = await Parallel.mapChunks(htmlPaths) { paths -> [([Diagnostic], Int, Set<String>)] in
            var memo = LinkMemo(resolver: resolver)
            return paths.map { path in
                guard let page = parsed[path] else { return ([], 0, []) }
                return Self.checkPage(path, page, ids: ids, memo: &memo)
            }
        }
        var internalLinks = 0
        var external = Set<String>()
        for (found, count, externals) in pageResults {
            diagnostics += found
            internalLinks += count
            external.formUnion(externals)
        }

        var feeds = 0
        var sitemapURLs = 0
        for path in xmlPaths {
            guard let document = xml[path] else { continue }
            if let error = document.error {
                diagnostics.append(.error(error.message, at: SourceLocation(path: path, line: error.line, column: error.column)))
                continue
            }
            if document.root == "feed" {
                feeds += 1
                diagnostics += Self.checkFeed(path, document)
            } else if path == "sitemap.xml" {
                // The parts of a sitemap index are checked through the index.
                var memo = LinkMemo(resolver: resolver)
                let (found, count) = Self.checkSitemap(document, xml: xml, memo: &memo, pages: htmlPaths)
                diagnostics += found
                sitemapURLs = count
            }
        }
        diagnostics += Self.checkLeftovers(source)
        if !files.contains("sitemap.xml") {
            diagnostics.append(.error("the site has no sitemap.xml", at: SourceLocation(path: "sitemap.xml")))
        }
        let elapsed = ContinuousClock.now - started
        return CheckReport(
            diagnostics: diagnostics.sorted(), pages: htmlPaths.count, internalLinks: internalLinks,
            externalLinks: external.sorted(), feeds: feeds, sitemapURLs: sitemapURLs,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
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

    static func checkPage(_ path: String, _ page: PageFacts, ids: [String: Set<String>], memo: inout LinkMemo) -> ([Diagnostic], Int, Set<String>) {
        var found: [Diagnostic] = []
        func at(_ position: PageFacts.Position) -> SourceLocation {
            SourceLocation(path: path, line: position.line, column: position.column)
        }
        for error in page.parseErrors { found.append(.error(error.message, at: at(error.position))) }
        switch page.titles.count {
        case 0: found.append(.error("the page has no <title>", at: SourceLocation(path: path, line: 1, column: 1)))
        case 1:
            if page.titles[0].text.allSatisfy(\.isWhitespace) { found.append(.error("the <title> is empty", at: at(page.titles[0].position))) }
        default:
            for title in page.titles.dropFirst() { found.append(.error("the page has \(page.titles.count) <title> elements", at: at(title.position))) }
        }
        var firstLine: [String: Int] = [:]
        for (id, position) in page.ids {
            if let line = firstLine[id] {
                found.append(.error("duplicate id '\(id)' (first at line \(line))", at: at(position)))
            } else {
                firstLine[id] = position.line
            }
        }
        for position in page.imagesWithoutAlt { found.append(.error("<img> without alt text", at: at(position))) }

        var internalCount = 0
        var external = Set<String>()
        for link in page.links {
            switch memo.resolve(link.url, from: path) {
            case .ignored: break
            case .external(let url): external.insert(url)
            case .problem(let message): found.append(.error(message, at: at(link.position)))
            case .missing:
                internalCount += 1
                found.append(.error("link to \(link.url) does not resolve", at: at(link.position)))
            case .file(let target, let fragment):
                internalCount += 1
                if let fragment, !fragment.isEmpty, let targetIDs = ids[target], !targetIDs.contains(fragment) {
                    found.append(.error("link to \(link.url): \(target) has no element with id '\(fragment)'", at: at(link.position)))
                }
            }
        }
        return (found, internalCount, external)
    }

    /// RFC 4287: a feed and each entry need an id, a title and an `updated` date; an author on the feed or on every entry.
    static func checkFeed(_ path: String, _ feed: XMLFacts) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let rootLine = feed.elements.last?.line ?? 1
        for required in ["id", "title", "updated"] where feed.all("feed/\(required)").isEmpty {
            found.append(.error("the Atom feed has no <\(required)>", at: SourceLocation(path: path, line: rootLine, column: 1)))
        }
        let feedHasAuthor = !feed.all("feed/author/name").isEmpty
        let entries = feed.all("feed/entry")
        for (index, entry) in entries.enumerated() {
            let at = SourceLocation(path: path, line: entry.line, column: entry.column)
            let children = feed.elements.filter { $0.path.hasPrefix("feed/entry/") && $0.line >= entry.line && (index + 1 == entries.count || $0.line < entries[index + 1].line) }
            for required in ["id", "title", "updated"] where !children.contains(where: { $0.path == "feed/entry/\(required)" }) {
                found.append(.error("Atom entry \(index + 1) has no <\(required)>", at: at))
            }
            if !feedHasAuthor && !children.contains(where: { $0.path == "feed/entry/author/name" }) {
                found.append(.error("Atom entry \(index + 1) has no author, and the feed has none", at: at))
            }
        }
        for updated in feed.elements where updated.path.hasSuffix("/updated") && Instant(rfc3339: updated.text) == nil {
            found.append(.error("<updated> '\(updated.text)' is not an RFC 3339 date-time", at: SourceLocation(path: path, line: updated.line, column: updated.column)))
        }
        return found
    }

    /// Every sitemap URL is a page in the folder, and every page (404 aside) is in the sitemap,
    /// following a sitemap index (`<sitemapindex>`) to its parts.
    static func checkSitemap(_ sitemap: XMLFacts, xml: [String: XMLFacts], memo: inout LinkMemo, pages: [String]) -> ([Diagnostic], Int) {
        var found: [Diagnostic] = []
        var listed = Set<String>()
        var count = 0
        var sets: [(path: String, document: XMLFacts)] = []
        var complete = true
        if sitemap.root == "sitemapindex" {
            for entry in sitemap.all("sitemapindex/sitemap/loc") {
                let url = entry.text.trimmingCharacters(in: .whitespacesAndNewlines)
                let at = SourceLocation(path: "sitemap.xml", line: entry.line, column: entry.column)
                guard case .file(let part, _) = memo.resolve(url, from: "index.html"), let document = xml[part] else {
                    found.append(.error("sitemap index entry \(url) is not a sitemap in the folder", at: at))
                    continue
                }
                // A broken part is reported in its own file; the pages it would list are unknown.
                if document.error == nil { sets.append((part, document)) } else { complete = false }
            }
        } else {
            sets.append(("sitemap.xml", sitemap))
        }
        for (path, document) in sets {
            let locs = document.all("urlset/url/loc")
            count += locs.count
            for loc in locs {
                let url = loc.text.trimmingCharacters(in: .whitespacesAndNewlines)
                if case .file(let target, _) = memo.resolve(url, from: "index.html"), target.hasSuffix(".html") {
                    listed.insert(target)
                } else {
                    found.append(.error("sitemap URL \(url) has no page in the folder", at: SourceLocation(path: path, line: loc.line, column: loc.column)))
                }
            }
        }
        for page in pages where complete && page != "404.html" && !listed.contains(page) {
            found.append(.error("the page is not in sitemap.xml", at: SourceLocation(path: page, line: 1, column: 1)))
        }
        return (found, count)
    }

    /// The site's address as the output states it: a feed's `rel="self"` link minus the feed's
    /// path, else the shortest sitemap URL (the home page).
    static func detectBaseURL(_ xml: [String: XMLFacts]) -> String? {
        for (path, document) in xml.sorted(by: { $0.key < $1.key }) where document.root == "feed" {
            if let link = document.all("feed/link").first(where: { $0.attributes["rel"] == "self" })?.attributes["href"],
                link.hasSuffix(path)
            {
                return String(link.dropLast(path.count))
            }
        }
        return xml["sitemap.xml"]?.all("urlset/url/loc").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            .min { $0.count < $1.count }
    }
}
