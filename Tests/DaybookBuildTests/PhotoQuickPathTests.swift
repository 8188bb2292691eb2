import DaybookContent
import DaybookImages
import DaybookModel
import DaybookRender
import DaybookTestSupport
import Foundation
import Testing

@testable import DaybookBuild

/// The photo quick path: a source whose file status is unchanged since the last build is not read
/// at all; every other change is read, and re-encoded only when its bytes changed.
@Suite("Photos: the quick path for unchanged sources")
struct PhotoQuickPathTests {
    /// Publishes every file under `content/images` of `site`, counting the files read.
    final class CountingReader: @unchecked Sendable {
        let reader: SiteReader
        private let lock = NSLock()
        private var paths: [String] = []
        var reads: [String] { lock.withLock { paths } }
        init(_ site: SiteFixture) { reader = SiteReader(siteDirectory: site.directory) }
        func read(_ path: String) -> Result<[UInt8], FileInfo.ReadFailure> {
            lock.withLock { paths.append(path) }
            return reader.readAsset(path)
        }
    }

    static let paths = ["images/hidden.png", "images/phone.jpg", "images/plain.png"]

    /// Where `publish` keeps what each publish learnt of the photos for the next, as a build's
    /// memo does (`PhotoIndexStep`), in the index's own text.
    static func indexFile(_ site: SiteFixture) -> URL { site.directory.appending(path: "photo-index.txt") }

    static func publish(_ site: SiteFixture) -> (PhotoPublisher.Published, [String]) {
        let counter = CountingReader(site)
        let config = ContentLoader.load(counter.reader.readContent().0).config
        // Fixture files are seconds old at most; the racy rule is tested in NoChangeBuildTests.
        let publisher = PhotoPublisher(siteDirectory: site.directory, config: config, namedBy: { [:] }, racyWindow: 0)
        let known = (try? String(contentsOf: indexFile(site), encoding: .utf8)).flatMap(SourceIndex.init(text:)) ?? SourceIndex()
        let published = publisher.publish(paths, known: known, read: { counter.read($0) })
        try? Data(published.index.text.utf8).write(to: indexFile(site))
        // A photo to encode is read twice (its format, then its pixels); the order of the second reads depends on the cores.
        var seen = Set<String>()
        return (published, counter.reads.filter { seen.insert($0).inserted }.sorted())
    }

    static func image(_ site: SiteFixture, _ name: String) -> URL { site.directory.appending(path: "content/images/" + name) }

    @Test("a second publish of unchanged files reads no image, encodes nothing and names the same cached copies")
    func unchanged() throws {
        let site = try PhotoBuildTests.site()
        let (first, firstReads) = Self.publish(site)
        #expect(firstReads == Self.paths.map { "content/" + $0 })
        #expect((first.encoded, first.reused) == (3, 0))
        let (second, secondReads) = Self.publish(site)
        #expect(secondReads == [])
        #expect((second.encoded, second.reused) == (0, 3))
        #expect(second.cached == first.cached)
        #expect(second.images == first.images)
        #expect(second.cached.count == 14)
        #expect(second.files.isEmpty)
    }

    @Test("a touched file with the same bytes is read and hashed again, and reused from the cache, not encoded")
    func touched() throws {
        let site = try PhotoBuildTests.site()
        _ = Self.publish(site)
        let url = Self.image(site, "phone.jpg")
        try Data(contentsOf: url).write(to: url)  // same bytes, new mtime and ctime
        let (again, reads) = Self.publish(site)
        #expect(reads == ["content/images/phone.jpg"])
        #expect((again.encoded, again.reused) == (0, 3))
    }

    @Test("a file replaced by other bytes of the same size and mtime (another inode) is read and encoded")
    func replacedSameSizeAndTime() throws {
        let site = try PhotoBuildTests.site()
        let (first, _) = Self.publish(site)
        let url = Self.image(site, "plain.png")
        let old = try FileManager.default.attributesOfItem(atPath: url.path)
        let other = TestPNG.make(width: 20, height: 20, rgb: (10, 200, 30))
        let original = try Data(contentsOf: url)
        try #require(other.count == original.count && Data(other) != original, "the fixture needs a same-size PNG")
        let temporary = site.directory.appending(path: "content/plain.tmp")
        try Data(other).write(to: temporary)
        try FileManager.default.setAttributes([.modificationDate: old[.modificationDate]!], ofItemAtPath: temporary.path)
        #expect(rename(temporary.path, url.path) == 0)
        let (again, reads) = Self.publish(site)
        #expect(reads == ["content/images/plain.png"])
        #expect((again.encoded, again.reused) == (1, 2))
        #expect(again.cached.filter { $0.path.hasPrefix("images/plain") } != first.cached.filter { $0.path.hasPrefix("images/plain") })
    }

