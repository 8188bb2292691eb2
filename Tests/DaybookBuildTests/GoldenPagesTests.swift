import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Golden pages: representative pages of the repository's example site, built with a fixed
/// `now`, compared byte for byte with `Snapshots/`. Any change to the HTML shows up as a diff
/// to review. Re-record with `RECORD_SNAPSHOTS=1 swift test --filter GoldenPages`; a test that
/// records a snapshot still fails, so a missing snapshot never passes unnoticed.
@Suite("Golden pages of the example site")
struct GoldenPagesTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let snapshots = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Snapshots")
    static let site = ExampleBuild()

    /// Output path → snapshot file name.
    static let pages: [(path: String, snapshot: String)] = [
        ("index.html", "home.html"),
        ("journal/first-light/index.html", "journal-entry.html"),
        ("posts/p08/index.html", "post.html"),
        ("users/marta/index.html", "profile.html"),
        ("tags/lisbon/index.html", "tag.html"),
    ]

    @Test("each page equals its snapshot", arguments: pages.map(\.snapshot))
    func page(snapshot: String) async throws {
        let path = try #require(Self.pages.first { $0.snapshot == snapshot }?.path)
        let output = try await Self.site.output()
        let actual = try String(contentsOf: output.appending(path: path), encoding: .utf8)
        let file = Self.snapshots.appending(path: snapshot)
        let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !recording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            Issue.record("recorded \(snapshot) from \(path); review it, then run the tests again without RECORD_SNAPSHOTS")
            return
        }
        #expect(actual == expected, "\(path) differs from Snapshots/\(snapshot); if the change is meant, re-record with RECORD_SNAPSHOTS=1")
    }
}

/// The example site, built once for all golden pages into a fresh temporary folder.
actor ExampleBuild {
    private var built: URL?

    func output() async throws -> URL {
        if let built { return built }
        let output = SiteFixture.temporaryFolder("golden")
        let result = await SiteBuilder().build(
            BuildOptions(siteDirectory: GoldenPagesTests.repository, outputDirectory: output, now: Fixed.at("2026-11-21T12:00:00Z")))
        guard result.errorCount == 0 else { throw BuildFailed(diagnostics: result.diagnostics.map(\.description)) }
        built = output
        return output
    }

    struct BuildFailed: Error { var diagnostics: [String] }
}
