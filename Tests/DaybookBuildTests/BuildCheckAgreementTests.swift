@testable import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// CONTRACT §6: "a build that exits 0 always gives an output that `check` passes", over every
/// fixture site of the test suite and with a theme of the site's own.
@Suite("Build and check agree")
struct BuildCheckAgreementTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fixture sites, with the `now` each is built at.
    static let fixtures: [(name: String, archive: String, now: String)] = [
        ("mini", MiniSite.archive, MiniSite.now),
        ("journal", JournalSite.archive, JournalSite.now),
        ("index", IndexSite.archive, IndexSite.now),
        ("write faults", WriteFaultTests.archive, WriteFaultTests.now),
    ]

    @Test("every fixture site, built plain and with --drafts --future, passes check", arguments: fixtures.map(\.name))
    func fixture(_ name: String) async throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        for (drafts, future) in [(false, false), (true, true)] {
            let site = try SiteFixture(fixture.archive)
            defer { try? FileManager.default.removeItem(at: site.directory) }
            let result = await SiteBuilder().build(
                BuildOptions(siteDirectory: site.directory, now: Fixed.at(fixture.now), includeFuture: future, includeDrafts: drafts))
            try #require(result.succeeded, "\(name): \(result.diagnostics)")
            try await Self.expectCheckPasses(site.directory.appending(path: "output"), "\(name), drafts \(drafts)")
        }
    }

    @Test("the example site, built plain and with --drafts --future, passes check")
    func example() async throws {
        for (drafts, future) in [(false, false), (true, true)] {
            let site = try SiteFixture("")
            defer { try? FileManager.default.removeItem(at: site.directory) }
            for name in ["content", "Templates", "site.yml"] {
                try FileManager.default.copyItem(at: Self.repository.appending(path: name), to: site.directory.appending(path: name))
            }
            let result = await SiteBuilder().build(
                BuildOptions(siteDirectory: site.directory, now: Fixed.at("2026-11-21T12:00:00Z"), includeFuture: future, includeDrafts: drafts))
            try #require(result.succeeded, "\(result.diagnostics)")
            try await Self.expectCheckPasses(site.directory.appending(path: "output"), "example, drafts \(drafts)")
        }
    }

    static func expectCheckPasses(_ output: URL, _ what: String) async throws {
        let report = await SiteChecker(baseURL: nil).check(FolderSource(directory: output))
        let errors = report.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.isEmpty, "\(what): \(errors.prefix(10))")
        #expect(report.pages > 5, "\(what)")
    }

    @Test("a site's own template with broken links fails the build at each link; fixed, the build passes and so does check")
    func templateLinks() async throws {
        let site = try SiteFixture(MiniSite.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        try site.write("site.yml", "baseURL: https://example.org/blog/\n" + (site.read("site.yml") ?? ""))
        try site.write("Templates/404.mustache", """
            <h1>Lost</h1>
            <p><a href="{{root}}timeline/">Timeline</a> <a href="{{root}}about/">About</a>
            <a href="#nowhere">x</a> <a href='docs/'>Docs</a>
            <img src="/style.css" alt=""> <a href="{{url}}">fine</a> <a href="https://example.com/">out</a> <a href="#main">skip</a>
            <a href="{{root}}images/a.png?v=1">photo</a> <a href="">empty</a></p>
            """)
        let failed = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(MiniSite.now)))
        #expect(!failed.succeeded)
        #expect(failed.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "Templates/404.mustache:2:54: error: the template's link '{{root}}about/' names no page or file of this site; fix the link, or add the page",
            "Templates/404.mustache:3:10: error: the template's link '#nowhere' names no element the theme's templates give that id; add id=\"nowhere\" or fix the link",
            "Templates/404.mustache:3:35: error: the template's link 'docs/' is relative, and a template renders on pages at several depths; write it from the site root, as {{root}}docs/",
            "Templates/404.mustache:4:11: error: the template's link '/style.css' is outside the site's root path /blog/; write it as {{root}}style.css",
            "Templates/404.mustache:5:55: error: the template's link '' is empty; link a page, or remove the attribute",
        ])
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))

        try site.write("Templates/404.mustache", """
            <h1>Lost</h1>
            <p><a href="{{root}}timeline/">Timeline</a> <a href="{{root}}tags/lisbon/">Lisbon</a> <a href="#main">skip</a>
            <img src="{{root}}style.css" alt=""> <a href="{{root}}images/a.png?v=1">photo</a></p>
            """)
        let built = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(MiniSite.now)))
        try #require(built.succeeded, "\(built.diagnostics)")
        try await Self.expectCheckPasses(site.directory.appending(path: "output"), "own 404")
    }
}
