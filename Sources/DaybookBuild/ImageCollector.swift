import DaybookContent
import DaybookFeed
import DaybookModel
import DaybookRender

/// The images that shown content names, to copy into the output once each.
///
/// A path must stay inside `content/`; an image that is missing is a warning at the record that names it.
struct ImageCollector {
    /// Paths relative to `content/`, which is also where they land in the output. Sorted.
    private(set) var paths: [String] = []
    private(set) var diagnostics: [Diagnostic] = []

    init(content: SiteContent, feeds: SiteFeeds, snapshot: ContentSnapshot) {
        var wanted = Set<String>()
        func consider(_ reference: String?, field: String, origin: SourceLocation?) {
            guard let reference, !SiteURLs.isExternal(reference) else { return }
            let at = origin ?? SourceLocation(path: "content")
            let parts = reference.split(separator: "/", omittingEmptySubsequences: false)
            if reference.hasPrefix("/") || parts.contains("..") || parts.contains("") || parts.contains(".") {
                diagnostics.append(.warning("'\(field)' must be a path under content/ such as images/photo.jpg, or an absolute URL; '\(reference)' is ignored", at: at))
                return
            }
            if !snapshot.assets.contains("content/" + reference) {
                diagnostics.append(.warning("image 'content/\(reference)' does not exist", at: at))
                return
            }
            wanted.insert(reference)
        }
        for post in feeds.posts { consider(post.image, field: "image", origin: post.origin) }
        for user in content.users { consider(user.avatar, field: "avatar", origin: user.origin) }
        paths = wanted.sorted { $0.scalarsPrecede($1) }
    }
}
