import DaybookContent
import DaybookLanguage
import DaybookModel
import DaybookRender

/// The files of a new site (`daybook new`): settings, one item of each collection, a `.gitignore`.
///
/// Every file is here as text, so a new site is the same wherever the binary is installed. It
/// builds with `--strict` and no warnings: `baseURL` is an absolute placeholder, and every item
/// is dated at the moment the site is made, so nothing is in the future or missing.
struct SiteStarter {
    /// When the site is made: the items' dates (`SOURCE_DATE_EPOCH` when set, as `build` reads it).
    var now: Instant
    /// `daybook new --language`: the site's `language`, and the language its first items are
    /// written in, from the default theme's words (`starter…`), English where it has none.
    var language = LanguageTag.english

    /// The starter's texts in `language`.
    var words: ThemeWords { Theme.embedded.words(for: language, at: nil).words }

    /// Whether Daybook ships words for `language`: else the site's theme speaks English, and
    /// its build warns until `Templates/i18n/<language>.yml` adds them.
    var languageIsShipped: Bool { Theme.embedded.words(for: language, at: nil).diagnostics.isEmpty }

    /// `text` as a YAML double-quoted scalar: a translated title may hold `:`, `#` or quotes.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// Relative path and contents of each file, in the order they are written.
    var files: [(path: String, text: String)] {
        [("site.yml", siteYML), (".gitignore", "output/\n.daybook-cache/\n")]
            + ContentCollection.allCases.compactMap { collection in
                items[collection.rawValue].map { ("content/\(collection.rawValue)/\($0.name).md", $0.text) }
            }
    }

    /// One Markdown item for each collection, by collection name. Only the collections the loader
    /// knows are written (`ContentCollection.allCases`), so a site never holds a file that is
    /// quietly ignored.
    var items: [String: (name: String, text: String)] {
        let at = now.utcText
        let words = words
        return [
            "prompts": (
                "what-went-well",
                """
                ---
                id: what-went-well
                title: \(Self.quoted(words["starterPromptTitle"]))
                ---

                \(words["starterPromptBody"])

                """
            ),
            "sent-prompts": (
                "first-send",
                """
                ---
                # A sent prompt puts a prompt in the journal, dated when it was sent to you.
                id: first-send
                promptId: what-went-well
                sentAt: \(at)
                ---

                """
            ),
            "responses": (
                "first-answer",
                """
                ---
                # Your answer to a prompt, shown on its journal entry page.
                id: first-answer
                promptId: what-went-well
                createdAt: \(at)
                ---

                \(words["starterResponse"])

                """
            ),
            "users": (
                "me",
                """
                ---
                id: me
                name: \(Self.quoted(words["starterName"]))
                ---

                \(words["starterBio"])

                """
            ),
            "posts": (
                "first-post",
                """
                ---
                id: first-post
                author: me
                createdAt: \(at)
                # image: images/photo.jpg    (a file under content/)
                # imageAlt: What the photo shows
                location:
                  name: \(Self.quoted(words["starterPlace"]))
                ---

                \(words["starterCaption"])

                """
            ),
            "comments": (
                "first-comment",
                """
                ---
                id: first-comment
                postId: first-post
                author: me
                createdAt: \(at)
                ---

                \(words["starterComment"])

                """
            ),
        ]
    }

    var siteYML: String {
        """
        # Settings for this Daybook site. Every key is optional; Daybook's README describes each one.

        # The site's title, on every page and in the feeds.
        title: \(Self.quoted(words["starterTitle"]))

        # The BCP 47 tag of the site's language: the pages' lang and direction, the theme's
        # words and how dates are written. Templates/i18n/<language>.yml overrides words.
        language: \(language.text)

        # The address the site is published at. Feeds and the sitemap need it to give absolute
        # URLs: replace this placeholder with your own address before you deploy.
        baseURL: https://example.com/

        # The IANA time zone that decides "today" and how dates are shown, e.g. Europe/Lisbon.
        timeZone: UTC

        # Items per list page, and the newest items in each feed.
        pageSize: 10
        feedSize: 20

        # Show on the timeline only one user's posts and those of the users they follow:
        # timeline:
        #   viewer: me

        """
    }
}
