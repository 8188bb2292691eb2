import DaybookModel

/// Turns a caption or comment into HTML where `#hashtags` and `@mentions` link (CONTRACT §2).
///
/// Every piece of the text is escaped; only the `<a>` elements Daybook writes are markup.
struct TextLinker: Sendable {
    let urls: SiteURLs
    let userIDs: Set<String>
    /// Tags that have a page; a hashtag outside this set stays plain text.
    let taggedTags: Set<String>

    /// - Parameter reads: where the page being built records each `#tag` and `@id` it looked up.
    func html(_ text: String, reads: PageReads? = nil) -> String {
        var out = ""
        for token in Hashtag.tokens(in: text) {
            switch token {
            case .text(let plain):
                out += HTML.escape(plain)
            case .hashtag(let written, let tag):
                reads?.record(.linkTarget("#" + tag))
                if taggedTags.contains(tag) {
                    out += "<a class=\"hashtag\" href=\"\(HTML.escape(urls.link(SiteURLs.tag(tag))))\">\(HTML.escape(written))</a>"
                } else {
                    out += HTML.escape(written)
                }
            case .mention(let written, let userID):
                reads?.record(.linkTarget("@" + userID))
                if userIDs.contains(userID) {
                    out += "<a class=\"mention\" href=\"\(HTML.escape(urls.link(SiteURLs.user(userID))))\">\(HTML.escape(written))</a>"
                } else {
                    out += HTML.escape(written)
                }
            }
        }
        return out
    }
}
