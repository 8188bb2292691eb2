/// One problem in a site's content or `site.yml`, as the facts that make it: ids, field names and
/// the values found. Its message is worked out from them in one place, so each rule reads the same
/// wherever it is found, and a test can name a problem rather than spell out its sentence.
///
/// `found` values are as a message names them: a kind ("a string", "an array") or, where the
/// reader says so, a short number itself ("0").
package enum ContentProblem: Sendable, Hashable {
    // MARK: Files

    /// Every reader works on text; a file in another encoding would be misread, not just misshown.
    case notUTF8
    /// `site.yml` itself, when its reader is handed bytes no one checked (a load checks them first).
    case siteConfigNotUTF8
    /// The file was listed, but its bytes could not be had when it came to be decoded.
    case cannotRead
    /// A symbolic link leads out of the site folder: the build never reads what it points at.
    case linkOutsideSite(path: String)
    /// The JSON reader stopped; `detail` is its own words for where and why.
    case invalidJSON(detail: String)
    /// The YAML reader stopped (front matter or `site.yml`); `message` is its whole sentence (a
    /// syntax error, a key given twice, aliases that expand too far), printed as it is.
    case invalidYAML(message: String)
    /// A Markdown item must open with its fields, or nothing says what it is.
    case noFrontMatter
    case frontMatterNotClosed
    /// A list file (`content/posts.json`) holds its records in one array.
    case notAListFile(collection: String, item: String, found: String)

    // MARK: Records

    /// A record is a set of fields; anything else in its place cannot be read as one.
    case recordNotAnObject(item: String, found: String)
    /// The second of two equal keys in one record (the first stands).
    case duplicateKey(key: String, firstLine: Int)
    /// A key no record of its kind (`item`, or "location") has: most often a misspelling. `known`
    /// in the order the message lists them.
    case unknownKey(key: String, record: String, known: [String])
    case missingField(item: String, field: String)
    /// A required field inside an object field, such as a location's `name`.
    case missingNestedField(field: String, nested: String)
    case requiredButNull(field: String)
    case notAString(field: String, found: String)
    /// A number where a string is wanted: most often an id written without quotes.
    case unquotedNumber(field: String)
    case emptyField(field: String)
    case notADateTime(field: String, text: String)
    case notADay(field: String, text: String)
    case notAnArrayOfStrings(field: String, found: String)
    case notOnlyStrings(field: String, found: String)
    case notALocation(field: String, found: String)
    case latitudeOutOfRange(field: String)
    case longitudeOutOfRange(field: String)
    case notABoolean(field: String, found: String)
    /// An edit dated before the item was made is impossible, so it never moves a feed.
    case updatedBeforeCreated(updatedAt: Instant, createdAt: Instant)
    /// `sensitive` as a string gives the reason the post is hidden; a blank one gives none.
    case emptySensitiveReason
    case notSensitive(found: String)
    /// The text after a Markdown item's front matter fills a field, which the front matter also gave.
    case textGivenTwice(field: String, frontMatterLine: Int)
    /// A sent prompt has no field that text after its front matter could fill.
    case textAfterSentPrompt
    /// Only the first `limit` of a post's hashtags (`hashtags.perPost`) put it on tag pages.
    case tooManyHashtags(post: String, count: Int, limit: Int)

    // MARK: References

    /// A post or comment (`item`) whose author is not a user: it is left out, and the build fails.
    case unknownAuthor(item: String, id: String, author: String)
    case commentOnMissingPost(comment: String, post: String)
    case unknownFollow(user: String, followed: String)
    /// A post's tag that `Hashtag.normalise` rejects.
    case notAHashtag(tag: String)
    /// `timeline.viewer` in `site.yml` must be one of the users.
    case unknownTimelineViewer(viewer: String)
    case responseToMissingPrompt(response: String, prompt: String)
    /// The prompt exists, but no journal entry shows it: it is not today's and was not sent by now.
    case responseWithoutEntry(response: String, prompt: String)
    /// Still shown, as a placeholder entry.
    case sentPromptToMissingPrompt(sentPrompt: String, prompt: String)

    // MARK: Ids and slugs

    /// The second of two records of one kind with one id (the first stands); `firstDefined` is
    /// where the first is, when known.
    case duplicateID(item: String, id: String, firstDefined: SourceLocation?)
    /// A comment is the element `comment-<slug(id)>` on its post's page, which must be unique there.
    case commentIDWithoutAnchor(id: String)
    case commentAnchorsCollide(first: String, second: String, post: String, slug: String)
    /// Ids that become page addresses must give distinct, non-empty slugs.
    case idWithoutSlug(item: String, id: String)
    case slugsCollide(item: String, first: String, second: String, slug: String)
    /// The location is kept on its posts, but no location page can be made for it.
    case locationWithoutSlug(name: String)
    /// Only one prompt can be today's: the smallest id is, and the others are warned about.
    case alsoToday(prompt: String, day: CalendarDay, chosen: String)

    // MARK: site.yml settings

    case siteConfigNotAMapping
    /// A setting that is a one-key mapping (`timeline: viewer:`), with that key and an example value.
    case settingNotAMapping(setting: String, key: String, example: String, found: String)
    case notAPositiveWholeNumber(setting: String, found: String)
    /// A setting `site.yml` does not have (`key` as written, `known` as the message lists them).
    case unknownSetting(key: String, known: [String])
    case badBaseURL(String)
    /// Feeds and the sitemap need absolute URLs, so a `baseURL` without a scheme and host makes
    /// them less useful; the build still writes them.
    case baseURLNotAbsolute(String)
    case unknownTimeZone(String)
    /// `language` or an item's `lang` that is not a well-formed BCP 47 tag (`en_US`, `english`).
    case badLanguageTag(field: String, found: String)
    /// Daybook ships no words for the language and the site adds none: English words are used.
    case noWordsForLanguage(language: String, file: String)
    /// A words file (`Templates/i18n/<language>.yml`) whose top level is not a mapping of keys.
    case wordsNotAMapping(found: String)
    /// A word that is neither text nor a mapping of plural categories to text.
    case badWord(key: String, found: String)
    /// A plural form under a name CLDR does not have (`zero one two few many other`).
    case unknownPluralCategory(key: String, category: String)
    /// A plural entry without `other`, the form every language falls back to.
    case pluralWithoutOther(key: String)
    case badImageWidths(found: String)
    case badImageWidth(found: String)
    case badImageFormat(found: String)
    /// Anything but `mailto:` or `https:` could run script or leak readers to plain HTTP.
    case badReportURL(String)

    // MARK: Images

    /// An image field must name a file under `content/` or a web address; `value` as written.
    case unsafeImagePath(field: String, value: String)
    /// The image at `content/<path>` is reached through a symbolic link out of the site folder.
    case imageThroughOutsideLink(field: String, path: String, link: String)
    /// `written` is the field's value when it was the site's own address for `content/<path>`.
    case missingImage(field: String, path: String, written: String?, item: String)
    /// The named file is one the build never reads, so the image would never be found.
    case hiddenImage(field: String, path: String, item: String)
    /// `icon` in site.yml is not a plain path under `content/` (a URL, `..`, a leading `/`).
    case iconNotAPath(String)

    /// An error stops the build; a warning does not (unless `--strict`).
    package var severity: Severity {
        switch self {
        case .textAfterSentPrompt, .unknownKey, .updatedBeforeCreated, .tooManyHashtags, .commentOnMissingPost, .unknownFollow,
            .notAHashtag, .responseToMissingPrompt, .responseWithoutEntry, .sentPromptToMissingPrompt, .locationWithoutSlug,
            .alsoToday, .unknownSetting, .baseURLNotAbsolute, .missingImage, .hiddenImage, .noWordsForLanguage:
            .warning
        case .notUTF8, .siteConfigNotUTF8, .cannotRead, .linkOutsideSite, .invalidJSON, .invalidYAML, .noFrontMatter,
            .frontMatterNotClosed, .notAListFile, .recordNotAnObject, .duplicateKey, .missingField, .missingNestedField,
            .requiredButNull, .notAString, .unquotedNumber, .emptyField, .notADateTime, .notADay, .notAnArrayOfStrings,
            .notOnlyStrings, .notALocation, .latitudeOutOfRange, .longitudeOutOfRange, .notABoolean, .emptySensitiveReason,
            .notSensitive, .textGivenTwice, .unknownAuthor, .unknownTimelineViewer, .duplicateID, .commentIDWithoutAnchor,
            .commentAnchorsCollide, .idWithoutSlug, .slugsCollide, .siteConfigNotAMapping, .settingNotAMapping,
            .notAPositiveWholeNumber, .badBaseURL, .unknownTimeZone, .badLanguageTag, .wordsNotAMapping, .badWord,
            .unknownPluralCategory, .pluralWithoutOther, .badImageWidths, .badImageWidth, .badImageFormat,
            .badReportURL, .unsafeImagePath, .imageThroughOutsideLink, .iconNotAPath:
            .error
        }
    }

    /// What is wrong and what to do, without the place.
    package var message: String {
        switch self {
        case .notUTF8:
            "file is not valid UTF-8: save it as UTF-8"
        case .siteConfigNotUTF8:
            "site.yml is not valid UTF-8"
        case .cannotRead:
            "cannot read file"
        case .linkOutsideSite(let path):
            "'\(path)' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself"
        case .invalidJSON(let detail):
            "invalid JSON: \(detail)"
        case .invalidYAML(let message):
            message
        case .noFrontMatter:
            "no front matter: a Markdown item starts with a line '---', then its fields, then '---'"
        case .frontMatterNotClosed:
            "front matter is not closed: add a line '---' after the fields"
        case .notAListFile(let collection, let item, let found):
            "content/\(collection).json must be a JSON array of \(item) objects, found \(found)"

        case .recordNotAnObject(let item, let found):
            "each \(item) must be an object, found \(found)"
        case .duplicateKey(let key, let firstLine):
            "duplicate key '\(key)' (first at line \(firstLine))"
        case .unknownKey(let key, let record, let known):
            "unknown key '\(key)' in \(record); known keys: \(known.joined(separator: ", "))"
        case .missingField(let item, let field):
            "\(item) is missing required field '\(field)'"
        case .missingNestedField(let field, let nested):
            "'\(field)' is missing required field '\(nested)'"
        case .requiredButNull(let field):
            "'\(field)' is required but is null"
        case .notAString(let field, let found):
            "'\(field)' must be a string, found \(found)"
        case .unquotedNumber(let field):
            "'\(field)' must be a string, found a number; put it in quotes"
        case .emptyField(let field):
            "'\(field)' must not be empty"
        case .notADateTime(let field, let text):
            "'\(field)' must be an RFC 3339 date-time such as 2026-11-21T08:00:00Z or 2026-11-21T09:00:00+01:00, found '\(text)'"
        case .notADay(let field, let text):
            "'\(field)' must be a date YYYY-MM-DD such as 2026-11-21, found '\(text)'"
        case .notAnArrayOfStrings(let field, let found):
            "'\(field)' must be an array of strings, found \(found)"
        case .notOnlyStrings(let field, let found):
            "'\(field)' must hold only strings, found \(found)"
        case .notALocation(let field, let found):
            "'\(field)' must be an object such as { \"name\": \"Lisbon\", \"lat\": 38.72, \"lon\": -9.14 }, found \(found)"
        case .latitudeOutOfRange(let field):
            "'\(field).lat' must be a number from -90 to 90"
        case .longitudeOutOfRange(let field):
            "'\(field).lon' must be a number from -180 to 180"
        case .notABoolean(let field, let found):
            "'\(field)' must be true or false, found \(found)"
        case .updatedBeforeCreated(let updatedAt, let createdAt):
            "'updatedAt' \(updatedAt.utcText) is before 'createdAt' \(createdAt.utcText); it is ignored: give the date of the last edit, or remove it"
        case .emptySensitiveReason:
            "'sensitive' is an empty reason: write true, or the reason such as \"Medical photo\""
        case .notSensitive(let found):
            "'sensitive' must be true or a reason such as \"Medical photo\", found \(found)"
        case .textGivenTwice(let field, let frontMatterLine):
            "'\(field)' is given both in the front matter (line \(frontMatterLine)) and after it; keep one"
        case .textAfterSentPrompt:
            "text after a sent prompt's front matter is ignored"
        case .tooManyHashtags(let post, let count, let limit):
            "post '\(post)' has \(count.grouped) hashtags; only the first \(limit) put it on tag pages; remove some, or raise 'hashtags.perPost' in site.yml"

        case .unknownAuthor(let item, let id, let author):
            "\(item) '\(id)' has author '\(author)', which is not a user"
        case .commentOnMissingPost(let comment, let post):
            "comment '\(comment)' is on post '\(post)', which does not exist; it is left out"
        case .unknownFollow(let user, let followed):
            "user '\(user)' follows '\(followed)', which is not a user; ignored"
        case .notAHashtag(let tag):
            "tag '\(tag)' is not a hashtag (word characters with at least one letter, no '#'); ignored"
        case .unknownTimelineViewer(let viewer):
            "timeline.viewer '\(viewer)' is not a user"
        case .responseToMissingPrompt(let response, let prompt):
            "response '\(response)' answers prompt '\(prompt)', which does not exist; it is not shown"
        case .responseWithoutEntry(let response, let prompt):
            "response '\(response)' answers prompt '\(prompt)', which has no journal entry (it is not today's and was not sent by now); it is not shown"
        case .sentPromptToMissingPrompt(let sentPrompt, let prompt):
            "sent prompt '\(sentPrompt)' names prompt '\(prompt)', which does not exist; it is shown as a placeholder"

        case .duplicateID(let item, let id, let firstDefined):
            "duplicate \(item) id '\(id)'" + (firstDefined.map { " (first defined at \($0.description))" } ?? "")
        case .commentIDWithoutAnchor(let id):
            "comment id '\(id)' has no letters or digits to make its element id (comment-…) from; rename it"
        case .commentAnchorsCollide(let first, let second, let post, let slug):
            "comment ids '\(first)' and '\(second)' on post '\(post)' both give the element id 'comment-\(slug)'; rename one"
        case .idWithoutSlug(let item, let id):
            "\(item) id '\(id)' has no letters or digits to make a page address from"
        case .slugsCollide(let item, let first, let second, let slug):
            "\(item) ids '\(first)' and '\(second)' both give the page address '\(slug)'; rename one"
        case .locationWithoutSlug(let name):
            "location '\(name)' has no letters or digits to make a page address from; it gets no page"
        case .alsoToday(let prompt, let day, let chosen):
            "prompt '\(prompt)' is also dated \(day); '\(chosen)' (the smallest id) is today's prompt"

        case .siteConfigNotAMapping:
            "site.yml must be a mapping of keys such as 'title: My journal'"
        case .settingNotAMapping(let setting, let key, let example, let found):
            "'\(setting)' must be a mapping such as '\(setting):' then '  \(key): \(example)', found \(found)"
        case .notAPositiveWholeNumber(let setting, let found):
            "'\(setting)' must be a whole number of at least 1, found \(found)"
        case .unknownSetting(let key, let known):
            "unknown key '\(key)'; known keys: \(known.joined(separator: ", "))"
        case .badBaseURL(let url):
            "'baseURL' must be an absolute URL such as https://example.org/ or a path starting with '/', found '\(url)'"
        case .baseURLNotAbsolute(let url):
            "baseURL '\(url)' has no scheme and host, so the feeds and the sitemap cannot give absolute URLs; "
                + "set it to the site's address, such as 'baseURL: https://example.org/'"
        case .unknownTimeZone(let name):
            "unknown time zone '\(name)'; use an IANA name such as Europe/Lisbon or UTC"
        case .badLanguageTag(let field, let found):
            "'\(field)' must be a BCP 47 language tag such as en, pt-BR or zh-Hant, found '\(found)'"
        case .noWordsForLanguage(let language, let file):
            "Daybook has no words for the language '\(language)', so the theme's words are English; add them in \(file)"
        case .wordsNotAMapping(let found):
            "a words file must be a mapping of keys to words, such as 'loadMore: Carregar mais', found \(found)"
        case .badWord(let key, let found):
            "'\(key)' must be text, or a mapping of plural forms such as 'one: \"{count} post\"' and 'other: \"{count} posts\"', found \(found)"
        case .unknownPluralCategory(let key, let category):
            "'\(key)' has a plural form '\(category)'; the forms are zero, one, two, few, many and other"
        case .pluralWithoutOther(let key):
            "'\(key)' has plural forms but no 'other', the form every language needs"
        case .badImageWidths(let found):
            "'images.widths' must be a list of widths in pixels such as [480, 960, 1600], found \(found)"
        case .badImageWidth(let found):
            "each of 'images.widths' must be a whole number of pixels from 16 to 8192, found \(found)"
        case .badImageFormat(let found):
            "'images.format' must be webp or jpeg, found \(found)"
        case .badReportURL(let url):
            "'report' must be a mailto: or https: URL such as mailto:abuse@example.org?subject={url}, found '\(url)'"

        case .unsafeImagePath(let field, let value):
            "'\(field)' must be a path under content/ such as images/photo.jpg, or an http(s) URL; '\(value)' is neither"
        case .imageThroughOutsideLink(let field, let path, let link):
            "\(field) 'content/\(path)' leads outside the site folder through the symbolic link '\(link)'; it is not read: put the file itself there"
        case .missingImage(let field, let path, let written, let item):
            "\(field) \(written.map { "'\($0)' (the site's own address for 'content/\(path)')" } ?? "'content/\(path)'") does not exist; the \(item) is shown without it"
        case .iconNotAPath(let value):
            "'icon' must be the path of an image under content/ such as images/icon.png, from which the build makes the site's icons; '\(value)' is not"
        case .hiddenImage(let field, let path, let item):
            "\(field) 'content/\(path)' is hidden or an editor's backup (a name starting with '.', or ending in '~', '.swp' or '.swx'), which the build never reads; rename it; the \(item) is shown without it"
        }
    }
}

extension Diagnostic {
    /// `problem` at `location`, with the problem's severity and message.
    package init(_ problem: ContentProblem, at location: SourceLocation) {
        self.init(problem.severity, problem.message, at: location)
    }
}