    @Test("an edited file is read and encoded; a deleted cache entry is made again; a damaged index is ignored")
    func editedAndDamaged() throws {
        let site = try PhotoBuildTests.site()
        _ = Self.publish(site)
        try Data(TestPNG.make(width: 30, height: 20)).write(to: Self.image(site, "hidden.png"))
        let (edited, editedReads) = Self.publish(site)
        #expect(editedReads == ["content/images/hidden.png"])
        #expect((edited.encoded, edited.reused) == (1, 2))
        #expect(edited.images["images/hidden.png"]?.size == ImageSize(width: 30, height: 20))

        let entry = URL(filePath: try #require(edited.cached.first { $0.path == "images/phone.16.webp" }).source).deletingLastPathComponent()
        try FileManager.default.removeItem(at: entry)
        let (remade, remadeReads) = Self.publish(site)
        #expect(remadeReads == ["content/images/phone.jpg"])
        #expect((remade.encoded, remade.reused) == (1, 2))

        let index = try String(contentsOf: Self.indexFile(site), encoding: .utf8)
        let colour = try #require(index.firstMatch(of: /#[0-9a-f]{6}/)).output
        for damage in [
            "{", String(repeating: "x", count: 1000), String(index.dropLast(30)), index.replacing("\t", with: " "),
            index.replacing(String(colour), with: "red;background:url(x)"),
        ] {
            try Data(damage.utf8).write(to: Self.indexFile(site))
            let (fresh, freshReads) = Self.publish(site)
            #expect(freshReads.count == 3, "damage \(damage.prefix(20))")
            #expect((fresh.encoded, fresh.reused) == (0, 3))
        }
    }

    @Test("a no-change build into an output that holds the copies reads none of them; an output missing one gets it back")
    func outputCopies() async throws {
        let site = try PhotoBuildTests.site()
        _ = await PhotoBuildTests.build(site)
        let before = site.tree("output")
        let second = await PhotoBuildTests.build(site)
        #expect(second.report?.written == 0)
        // Replace a cached copy's bytes (same size): a build that read it would publish them.
        let copy = try #require(Self.publish(site).0.cached.first { $0.path == "images/phone.32.webp" })
        let bytes = try Data(contentsOf: URL(filePath: copy.source))
        try Data(repeating: 0, count: bytes.count).write(to: URL(filePath: copy.source))
        let third = await PhotoBuildTests.build(site)
        #expect(third.report?.written == 0)
        #expect(site.tree("output") == before)
        try bytes.write(to: URL(filePath: copy.source))
        try FileManager.default.removeItem(at: site.directory.appending(path: "output/images/phone.32.webp"))
        let fourth = await PhotoBuildTests.build(site)
        #expect(fourth.report?.writtenPaths == ["images/phone.32.webp"])
        #expect(site.tree("output") == before)
    }

    @Test("a build keeps what it learnt of each photo in its memo, by the status it read the photo with, for the next build")
    func keptInMemo() async throws {
        let site = try PhotoBuildTests.site()
        let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now))
        #expect(await SiteBuilder(racyWindow: 0).build(options).succeeded)
        var memo = MemoPlace.site(site.directory, faults: .none).load()
        let index = PhotoIndexStep.index(in: &memo)
        #expect(index.entries.keys.sorted() == Self.paths)
        for path in Self.paths {
            #expect(index.entries[path]?.status == SourceIndex.status(of: site.directory.appending(path: "content/" + path).path), "\(path)")
        }
        // The next build takes every photo from it, and has nothing new to keep.
        try site.write("content/extra.txt", "x")
        let second = await SiteBuilder(racyWindow: 0).build(options)
        #expect(second.succeeded && second.imagesReused == 3)
        memo = MemoPlace.site(site.directory, faults: .none).load()
        #expect(PhotoIndexStep.index(in: &memo) == index)
    }
}
