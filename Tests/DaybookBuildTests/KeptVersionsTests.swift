@testable import DaybookBuild
@testable import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

/// `daybook build` keeps each post's page and timeline versions in `.daybook-cache/versions`
/// and takes them back while what they were made of holds. Whether an entry holds is what these
/// tests probe: a kept file whose versions were altered shows in the build record's keys exactly
/// when the build took it. (That output stays equal to a fresh build's after every edit is
/// `IncrementalEquivalenceTests`.)
@Suite("Post versions kept between builds")
struct KeptVersionsTests {
    func build(_ site: SiteFixture) async -> BuildResult {
        await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now)))
    }

    /// The build record of a fresh build of the same sources.
    func freshRecord(of site: SiteFixture) async throws -> Data? {
        let fresh = try SiteFixture("")
        for (path, data) in site.tree("") where !path.hasPrefix("output/") && !path.hasPrefix(".daybook-cache/") {
            try fresh.write(path, String(decoding: data, as: UTF8.self))
        }
        _ = await build(fresh)
        return fresh.tree("output")[".daybook-manifest"]
    }

    /// Every kept version moved by one: wrong on purpose, so that taking them shows.
    func alter(_ site: SiteFixture) throws {
        var kept = try #require(CacheFile.read(KeptVersions.self, site: site.directory))
        kept.posts = kept.posts.map { KeptVersions.Entry(contentKey: $0.contentKey, slug: $0.slug, page: $0.page &+ 1) }
        CacheFile.save(kept, site: site.directory)
    }

    func replace(_ site: SiteFixture, _ path: String, _ old: String, _ new: String) throws {
        let text = try #require(site.read(path))
        #expect(text.contains(old))
        try site.write(path, text.replacing(old, with: new))
    }

    @Test("the file reads back as written; cut short, one byte long, or with a count past its bytes, it is none")
    func bytes() throws {
        let kept = KeptVersions(context: 7, posts: [
            KeptVersions.Entry(contentKey: 1, slug: 0, page: 2), KeptVersions.Entry(contentKey: 4, slug: 5, page: 6),
        ])
        let bytes = kept.bytes
        #expect(bytes.count == KeptVersions.magic.count + 16 + 2 * 24)
        #expect(KeptVersions(bytes: bytes[...]) == kept)
        #expect(KeptVersions(bytes: bytes.dropLast()) == nil)
        #expect(KeptVersions(bytes: (bytes + [0])[...]) == nil)
        var huge = bytes
        let countAt = KeptVersions.magic.count + 8
        huge.replaceSubrange(countAt..<(countAt + 8), with: [UInt8](repeating: 0x7F, count: 8))
        #expect(KeptVersions(bytes: huge[...]) == nil)
    }

    @Test("a build keeps one entry per shown post (six), and the next one takes them all while only a prompt changed")
    func takenWhileTheyHold() async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).succeeded)
        let kept = try #require(CacheFile.read(KeptVersions.self, site: site.directory))
        #expect(kept.posts.count == 6)
        try alter(site)
        try replace(site, "content/prompts.json", "Some *text*.", "Other *text*.")
        #expect(await build(site).succeeded)
        let record = site.tree("output")[".daybook-manifest"]
        #expect(record != nil)
        #expect(try await record != freshRecord(of: site), "the altered versions were taken")
    }

    @Test("none is taken after a person or a comment changes; an edited post's own is not taken", arguments: [
        ("a person's name", "content/users.json", #""name": "Zoë""#, #""name": "Zoë K.""#),
        ("a comment", "content/comments.json", "hi @zoe", "hello @zoe"),
        ("a post's caption", "content/posts.json", "#Sea at dawn with @al.", "#Sea at dusk with @al."),
    ])
    func notTakenOnceChanged(_ change: (String, String, String, String)) async throws {
        let site = try SiteFixture(IndexSite.archive)
        #expect(await build(site).succeeded)
        if change.0 == "a post's caption" {
            // Every entry right but the edited post's (p1, the newest, at place 0): only it must not be taken.
            var kept = try #require(CacheFile.read(KeptVersions.self, site: site.directory))
            kept.posts[0].page &+= 1
            CacheFile.save(kept, site: site.directory)
        } else {
            try alter(site)
        }
        try replace(site, change.1, change.2, change.3)
        #expect(await build(site).succeeded, "\(change.0)")
        #expect(try await site.tree("output")[".daybook-manifest"] == freshRecord(of: site), "\(change.0)")
    }
}
