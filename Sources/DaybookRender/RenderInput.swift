import DaybookFeed
import DaybookModel
import Foundation

/// Everything rendering needs, computed before any page is drawn.
public struct RenderInput: Sendable {
    public var config: SiteConfig
    public var moment: BuildMoment
    public var feeds: SiteFeeds

    public init(config: SiteConfig, moment: BuildMoment, feeds: SiteFeeds) {
        self.config = config
        self.moment = moment
        self.feeds = feeds
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
    case journalList(page: Int)
    case entry(index: Int)
    case timelineList(page: Int)
    case post(index: Int)

}
