@testable import DaybookBuild
import DaybookContent
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// A site's files are opened confined to the site folder, in the same call that resolves their
/// path: a link that stays inside is followed, one that leads out is refused, even when it was
/// swapped in after the walk that listed the file.
@Suite("Reads confined to the site folder")
struct ConfinedFolderTests {
    /// `base/site` with files and links in and out of it, and `base/secret.txt` beside it.
    func layout() throws -> (base: URL, site: URL) {
        let files = FileManager.default
        let base = SiteFixture.temporaryFolder("confined")
        let site = base.appending(path: "site")
        try files.createDirectory(at: site.appending(path: "in"), withIntermediateDirectories: true)
        try Data("top".utf8).write(to: site.appending(path: "a.txt"))
        try Data("inner".utf8).write(to: site.appending(path: "in/b.txt"))
        try Data("secret".utf8).write(to: base.appending(path: "secret.txt"))
        let links = [
            "rel": "in/b.txt", "abs": site.appending(path: "in/b.txt").path, "inlinks": "in", "up": "in/../a.txt",
            "out": "../secret.txt", "absout": base.appending(path: "secret.txt").path, "outdir": "..", "self": ".",
        ]
        for (name, target) in links { try files.createSymbolicLink(atPath: site.appending(path: name).path, withDestinationPath: target) }
        return (base, site)
    }

    func text(_ result: Result<(bytes: [UInt8], status: FileStatus), FileInfo.ReadFailure>) -> String {
        switch result {
        case .success(let read): String(decoding: read.bytes, as: UTF8.self)
        case .failure(.unreadable(let reason)): "unreadable: \(reason)"
        case .failure(.tooLarge(let size, _)): "too large: \(size)"
        }
    }

    @Test("links inside are followed, absolute ones too; every way out is refused", arguments: [true, false])
    func confinement(usesOpenat2: Bool) throws {
        let (base, site) = try layout()
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = ConfinedFolder(path: site.path, usesOpenat2: usesOpenat2)
        let outside = "unreadable: it leads outside the site folder"
        let reads = [
            "a.txt", "in/b.txt", "rel", "abs", "inlinks/b.txt", "up", "self/a.txt",
            "out", "absout", "outdir/secret.txt", "../secret.txt", "in/../../secret.txt", "missing.txt",
        ].map { ($0, text(folder.read($0, maxBytes: 100))) }
        #expect(Dictionary(uniqueKeysWithValues: reads) == [
            "a.txt": "top", "in/b.txt": "inner", "rel": "inner", "abs": "inner", "inlinks/b.txt": "inner", "up": "top",
            "self/a.txt": "top",
            "out": outside, "absout": outside, "outdir/secret.txt": outside, "../secret.txt": outside,
            "in/../../secret.txt": outside, "missing.txt": "unreadable: No such file or directory",
        ])
    }

    @Test("an output folder's files are read through no link at all, even one that stays inside", arguments: [true, false])
    func noLinks(usesOpenat2: Bool) throws {
        let (base, site) = try layout()
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = ConfinedFolder(path: site.path, followsLinks: false, usesOpenat2: usesOpenat2)
        let paths = ["a.txt", "in/b.txt", "rel", "abs", "inlinks/b.txt", "up", "self/a.txt", "out", "absout", "outdir/secret.txt", "../secret.txt", "in/../a.txt"]
        let read = paths.filter { (try? folder.read($0, maxBytes: 100).get()) != nil }
        #expect(read == ["a.txt", "in/b.txt"])
    }

    @Test("a content folder swapped for a link out after the walk listed its files: the read is refused, nothing outside is read")
    func swappedAfterWalk() throws {
        let site = try SiteFixture("""
            -- site.yml --
            title: T
            -- content/prompts/one.md --
            ---
            id: one
            title: One
            ---
            Inside.
            """)
        let reader = SiteReader(siteDirectory: site.directory)
        let walk = reader.siteFiles(under: "content")
        #expect(walk.files == ["content/prompts/one.md"])
        // Between the walk and the read, `content/prompts` becomes a link to a folder outside
        // the site holding a file of the same name.
        let outside = site.directory.deletingLastPathComponent().appending(path: "outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("---\nid: one\ntitle: Secret\n---\nSecret.\n".utf8).write(to: outside.appending(path: "one.md"))
        try FileManager.default.removeItem(at: site.directory.appending(path: "content/prompts"))
        try FileManager.default.createSymbolicLink(at: site.directory.appending(path: "content/prompts"), withDestinationURL: outside)

        let read = reader.readContentFolder(reusing: nil, listed: SiteReader.Listed(walk: walk, statuses: [:]))
        #expect(read.diagnostics.map(\.description) == [
            "content/prompts/one.md: error: cannot read file: it leads outside the site folder"
        ])
        #expect(read.snapshot.sources["content/prompts/one.md"] == nil)
    }
}
