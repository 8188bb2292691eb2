import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 41, CONTRACT §13: featured posts on the home page, suggested people on profiles.
@Suite("Featured posts and suggested people")
struct FeaturedAndSuggestedTests {
    static let now = "2026-11-21T12:00:00Z"
    static let archive = """
        -- site.yml --
        title: F
        baseURL: https://f.example/
        -- content/users.json --
        [
          {"id": "ana", "name": "Ana", "follows": ["ben", "cai"]},
          {"id": "ben", "name": "Ben", "follows": ["dee", "eve", "ana"]},
          {"id": "cai", "name": "Cai", "follows": ["eve", "fay"]},
          {"id": "dee", "name": "Dee"}, {"id": "eve", "name": "Eve"}, {"id": "fay", "name": "Fay", "lang": "he"}
        ]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-18T08:00:00Z", "caption": "Old and featured", "featured": true},
          {"id": "p2", "author": "ben", "createdAt": "2026-11-19T08:00:00Z", "caption": "Not featured"},
          {"id": "p3", "author": "cai", "createdAt": "2026-11-20T08:00:00Z", "caption": "New and featured", "featured": true},
          {"id": "p4", "author": "dee", "createdAt": "2026-11-21T08:00:00Z", "caption": "A draft, featured", "featured": true, "draft": true}
        ]
        """
    static let site = BuiltSite(archive, now: now)

    @Test("the home page shows the featured posts, in timeline order, in the featured section; drafts stay out")
    func featured() async throws {
        let site = try await Self.site.get()
        let home = try #require(site.read("output/index.html"))
        let section = try #require(home.components(separatedBy: "data-section=\"featured\"").dropFirst().first?.components(separatedBy: "</section>").first)
        #expect(HTMLProbe.attributeValues("data-featured", in: section) == ["p3", "p1"])
        #expect(HTMLProbe.attributeValues("data-featured", in: home) == ["p3", "p1"], "nowhere else")
        #expect(section.contains("<h2 id=\"featured\" class=\"section-heading\">Featured</h2>"))
        // Without featured posts, no section.
        let plain = try SiteFixture(Self.archive.replacingOccurrences(of: ", \"featured\": true", with: ""))
        _ = await SiteBuilder().build(BuildOptions(siteDirectory: plain.directory, now: Fixed.at(Self.now)))
        #expect(plain.read("output/index.html")?.contains("data-section=\"featured\"") == false)
        #expect(plain.read("output/index.html")?.contains("data-featured") == false)
    }

    @Test("a profile suggests the people its follows follow, most followed first, ties by id, with who follows them")
    func suggested() async throws {
        let site = try await Self.site.get()
        let ana = try #require(site.read("output/users/ana/index.html"))
        #expect(HTMLProbe.attributeValues("data-suggested", in: ana) == ["eve", "dee", "fay"])
        #expect(ana.contains("<li><a data-suggested=\"eve\" href=\"/users/eve/\">Eve</a> <span class=\"suggested-by\">Followed by Ben and 1 other</span></li>"))
        #expect(ana.contains("<li><a data-suggested=\"dee\" href=\"/users/dee/\">Dee</a> <span class=\"suggested-by\">Followed by Ben</span></li>"))
        #expect(ana.contains("<a data-suggested=\"fay\" href=\"/users/fay/\" lang=\"he\" dir=\"rtl\">Fay</a>"))
        // Ben follows Ana, who follows Cai: Cai is suggested; Ben himself and whom he follows are not.
        let ben = try #require(site.read("output/users/ben/index.html"))
        #expect(HTMLProbe.attributeValues("data-suggested", in: ben) == ["cai"])
        let dee = try #require(site.read("output/users/dee/index.html"))
        #expect(HTMLProbe.attributeValues("data-suggested", in: dee).isEmpty)
        #expect(!dee.contains("class=\"suggested\""), "no follows, no section")
    }

    @Test("a new follow changes the suggestions of the profiles that see it, in an incremental build as in a fresh one")
    func incremental() async throws {
        let site = try SiteFixture(Self.archive)
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(Self.now))
        _ = await SiteBuilder().build(options)
        try site.write("content/users.json", Self.archive.components(separatedBy: "-- content/users.json --\n")[1].components(separatedBy: "-- content/posts.json --")[0]
            .replacingOccurrences(of: "{\"id\": \"dee\", \"name\": \"Dee\"}", with: "{\"id\": \"dee\", \"name\": \"Dee\", \"follows\": [\"fay\"]}"))
        _ = await SiteBuilder().build(options)
        // Ben follows Dee (now following Fay), Eve and Ana (following Cai): one follower each, by id.
        let ben = try #require(site.read("output/users/ben/index.html"))
        #expect(HTMLProbe.attributeValues("data-suggested", in: ben) == ["cai", "fay"])
        let fresh = try SiteFixture("")
        try FileManager.default.copyItem(at: site.directory.appending(path: "content"), to: fresh.directory.appending(path: "content"))
        try FileManager.default.copyItem(at: site.directory.appending(path: "site.yml"), to: fresh.directory.appending(path: "site.yml"))
        _ = await SiteBuilder().build(BuildOptions(siteDirectory: fresh.directory, now: Fixed.at(Self.now)))
        #expect(fresh.read("output/users/ben/index.html") == ben)
        #expect(fresh.read("output/users/ana/index.html") == site.read("output/users/ana/index.html"))
    }
}
