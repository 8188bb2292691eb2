import DaybookFeed
import DaybookLanguage
import DaybookModel
import Foundation

/// Everything rendering needs, computed before any page is drawn.
package struct RenderInput: Sendable {
    package var config: SiteConfig
    package var moment: BuildMoment
    package var feeds: SiteFeeds
    /// Pixel sizes of the images content names, by path under `content/`.
    package var imageSizes: [String: ImageSize]
    /// The responsive copies of the local photos content names, by path under `content/` (§7).
    package var images: [String: ResponsiveImage] = [:]
    /// Files the build writes beside the rendered ones (theme assets, everything under `content/`),
    /// by output path: Markdown may link them from the site root.
    package var assetPaths: Set<String>
    /// The link and image targets of each shown Markdown text that has any, by the text's key
    /// (`textKey`), as the build worked them out (through the incremental layer, `MarkdownStep`):
    /// a text missing has none. `nil`, and the page builder parses every text itself.
    package var markdownTargets: [UInt64: [String]]?
    /// Each person's suggested people (§13) that has any, by id, as the build worked them out
    /// (through the incremental layer, `SuggestionStep`): a person missing has none. `nil`, and
    /// each profile works out its own.
    package var suggestions: [String: [PeopleSuggestions.Suggestion]]?
    /// The theme's words in the site's language (§11), which every page and template reads.
    package var words = ThemeWords.english

    /// A Markdown text's key in `markdownTargets`: a hash of its bytes. Texts are not keyed by
    /// themselves because a `String` hashes as Unicode, normalising non-ASCII text on every lookup,
    /// which for the 4 MB of text on the bench site was a tenth of a rebuild under `serve`. Two
    /// texts that differ share a key with a chance of one in 2⁶⁴, as memo results do.
    package static func textKey(_ text: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(text)
        return hash.value
    }

    package init(
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
package struct RenderedFile: Sendable, Hashable {
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
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
