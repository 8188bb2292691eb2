import DaybookFeed
import DaybookModel
import Foundation

/// Everything rendering needs, computed before any page is drawn.
public struct RenderInput: Sendable {
    public var config: SiteConfig
    public var moment: BuildMoment
    public var feeds: SiteFeeds
    /// Pixel sizes of the images content names, by path under `content/`.
    public var imageSizes: [String: ImageSize]
    /// The responsive copies of the local photos content names, by path under `content/` (§7).
    public var images: [String: ResponsiveImage] = [:]
    /// Files the build writes beside the rendered ones (theme assets, everything under `content/`),
    /// by output path: Markdown may link them from the site root.
    public var assetPaths: Set<String>
    /// Each shown Markdown text's link and image targets, by text, as the build worked them out
    /// (through the incremental layer, `MarkdownStep`); `nil`, or a text missing, and the page
    /// builder parses the text itself.
    public var markdownTargets: [String: [String]]?

    public init(
        config: SiteConfig, moment: BuildMoment, feeds: SiteFeeds, imageSizes: [String: ImageSize] = [:], assetPaths: Set<String> = []
    ) {
        self.config = config
        self.moment = moment
        self.feeds = feeds
        self.imageSizes = imageSizes
        self.assetPaths = assetPaths
    }
}

/// One file the build produces, by its path inside the output folder.
public struct RenderedFile: Sendable, Hashable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// One page the site will have, cheap to list: the page is built and rendered later, in parallel.
enum PageSpec: Sendable, Hashable {
    case home
    case notFound
    case search
    /// Page `page` (1-based) of a list.
    case list(SiteList, page: Int)
    case entry(index: Int)
    case post(index: Int)
}

/// The three indexes of groups of posts.
enum GroupKind: String, Sendable, Hashable, CaseIterable {
    case tags
    case users
    case locations
}
