import DaybookModel
import DaybookParallel
import Foundation

/// Resolves a link found on a page to a file of the site, as a static server would.
///
/// `x/` is `x/index.html`; `x` is the file `x`, or `x/index.html` (a server redirects); paths
/// are percent-decoded; root-relative links must stay under the base URL's path; absolute links
/// to the base URL are internal, other absolute links are external.
struct LinkResolver: Sendable {
    enum Resolution: Sendable, Equatable {
        case file(String, fragment: String?)
        case missing
        case external(String)
        /// `mailto:`, `tel:`, `data:`, and links to the page itself without a fragment.
        case ignored
        case problem(String)
    }

    /// The site's files, told apart by their bytes as a server's file system tells names apart:
    /// a `Set<String>` would find `café/` written composed for a link to it written decomposed,
    /// which a server on Linux answers with a 404.
    let files: Set<ExactString>
    /// Absolute (`https://example.org/blog/`) or a path (`/blog/`).
    let baseURL: String
    /// The path part of `baseURL`, starting and ending with `/`.
    let basePath: String

    init(files: Set<String>, baseURL: String) {
        self.files = Set(files.map { ExactString($0) })
        var base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        if !base.contains("://") && !base.hasPrefix("/") { base = "/" + base }
        self.baseURL = base
        if let scheme = base.range(of: "://") {
            let afterHost = base[scheme.upperBound...].drop { $0 != "/" }
            basePath = afterHost.isEmpty ? "/" : String(afterHost)
        } else {
            basePath = base
        }
    }

    /// Called once per link (over a million on a 20,000-post site), so it works on bytes and
    /// avoids Foundation's bridged string APIs and regular expressions.
    func resolve(_ raw: String, from page: String) -> Resolution {
        let link = Self.trimmed(raw)
        var rest = link
        var fragment: String?
        // `#` and `?` are ASCII, so their byte positions are character boundaries.
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = PercentEncoding.decode(rest[rest.index(after: hash)...]) ?? String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let given = fragment {
            // As a browser finds a fragment's target (HTML's "indicated part"): a text directive
            // (`:~:text=…`) is not part of it, and an empty fragment or `top` (in any ASCII case)
            // is the top of the page, which needs no element.
            let id = given.range(of: ":~:").map { String(given[..<$0.lowerBound]) } ?? given
            fragment = id.isEmpty || (id.utf8.count == 3 && id.lowercased() == "top") ? nil : id
        }
        if let query = rest.utf8.firstIndex(of: UInt8(ascii: "?")) { rest = rest[..<query] }
        if rest.isEmpty {
            return fragment == nil ? .ignored : .file(page, fragment: fragment)
        }
        var path: Substring
        if let scheme = Self.scheme(of: rest) {
            switch scheme {
            case "javascript": return .problem("javascript: link")
            case "mailto", "tel", "data": return .ignored
            default:
                guard baseURL.contains("://"), let after = URLPrefix.drop(baseURL, from: rest) else { return .external(String(link)) }
                path = after
            }
        } else if rest.hasPrefix("//") {
            return .external(String(link))
        } else if rest.hasPrefix("/") {
            guard let after = URLPrefix.drop(basePath, from: rest) else { return .problem("link to \(link) leaves the site's base path \(basePath)") }
            path = after
        } else {
            let folderEnd = page.lastIndex(of: "/")
            path = (folderEnd.map { String(page[...$0]) } ?? "") + rest
        }
        guard let decoded = PercentEncoding.decode(path) else { return .problem("link to \(link) has invalid percent-encoding") }
        // Without a `.` segment the path is already normal (the usual case, over a million times a check).
        let dotted = decoded.utf8.first == UInt8(ascii: ".") || decoded.utf8.indices.contains { index in
            decoded.utf8[index] == UInt8(ascii: "/") && decoded.utf8.index(after: index) < decoded.utf8.endIndex
                && decoded.utf8[decoded.utf8.index(after: index)] == UInt8(ascii: ".")
        }
        if !dotted { return existing(decoded, fragment: fragment) }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: false) {
            switch segment {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return .problem("link to \(link) leaves the site") }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        return existing(segments.joined(separator: "/"), fragment: fragment)
    }

    /// The link without the whitespace around it: what `resolve` reads, and what it says an
    /// external link is.
    static func trimmed(_ raw: String) -> Substring {
        var link = Substring(raw)
        // Whitespace is trimmed as characters, but only looked for when an end byte could be some.
        if let first = link.utf8.first, first <= 0x20 || first >= 0x80 {
            while let first = link.first, first.isWhitespace { link.removeFirst() }
        }
        if let last = link.utf8.last, last <= 0x20 || last >= 0x80 {
            while let last = link.last, last.isWhitespace { link.removeLast() }
        }
        return link
    }

    /// The file a normal path inside the site names, as a static server finds it.
    private func existing(_ joined: String, fragment: String?) -> Resolution {
        if joined.isEmpty || joined.hasSuffix("/") {
            return files.contains(ExactString(joined + "index.html")) ? .file(joined + "index.html", fragment: fragment) : .missing
        }
        if files.contains(ExactString(joined)) { return .file(joined, fragment: fragment) }
        if files.contains(ExactString(joined + "/index.html")) { return .file(joined + "/index.html", fragment: fragment) }
        return .missing
    }

