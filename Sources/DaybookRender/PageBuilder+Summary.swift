import DaybookFeed
import DaybookLanguage
import DaybookMarkdown
import DaybookModel

/// What each kind of page says of itself to link previews and search engines (CONTRACT §12).
extension PageBuilder {
    /// An absolute URL of a page or file of the site, or a photo's own web address.
    func absolute(_ path: String) -> String {
        SiteURLs.isExternal(path) ? path : urls.absolute(SiteURLs.percentEncoded(path))
    }

    /// A post: its caption, its photo unless sensitive, and a schema.org `SocialMediaPosting`.
    func postSummary(_ post: Post, title: String) -> PageSummary {
        // The name alone: the page's own byline already made the author's view (with its avatar).
        reads?.record(.person(post.author))
        let authorName = input.feeds.usersByID[post.author]?.displayName ?? post.author
        let shared = post.isSensitive ? nil : sharedImage(post)
        let url = absolute(SiteURLs.post(post.id))
        let jsonLD = LinkedData.object { data in
            data.field("@type", "SocialMediaPosting")
            data.field("@id", url)
            data.field("url", url)
            data.field("headline", title)
            data.field("articleBody", post.caption)
            data.field("inLanguage", (post.lang ?? input.config.language).text)
            data.field("datePublished", post.createdAt.utcText)
            data.field("dateModified", post.updatedAt?.utcText)
            data.object("author", type: "Person") { person in
                person.field("name", authorName)
                person.field("url", input.feeds.usersByID[post.author] == nil ? nil : absolute(SiteURLs.user(post.author)))
            }
            if let shared {
                data.object("image", type: "ImageObject") { image in
                    image.field("url", shared.url)
                    image.field("width", shared.width)
                    image.field("height", shared.height)
                }
            }
            data.field("commentCount", input.feeds.comments[post.id]?.count ?? 0)
        }
        return PageSummary(description: PageSummary.description(post.caption ?? title), type: "article", image: shared, jsonLD: jsonLD)
    }

    /// A post's photo for link previews: the narrowest copy at least 1,200 px wide, else the
    /// widest (§12), or the photo itself when the build made no copies.
    func sharedImage(_ post: Post) -> PageSummary.SharedImage? {
        guard let reference = post.image else { return nil }
        reads?.record(.image(reference))
        let alt = photoAlt(post)
        if let copy = input.images[reference]?.linkPreviewCopy(atLeast: 1200) {
            return PageSummary.SharedImage(url: absolute(copy.path), width: copy.width, height: copy.height, alt: alt)
        }
        guard let size = input.imageSizes[reference] else { return nil }
        return PageSummary.SharedImage(url: absolute(reference), width: size.width, height: size.height, alt: alt)
    }

    /// A person's profile: their bio, and a schema.org `ProfilePage` whose `mainEntity` is them.
    func profileSummary(_ group: PostGroup, user: User?) -> PageSummary {
        let url = absolute(SiteURLs.user(group.id))
        let bio = user?.bio.map(Self.plainText)
        let jsonLD = LinkedData.object { data in
            data.field("@type", "ProfilePage")
            data.field("url", url)
            data.object("mainEntity", type: "Person") { person in
                person.field("name", group.name)
                person.field("alternateName", "@" + group.id)
                person.field("url", url)
                person.field("description", bio)
            }
        }
        return PageSummary(description: PageSummary.description(bio ?? count("postCount", group.posts.count)), type: "profile", jsonLD: jsonLD)
    }

    /// A journal entry: its prompt's text, else its title; an entry the owner answered is their
    /// writing, a schema.org `BlogPosting` of the responses under the prompt's title.
    func entrySummary(_ entry: JournalEntry, title: String) -> PageSummary {
        let responses = input.feeds.responses[entry.promptID] ?? []
        var summary = PageSummary(description: PageSummary.description(entry.prompt?.body.map(Self.plainText) ?? title))
        guard let first = responses.first, entry.prompt != nil else { return summary }
        let url = absolute(SiteURLs.entry(entry.promptID))
        let published = first.createdAt
        let modified = input.feeds.lastChanged(entry)
        summary.jsonLD = LinkedData.object { data in
            data.field("@type", "BlogPosting")
            data.field("@id", url)
            data.field("url", url)
            data.field("headline", title)
            data.field("articleBody", responses.map { Self.plainText($0.text) }.joined(separator: "\n\n"))
            data.field("inLanguage", (first.lang ?? entry.prompt?.lang ?? input.config.language).text)
            data.field("datePublished", published.utcText)
            data.field("dateModified", modified > published ? modified.utcText : nil)
        }
        return summary
    }

    /// Any other page: what it says of itself under its heading.
    func summary(intro: String) -> PageSummary { PageSummary(description: PageSummary.description(intro)) }
}
