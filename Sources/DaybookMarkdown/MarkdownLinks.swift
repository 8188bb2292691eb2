import DaybookModel

/// Which link and image targets in content Markdown the site can keep, so that a build that
/// succeeds always gives an output `daybook check` passes (CONTRACT §6).
///
/// The same Markdown shows on several pages (an entry, the journal list, the home page, a feed), so
/// a relative target would point somewhere different on each. Only two kinds are kept:
/// - a URL with a scheme (`https://…`, `mailto:…`), which is external and never fetched, unless
///   it is under the site's own address (`base`): `check` takes those for links inside the site,
///   so they must name a page or file of it, as a root path must, and are kept as written;
/// - a path from the site root (`/journal/first-light/`, `/images/photo.png`) that names a file the
///   build writes; it is written under the site's root path, so it works under any `baseURL`.
/// Everything else (relative paths, `#fragments`, root paths with a fragment or to nothing) is shown
/// as its text, and the build warns about it.
package struct MarkdownLinks: Sendable {
    /// The site's root path, as pages link it (`/` or `/blog/`).
    package var root: String
    /// Output paths the build writes (`journal/q1/index.html`, `images/a.png`), told apart by
    /// their bytes as `daybook check` and a server's file system tell them apart.
    let sitePaths: Set<ExactString>
    /// The site's absolute address, ending in `/` (`https://example.org/blog/`), when `baseURL`
    /// has a scheme and host; `nil` otherwise.
    package var base: String?

    package init(root: String, sitePaths: Set<ExactString>, base: String? = nil) {
        self.root = root
        self.sitePaths = sitePaths
        self.base = base
    }

    /// What to do with one target.
    package enum Verdict: Sendable, Equatable {
        /// Keep it, written as this URL.
        case keep(String)
        /// Show the text only, for this reason (a sentence a user can act on).
        case drop(reason: String)
    }

    package func verdict(for url: String) -> Verdict {
        if let base, let below = URLPrefix.drop(base, from: url[...]) { return verdict(below: below, writtenAs: url) }
        if Self.hasScheme(url) || url.hasPrefix("//") { return .keep(url) }
        if url.hasPrefix("#") { return .drop(reason: "is a #fragment, which the build cannot check; link a page from the site root or a full URL") }
        guard url.hasPrefix("/") else {
            return .drop(reason: "is relative, and the text shows on several pages; write it from the site root (such as /journal/) or as a full URL")
        }
        return verdict(below: url.dropFirst(), writtenAs: root + url.dropFirst())
    }

    /// The verdict on a target inside the site, `path` below its root (with any query or
    /// fragment), kept as `written`.
    private func verdict(below path: Substring, writtenAs written: String) -> Verdict {
        var path = path
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            guard path[query] == "?", !path[query...].contains("#") else {
                return .drop(reason: "has a #fragment, which the build cannot check; link the page without it")
            }
            path = path[..<query]
        }
        guard let decoded = PercentEncoding.decode(path), resolves(decoded) else {
            return .drop(reason: "names no page or file of this site")
        }
        return .keep(written)
    }

    /// `x/` is `x/index.html`; `x` is the file `x` or the folder `x/`; the empty path is the home page.
    package func resolves(_ path: String) -> Bool {
        if path.isEmpty || path.hasSuffix("/") { return sitePaths.contains(ExactString(path + "index.html")) }
        return sitePaths.contains(ExactString(path)) || sitePaths.contains(ExactString(path + "/index.html"))
    }

    /// Whether `url` starts with a scheme: an ASCII letter, then ASCII letters, digits, `+`, `-`
    /// or `.`, then a colon (a character of its own: not one a combining mark follows). On
    /// bytes: asked of every link target of every text each build, characters took 10 ms.
    static func hasScheme(_ url: String) -> Bool {
        let utf8 = url.utf8
        guard let first = utf8.first, isLetter(first) else { return false }
        for index in utf8.indices.dropFirst() {
            let byte = utf8[index]
            if byte == UInt8(ascii: ":") { return url[index] == ":" }
            guard isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return false }
        }
        return false
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