    /// Whether `resolve` gives the same answer from every page: the link has a scheme or starts
    /// with `/` (after the whitespace `resolve` trims), so it names neither the page nor its folder.
    static func meansTheSameEverywhere(_ raw: String) -> Bool {
        // The links Daybook writes start with `/` or a scheme: decide those on the first byte.
        switch raw.utf8.first {
        case UInt8(ascii: "/"): return true
        case .some(let byte) where byte > 0x20 && byte < 0x80: return scheme(of: Substring(raw)) != nil
        default:
            let link = raw.drop { $0.isWhitespace }
            return link.hasPrefix("/") || scheme(of: link) != nil
        }
    }

    /// The URL scheme (`https`, `mailto`), lower-cased, or `nil` for a relative reference (RFC 3986 §3.1).
    static func scheme(of text: Substring) -> String? {
        // Scanned first without building anything: most strings asked about have no scheme.
        var length = 0
        scan: for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): length += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard length > 0 else { return nil }
                length += 1
            case UInt8(ascii: ":"):
                guard length > 0 else { return nil }
                break scan
            default:
                return nil
            }
        }
        guard length > 0, length < text.utf8.count else { return nil }
        return String(decoding: text.utf8.prefix(length).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// What each link of the check's pages leads to, worked out once per distinct string (an array
/// slot per string of the table) for links that mean the same from every page, and for links to
/// a fragment of the page itself (`#main`). One per task, no lock.
struct LinkAnswers {
    enum Answer: Sendable {
        case ignored
        case external(String)
        case problem(String)
        case missing
        /// A file; `target` is its page index when it is a page whose ids are known.
        case file(String, target: Int?, fragment: Fragment?)
    }

    /// A non-empty fragment, and its index when some page holds the string.
    struct Fragment: Sendable {
        var text: String
        var index: UInt32?
    }

    private enum Known {
        case everywhere(Answer)
        /// `#fragment` alone: the page the link is on.
        case here(Fragment?)
    }

    let resolver: LinkResolver
    let pages: CheckedPages
    private var known: [Known?]

    /// Answers with nothing known yet.
    init(resolver: LinkResolver, pages: CheckedPages) {
        self.resolver = resolver
        self.pages = pages
        known = Array(repeating: nil, count: pages.table.count)
    }

    /// A copy of `answers` for one task: what it knew is shared, what the task learns is its own.
    init(_ answers: LinkAnswers) { self = answers }

    /// Answers for every string of the table that means the same from every page, worked out on
    /// all cores before the pages are checked: each distinct link resolved once per run, not
    /// once per task.
    /// - Parameters:
    ///   - checking: the pages, by index, whose links are to be checked (`nil`: all of them);
    ///     pages whose verdicts the cache holds are not.
    ///   - extra: strings named as links outside the pages (sitemap URLs).
    static func everywhere(resolver: LinkResolver, pages: CheckedPages, checking: [Int]? = nil, extra: [UInt32] = []) async -> LinkAnswers {
        var answers = LinkAnswers(resolver: resolver, pages: pages)
        // Only the strings links name (not ids, titles or messages).
        var isLink = [Bool](repeating: false, count: pages.table.count)
        for index in checking ?? Array(pages.facts.indices) {
            for link in pages.facts[index]?.links ?? [] { isLink[Int(link.url)] = true }
        }
        for url in extra { isLink[Int(url)] = true }
        let links = isLink.indices.filter { isLink[$0] }
        let converter = answers
        let found = await Parallel.mapChunks(links) { indexes in
            indexes.map { index -> Known? in
                let raw = pages.table[UInt32(index)]
                guard LinkResolver.meansTheSameEverywhere(raw) else { return nil }
                return .everywhere(converter.convert(resolver.resolve(raw, from: "index.html")))
            }
        }
        for (index, known) in zip(links, found) { answers.known[index] = known }
        return answers
    }

    /// A URL listed outside any page (a sitemap's), resolved as from the home page.
    func answerFromRoot(_ url: UInt32) -> Answer { answer(url, fromFile: "index.html") }

    /// A URL in the file at `path` that is not a page (a feed), resolved as from that file.
    func answer(_ url: UInt32, fromFile path: String) -> Answer {
        if case .everywhere(let answer) = known[Int(url)] { return answer }
        return convert(resolver.resolve(pages.table[url], from: path))
    }

    mutating func answer(_ url: UInt32, from page: Int) -> Answer {
        switch known[Int(url)] {
        case .everywhere(let answer): return answer
        case .here(let fragment): return .file(pages.paths[page], target: page, fragment: fragment)
        case nil: break
        }
        let raw = pages.table[url]
        let answer = convert(resolver.resolve(raw, from: pages.paths[page]))
        if LinkResolver.meansTheSameEverywhere(raw) {
            known[Int(url)] = .everywhere(answer)
        } else if raw.utf8.first == UInt8(ascii: "#"), case .file(_, _, let fragment) = answer {
            known[Int(url)] = .here(fragment)
        }
        return answer
    }

    private func convert(_ resolution: LinkResolver.Resolution) -> Answer {
        switch resolution {
        case .ignored: return .ignored
        case .external(let url): return .external(url)
        case .problem(let message): return .problem(message)
        case .missing: return .missing
        case .file(let target, let fragment):
            let named = fragment.flatMap { $0.isEmpty ? nil : Fragment(text: $0, index: pages.table.index(of: $0)) }
            return .file(target, target: pages.indexes[target], fragment: named)
        }
    }
}
