import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 40, CONTRACT §11: a site in its owner's language, and items in their own.
@Suite("A site's language: lang, direction, dates, the theme's words, per-item lang")
struct LanguageBuildTests {
    static let now = "2026-11-21T12:00:00Z"

    /// A Portuguese site in Lisbon: a post in English, a comment in Arabic, a prompt in English,
    /// a person who writes in Hebrew.
    static func archive(language: String = "pt", extra: String = "") -> String {
        """
        -- site.yml --
        title: Diário
        baseURL: https://d.example/
        timeZone: Europe/Lisbon
        language: \(language)
        pageSize: 1
        -- content/users.json --
        [{"id": "ana", "name": "Ana"}, {"id": "dov", "name": "דב", "lang": "he"}]
        -- content/prompts.json --
        [{"id": "q", "title": "What went well?", "body": "Write *one* thing.", "lang": "en"}]
        -- content/sent-prompts.json --
        [{"id": "s", "promptId": "q", "sentAt": "2026-11-20T08:00:00Z"}]
        -- content/responses.json --
        [{"id": "r", "promptId": "q", "createdAt": "2026-11-20T09:00:00Z", "text": "Hoje correu bem.", "lang": "pt-PT"}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-21T09:30:00Z", "caption": "Manhã no rio"},
          {"id": "p2", "author": "dov", "createdAt": "2026-11-20T18:05:00Z", "caption": "Evening light", "lang": "en"}
        ]
        -- content/comments.json --
        [
          {"id": "c1", "postId": "p1", "author": "dov", "createdAt": "2026-11-21T10:00:00Z", "text": "جميل", "lang": "ar"},
          {"id": "c2", "postId": "p2", "author": "ana", "createdAt": "2026-11-21T10:00:00Z", "text": "Lindo"},
          {"id": "c3", "postId": "p2", "author": "ana", "createdAt": "2026-11-21T10:05:00Z", "text": "Mesmo"}
        ]
        \(extra)
        """
    }

    static let portuguese = BuiltSite(archive(), now: now)
    static let arabic = BuiltSite(archive(language: "ar"), now: now)

