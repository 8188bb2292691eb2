/// The settings of `site.yml` (CONTRACT §1), each with its default.
package struct SiteConfig: Sendable, Hashable {
    /// `baseURL` when it is an absolute address (`https://example.org/blog/`), ending in `/`:
    /// what `daybook check` takes full URLs under for links inside the site. `nil` for a path.
    package var absoluteBase: String? { Self.isAbsolute(baseURL) ? baseURL : nil }

    /// Whether a `baseURL` (or `check --base-url`) is an address with a scheme and a host,
    /// `http://` or `https://` then something other than `/`: the one rule for the feeds'
    /// absolute URLs, the warning when they cannot be made, and what `check` resolves.
    package static func isAbsolute(_ baseURL: String) -> Bool {
        guard let scheme = ["https://", "http://"].first(where: { baseURL.hasPrefix($0) }) else { return false }
        return baseURL.dropFirst(scheme.count).first.map { $0 != "/" } ?? false
    }

    package var title: String
    /// `description` (§12): the home page's description, in its `<head>` for search engines and link previews.
    package var description: String?
    /// Absolute URL of the site root, always ending in `/`.
    package var baseURL: String
    /// An IANA zone name, checked when the config is read.
    package var timeZoneIdentifier: String
    package var pageSize: Int
    package var feedSize: Int
    /// When set, the timeline shows only this user's posts and those of the users they follow.
    package var timelineViewer: String?
    /// Where `timeline.viewer` was written, so a viewer that is not a user can be pointed at.
    package var timelineViewerPosition: SourceLocation?
    /// `hashtags.perPost`: how many of a post's hashtags get it onto tag pages. A bound, so one
    /// post with thousands of hashtags cannot make thousands of pages that each repeat it.
    package var hashtagsPerPost = SiteConfig.defaultHashtagsPerPost
    /// Instagram's rule: a post's first 30 hashtags count.
    package static let defaultHashtagsPerPost = 30
    /// `images.widths` (§7): widths in pixels of the responsive copies of each photo.
    package var imageWidths = [480, 960, 1600]
    /// `images.format`: `webp` or `jpeg`, the format of the copies and thumbnails.
    package var imageFormat = "webp"
    /// `images.originals`: whether each source photo is also published, without metadata, at its own path.
    package var imageOriginals = true
    /// `report` (§7): a `mailto:` or `https:` URL in which `{url}` stands for a post's absolute URL.
    package var report: String?
    /// `language` (§11): the pages' `lang` and direction, the theme's words and how dates read.
    package var language = LanguageTag.english
    /// Where `language` was written, for the warning when Daybook has no words for it.
    package var languagePosition: SourceLocation?
    /// `icon` (issue 41): the path under `content/` of the image the site's icons are made
    /// from; `nil` when not given, or when it names no file the build can read.
    package var icon: String?
    /// Where `icon` was written, for what is wrong with the file it names.
    package var iconPosition: SourceLocation?
    /// Where `baseURL` was written, for the warning about a relative one.
    package var baseURLPosition: SourceLocation?

    package init(
        title: String = "Daybook", baseURL: String = "/", timeZoneIdentifier: String = "UTC", pageSize: Int = 10,
        feedSize: Int = 20, timelineViewer: String? = nil
    ) {
        self.title = title
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.timeZoneIdentifier = timeZoneIdentifier
        self.pageSize = pageSize
        self.feedSize = feedSize
        self.timelineViewer = timelineViewer
    }
}
