import Foundation
import DaybookModel

/// Every internal address of CONTRACT §4 in one place, so pages, feeds and the sitemap agree.
///
/// Links are root-relative and carry the path of `baseURL` (`https://x.org/blog/` → `/blog/…`),
/// so a site served under a sub-path works; `absolute` prefixes the whole `baseURL` for feeds.
package struct SiteURLs: Sendable {
    /// The path part of `baseURL`, starting and ending with `/`.
    package let root: String
    package let baseURL: String

    package init(baseURL: String) {
        self.baseURL = baseURL
        if let schemeEnd = baseURL.range(of: "://") {
            let afterHost = baseURL[schemeEnd.upperBound...].drop { $0 != "/" }
            root = afterHost.isEmpty ? "/" : String(afterHost)
        } else {
            root = baseURL.hasPrefix("/") ? baseURL : "/" + baseURL
        }
    }

    /// A page path (`journal/page/2/`) as a link.
    package func link(_ path: String) -> String { root + path }
    package func absolute(_ path: String) -> String {
        baseURL + path
    }

    /// A list's page path: `journal/` for page 1, `journal/page/K/` after.
    package static func listPage(_ base: String, _ number: Int) -> String {
        number == 1 ? base : "\(base)page/\(number)/"
    }

    /// The file a page path is written to: `journal/` is `journal/index.html`.
    static func file(_ pagePath: String) -> String { pagePath + "index.html" }

    /// The page path a file is the page of, its pretty URL: `journal/index.html` is `journal/`;
    /// another file (`404.html`) is its own.
    static func pagePath(ofFile path: String) -> String {
        path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
    }

    package static let home = ""
    package static let notFound = "404.html"
    package static let journal = "journal/"
    package static let timeline = "timeline/"
    package static let tags = "tags/"
    package static let users = "users/"
    package static let locations = "locations/"
    package static let search = "search/"
    static let searchScript = "search.js"
    static let journalFeed = "journal/feed.xml"
    static let timelineFeed = "timeline/feed.xml"
    package static func entry(_ promptID: String) -> String { "journal/\(Slug.make(promptID))/" }
    package static func post(_ postID: String) -> String { "posts/\(Slug.make(postID))/" }
    package static func user(_ userID: String) -> String { group(.users, slug: Slug.make(userID)) }
    /// A person's posts feed, next to their profile (CONTRACT §4).
    package static func userFeed(_ userID: String) -> String { user(userID) + "feed.xml" }
    /// The feed of comments on a person's posts.
    package static func userCommentsFeed(_ userID: String) -> String { user(userID) + "comments.xml" }
    package static func tag(_ tag: String) -> String { group(.tags, slug: Slug.make(tag)) }
    package static func location(_ slug: String) -> String { group(.locations, slug: slug) }

    /// `tags/`, `users/` or `locations/`.
    static func index(_ kind: GroupKind) -> String {
        switch kind {
        case .tags: tags
        case .users: users
        case .locations: locations
        }
    }

    /// One group's page under its index: `tags/<slug>/`.
    static func group(_ kind: GroupKind, slug: String) -> String { index(kind) + slug + "/" }

    /// The page a navigation section leads to.
    static func section(_ section: SiteSection) -> String {
        switch section {
        case .home: home
        case .journal: journal
        case .timeline: timeline
        case .search: search
        case .tags: tags
        case .users: users
        case .locations: locations
        }
    }

    /// An image named by content: absolute URLs stay as they are, paths under `content/` become site paths.
    package func asset(_ reference: String) -> String {
        Self.isExternal(reference) ? reference : root + reference
    }

    /// `path` with every byte outside the URL-safe ASCII set percent-encoded, for feeds and the
    /// sitemap. On bytes, and a path with nothing to encode is returned as it is: appended
    /// scalar by scalar, the feeds' and the sitemap's links were 2% of a full build.
    package static func percentEncoded(_ path: String) -> String {
        func isSafe(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: ":"):
                true
            default: false
            }
        }
        guard !path.utf8.allSatisfy(isSafe) else { return path }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count * 3)
        for byte in path.utf8 {
            if isSafe(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    package static func isExternal(_ reference: String) -> Bool {
        // On bytes: asked of every post's photo on every build, `hasPrefix` compared characters.
        let utf8 = reference.utf8
        return utf8.starts(with: "http://".utf8) || utf8.starts(with: "https://".utf8) || utf8.starts(with: "//".utf8)
    }
}