    func build(_ site: SiteFixture) async -> BuildResult {
        await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(Self.now)))
    }

    @Test("pt: <html lang>, no dir, xml:lang on the feeds, CLDR dates, 24-hour times and the theme's words with their plurals")
    func portuguese() async throws {
        let site = try await Self.portuguese.get()
        let post = try #require(site.read("output/posts/p2/index.html"))
        #expect(post.hasPrefix("<!doctype html>\n<html lang=\"pt\">\n"))
        #expect(post.contains("<time class=\"post-time\" datetime=\"2026-11-20T18:05:00Z\">20 de novembro de 2026 · 18:05</time>"))
        #expect(post.contains("<h2 id=\"comments\" class=\"section-heading\">2 comentários</h2>"))
        #expect(try #require(site.read("output/posts/p1/index.html")).contains("<h2 id=\"comments\" class=\"section-heading\">1 comentário</h2>"))
        #expect(post.contains("<a class=\"skip-link\" href=\"#main\">Pular para o conteúdo</a>"))
        let timeline = try #require(site.read("output/timeline/index.html"))
        #expect(timeline.contains("<li><a href=\"/journal/\">Diário</a></li>\n<li><a href=\"/timeline/\" aria-current=\"page\">Linha do tempo</a></li>\n<li><a href=\"/search/\">Pesquisa</a></li>"))
        #expect(timeline.contains("data-next=\"/timeline/page/2/\">Carregar mais</button>"))
        #expect(timeline.contains("<span class=\"page-count\">Página 1 de 2</span>"))
        #expect(timeline.contains("<title>Linha do tempo · Diário</title>"))
        let page2 = try #require(site.read("output/timeline/page/2/index.html"))
        #expect(page2.contains("<title>Linha do tempo, página 2 · Diário</title>"))
        let feed = try #require(site.read("output/timeline/feed.xml"))
        #expect(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"pt\">"))
        #expect(feed.contains("<entry xml:lang=\"en\">"), "the English post's entry says so")
        #expect(feed.contains("<updated>2026-11-21T09:30:00Z</updated>"), "feeds keep RFC 3339")
    }

    @Test("an item's lang goes on the element holding its text, with dir only where its direction is not the site's")
    func itemLanguages() async throws {
        let site = try await Self.portuguese.get()
        let p2 = try #require(site.read("output/posts/p2/index.html"))
        #expect(p2.contains("<p class=\"caption\" lang=\"en\">Evening light</p>"))
        #expect(p2.contains("<span lang=\"he\" dir=\"rtl\">דב</span>"), "the author's name, in their language")
        let p1 = try #require(site.read("output/posts/p1/index.html"))
        #expect(p1.contains("<p class=\"caption\">Manhã no rio</p>"), "no lang: the site's")
        #expect(p1.contains("<p class=\"comment-text\" lang=\"ar\" dir=\"rtl\">جميل</p>"))
        let timeline = try #require(site.read("output/timeline/page/2/index.html"))
        #expect(timeline.contains("<p class=\"caption\" lang=\"en\">Evening light</p>"), "on the list's card too")
        let entry = try #require(site.read("output/journal/q/index.html"))
        #expect(entry.contains("<h1 lang=\"en\"><bdi>What went well?</bdi></h1>"))
        #expect(entry.contains("<div class=\"prose\" lang=\"en\"><p>Write <em>one</em> thing.</p>"))
        // Search results carry the item's language for search.js: tag, direction, whether the title is the item's too.
        let cards = try #require(site.read("output/search/d/0.json"))
        #expect(cards.contains(#"["c","p1#c1","דב","جميل",20778,"","ar","rtl",0]"#))
        #expect(cards.contains(#"["p","p2","דב","Evening light",20777,"","en","",0]"#))
        #expect(cards.contains(#"["u","dov","דב","",1,"","he","rtl",1]"#))
        #expect(cards.contains(#"["c","p2#c2","Ana","Lindo",20778,""]"#), "no lang: the card as before")
        // The latest response on the journal list, in its own language; its feed entry's too.
        let journal = try #require(site.read("output/journal/index.html"))
        #expect(journal.contains("<div class=\"entry-response prose\" lang=\"pt-PT\"><p class=\"entry-response-label\">Resposta</p><p>Hoje correu bem.</p>"))
        #expect(site.read("output/journal/feed.xml")?.contains("id=&quot;response-r&quot; lang=&quot;pt-PT&quot;&gt;") == true)
        let profile = try #require(site.read("output/users/dov/index.html"))
        // The grid's link carries the caption's language for the preview dialog.
        #expect(profile.contains("data-caption=\"Evening light\" data-lang=\"en\">"))
        #expect(profile.contains("<h1 lang=\"he\" dir=\"rtl\"><bdi>דב</bdi></h1>"))
    }

    @Test("ar: dir=\"rtl\" on <html>, Arabic words, and an English item marked left to right")
    func arabic() async throws {
        let site = try await Self.arabic.get()
        let p2 = try #require(site.read("output/posts/p2/index.html"))
        #expect(p2.hasPrefix("<!doctype html>\n<html lang=\"ar\" dir=\"rtl\">\n"))
        #expect(p2.contains("<p class=\"caption\" lang=\"en\" dir=\"ltr\">Evening light</p>"))
        #expect(p2.contains("<span lang=\"he\">דב</span>"), "Hebrew on an Arabic page: same direction, no dir")
        let p1 = try #require(site.read("output/posts/p1/index.html"))
        #expect(p1.contains("<p class=\"comment-text\" lang=\"ar\">جميل</p>"))
        #expect(site.read("output/timeline/feed.xml")?.contains("xml:lang=\"ar\"") == true)
        #expect(site.read("output/index.html")?.contains("<span class=\"arrow\" aria-hidden=\"true\">") == false, "no pagination on home")
    }

    @Test("a site's Templates/i18n/<language>.yml overrides one word and keeps the others")
    func override() async throws {
        let site = try SiteFixture(Self.archive(extra: "-- Templates/i18n/pt.yml --\nloadMore: Ver mais\n"))
        let result = await build(site)
        #expect(result.diagnostics.isEmpty)
        let timeline = try #require(site.read("output/timeline/index.html"))
        #expect(timeline.contains(">Ver mais</button>"))
        #expect(timeline.contains("<span class=\"page-count\">Página 1 de 2</span>"))
        #expect(site.read("output/i18n/pt.yml") == nil, "words files are read, never published")
    }

    @Test("a language Daybook has no words for keeps English words, with a warning naming the file to add")
    func unknownLanguage() async throws {
        let site = try SiteFixture(Self.archive(language: "tlh"))
        let result = await build(site)
        #expect(result.succeeded)
        #expect(result.diagnostics.map(\.description) == [
            "site.yml:4:11: warning: Daybook has no words for the language 'tlh', so the theme's words are English; add them in Templates/i18n/tlh.yml"
        ])
        let timeline = try #require(site.read("output/timeline/index.html"))
        #expect(timeline.hasPrefix("<!doctype html>\n<html lang=\"tlh\">\n"))
        #expect(timeline.contains(">Load more</button>"))
        // A site that adds the file has no warning, and its words.
        let spoken = try SiteFixture(Self.archive(language: "tlh", extra: "-- Templates/i18n/tlh.yml --\nloadMore: Qapla'\n"))
        let again = await build(spoken)
        #expect(again.diagnostics.isEmpty)
        #expect(spoken.read("output/timeline/index.html")?.contains(">Qapla&#39;</button>") == true)
    }

    @Test("a language that is not a BCP 47 tag, a bad item lang and a bad words file are reported at their place")
    func badInput() async throws {
        let site = try SiteFixture(Self.archive(language: "en_US"))
        let result = await build(site)
        #expect(!result.succeeded)
        #expect(result.diagnostics.map(\.description) == [
            "site.yml:4:11: error: 'language' must be a BCP 47 language tag such as en, pt-BR or zh-Hant, found 'en_US'"
        ])
        let item = try SiteFixture(Self.archive().replacingOccurrences(of: "\"lang\": \"ar\"", with: "\"lang\": \"arabic!\""))
        let itemResult = await build(item)
        #expect(!itemResult.succeeded, "a bad lang is an error, as any bad optional field is")
        #expect(itemResult.diagnostics.map(\.description) == [
            "content/comments.json:2:110: error: 'lang' must be a BCP 47 language tag such as en, pt-BR or zh-Hant, found 'arabic!'"
        ])
        let words = try SiteFixture(
            Self.archive(extra: "-- Templates/i18n/pt.yml --\ncommentCount:\n  one: um\n  lots: muitos\nloadMore: [a]\n"))
        let wordsResult = await build(words)
        #expect(!wordsResult.succeeded)
        #expect(wordsResult.diagnostics.map(\.description) == [
            "Templates/i18n/pt.yml:3:3: error: 'commentCount' has a plural form 'lots'; the forms are zero, one, two, few, many and other",
            "Templates/i18n/pt.yml:4:11: error: 'loadMore' must be text, or a mapping of plural forms such as 'one: \"{count} post\"' and 'other: \"{count} posts\"', found an array",
        ])
    }
}
