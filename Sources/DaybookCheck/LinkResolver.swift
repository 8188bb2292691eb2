import DaybookModel
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

    let files: Set<String>
    /// Absolute (`https://example.org/blog/`) or a path (`/blog/`).
    let baseURL: String
    /// The path part of `baseURL`, starting and ending with `/`.
    let basePath: String

    init(files: Set<String>, baseURL: String) {
        self.files = files
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
        var link = Substring(raw)
        // Whitespace is trimmed as characters, but only looked for when an end byte could be some.
        if let first = link.utf8.first, first <= 0x20 || first >= 0x80 {
            while let first = link.first, first.isWhitespace { link.removeFirst() }
        }
        if let last = link.utf8.last, last <= 0x20 || last >= 0x80 {
            while let last = link.last, last.isWhitespace { link.removeLast() }
        }
        var rest = link
        var fragment: String?
        // `#` and `?` are ASCII, so their byte positions are character boundaries.
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = PercentEncoding.decode(rest[rest.index(after: hash)...]) ?? String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
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
                guard baseURL.contains("://"), rest.hasPrefix(baseURL) else { return .external(String(link)) }
                path = rest.dropFirst(baseURL.count)
            }
        } else if rest.hasPrefix("//") {
            return .external(String(link))
        } else if rest.hasPrefix("/") {
            guard rest.hasPrefix(basePath) else { return .problem("link to \(link) leaves the site's base path \(basePath)") }
            path = rest.dropFirst(basePath.count)
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

    /// The file a normal path inside the site names, as a static server finds it.
    private func existing(_ joined: String, fragment: String?) -> Resolution {
        if joined.isEmpty || joined.hasSuffix("/") {
            return files.contains(joined + "index.html") ? .file(joined + "index.html", fragment: fragment) : .missing
        }
        if files.contains(joined) { return .file(joined, fragment: fragment) }
        if files.contains(joined + "/index.html") { return .file(joined + "/index.html", fragment: fragment) }
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
        var scheme = ""
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.unicodeScalars.append(Unicode.Scalar(byte | 0x20))
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard index > 0 else { return nil }
                scheme.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ":"):
                return index > 0 ? scheme : nil
            default:
                return nil
            }
        }
        return nil
    }
}

/// A resolver that answers each link meaning the same from every page once: a 32,000-page site
/// has 1.4 million links but only tens of thousands of distinct ones. One per task, no lock.
struct LinkMemo {
    let resolver: LinkResolver
    private var answers: [String: LinkResolver.Resolution] = [:]

    init(resolver: LinkResolver) { self.resolver = resolver }

    mutating func resolve(_ raw: String, from page: String) -> LinkResolver.Resolution {
        if let known = answers[raw] { return known }
        let answer = resolver.resolve(raw, from: page)
        if LinkResolver.meansTheSameEverywhere(raw) { answers[raw] = answer }
        return answer
    }
}
