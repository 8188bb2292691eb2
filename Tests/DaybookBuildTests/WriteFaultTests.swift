import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// CONTRACT §6: any error leaves the output folder exactly as it was. Every write a real build
/// makes (staged files, folders, placements, removals, the record, the intent, the image cache
/// and the other caches) is failed in turn, and what the build says and leaves is checked.
@Suite("Write faults")
struct WriteFaultTests {
    static let now = "2026-11-21T12:00:00Z"

    static let archive = """
        -- site.yml --
        title: Faults
        baseURL: https://faults.example/
        timeZone: Europe/Lisbon
        pageSize: 2
        -- content/users.json --
        [{"id": "ana", "name": "Ana", "follows": ["ben"]}, {"id": "ben", "name": "Ben"}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "River #lisbon", "image": "images/a.png", "imageAlt": "A river"},
          {"id": "p2", "author": "ben", "createdAt": "2026-11-19T10:00:00Z", "caption": "Bridge #porto", "location": {"name": "Porto"}},
          {"id": "p3", "author": "ana", "createdAt": "2026-11-18T10:00:00Z", "caption": "Gone soon #lisbon"}
        ]
        -- content/comments.json --
        [{"id": "c1", "postId": "p1", "author": "ben", "createdAt": "2026-11-20T11:00:00Z", "text": "Lovely"}]
        -- content/prompts.json --
        [{"id": "q1", "title": "What did you see?"}]
        -- content/sent-prompts.json --
        [{"id": "s1", "promptId": "q1", "sentAt": "2026-11-20T08:00:00Z"}]
        -- content/responses.json --
        [{"id": "r1", "promptId": "q1", "createdAt": "2026-11-20T09:00:00Z", "text": "The river."}]
        """

    /// The edits between the two builds: a changed caption, a removed post (its page, its
    /// tag's second page), a new post with a new photo and a new tag.
    static func edit(_ site: SiteFixture) throws {
        try site.write("content/posts.json", """
            [
              {"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "River at dusk #lisbon", "image": "images/a.png", "imageAlt": "A river"},
              {"id": "p2", "author": "ben", "createdAt": "2026-11-19T10:00:00Z", "caption": "Bridge #porto", "location": {"name": "Porto"}},
              {"id": "p4", "author": "ben", "createdAt": "2026-11-21T10:00:00Z", "caption": "Tram #yellow", "image": "images/b.png", "imageAlt": "A tram"}
            ]
            """)
        try site.write("content/images/b.png", bytes: TestPNG.make(width: 40, height: 30, rgb: (240, 200, 20)))
    }

    static func options(_ site: SiteFixture) -> BuildOptions { BuildOptions(siteDirectory: site.directory, now: Fixed.at(now)) }

    @Test("each write of a rebuild, failed in turn, leaves the output as it was (or says otherwise), no stray file, and the next build whole")
    func everyWritePoint() async throws {
        let base = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: base.directory) }
        try base.write("content/images/a.png", bytes: TestPNG.make(width: 40, height: 30))
        try #require(await SiteBuilder().build(Self.options(base)).succeeded)
        try Self.edit(base)
        let before = FolderState(base.directory.appending(path: "output"))

        // What a fresh build of the edited site writes.
        let fresh = try base.copy(leaving: ["output", ".daybook-cache"])
        defer { try? FileManager.default.removeItem(at: fresh.directory) }
        try #require(await SiteBuilder().build(Self.options(fresh)).succeeded)
        let expected = FolderState(fresh.directory.appending(path: "output")).recordByContent

        let (points, states) = try await Self.failEachWrite(of: base, codes: [ENOSPC, EIO, EACCES], expected: expected) { output in
            #expect(output == before, "\(output.differences(from: before))")
        }
        // Every kind of write was reached, and both outcomes.
        let kinds = Set(points.map { String(describing: $0).split(separator: " ")[0] })
        #expect(kinds.isSuperset(of: ["stage", "folder", "keep", "place", "remove", "intent", "cache"]), "\(kinds)")
        #expect(states["unchanged", default: 0] > 0 && states["replaced", default: 0] > 0, "\(states)")
        print("write faults: \(points.count) write points of a rebuild failed in turn, \(states)")
    }

    @Test("each write of a first build into an empty folder, failed in turn, leaves the folder empty (or says otherwise) and no stray file; new top-level folders go in whole")
    func firstBuildWritePoints() async throws {
        let base = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: base.directory) }
        try base.write("content/images/a.png", bytes: TestPNG.make(width: 40, height: 30))
        let fresh = try base.copy()
        defer { try? FileManager.default.removeItem(at: fresh.directory) }
        try #require(await SiteBuilder().build(Self.options(fresh)).succeeded)
        let expected = FolderState(fresh.directory.appending(path: "output")).recordByContent

        let (points, states) = try await Self.failEachWrite(of: base, codes: [EIO], expected: expected) { output in
            #expect(!output.isPresent, "\(output.paths)")
        }
        // Each top-level folder (posts/, tags/, …) went in by one placement, and each file at the top.
        let placed = points.compactMap { if case .place(let path) = $0 { path } else { nil } }
        let top = expected.paths.filter { !$0.contains("/") }
        #expect(placed.sorted() == top.sorted(), "\(placed)")
        #expect(expected.paths.count > 3 * top.count)
        #expect(states["unchanged", default: 0] > 0 && states["replaced", default: 0] > 0, "\(states)")
    }

    @Test("a failed first build takes away the folders it made for the output, and only those")
    func failedFirstBuildFolders() async throws {
        let site = try SiteFixture(Self.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        try site.write("content/images/a.png", bytes: TestPNG.make(width: 40, height: 30))
        // `kept/` is the user's; `made/deeper/out/` is made by the build.
        let kept = site.directory.appending(path: "kept")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: false)
        // The first file staged fails, or the first put in place (the intent is written by then).
        let faults = [
            WriteFaults { if case .stage = $0 { EIO } else { nil } },
            WriteFaults { if case .place = $0 { EIO } else { nil } },
        ]
        let outputs = [(kept.appending(path: "made/deeper/out"), gone: "kept/made"), (kept, gone: "kept/.daybook-tmp")]
        for ((output, gone), fault) in outputs.flatMap({ output in faults.map { (output, $0) } }) {
            var options = Self.options(site)
            options.outputDirectory = output
            let result = await SiteBuilder(faults: fault).build(options)
            #expect(!result.succeeded)
            #expect(result.outputState == .unchanged)
            #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: gone).path), "\(gone)")
            #expect(FolderState(kept).isPresent && FolderState(kept).paths.isEmpty, "\(FolderState(kept).paths)")
            // The next build, with the fault gone, makes them again.
            #expect(await SiteBuilder().build(options).succeeded)
            #expect(FolderState(output).paths.contains("index.html"))
            try FileManager.default.removeItem(at: kept)
            try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: false)
        }
    }

    /// Builds copies of `base`, the n-th failing its n-th write (with `codes` in turn), until
    /// one passes every write: each failed build says so in one error with the system's words,
    /// leaves its output as `unchanged` expects it or as `expected` (when it says it replaced
    /// it), and no temporary; the next build, with the fault gone, gives `expected`.
    /// - Returns: the write points failed in turn, and how many builds left the output unchanged or replaced.
    static func failEachWrite(
        of base: SiteFixture, codes: [Int32], expected: FolderState, unchanged: (FolderState) -> Void
    ) async throws -> (points: [WriteFaults.Point], states: [String: Int]) {
        var points: [WriteFaults.Point] = []
        var states: [String: Int] = [:]
        for n in 1...2_000 {
            let trial = try base.copy()
            defer { try? FileManager.default.removeItem(at: trial.directory) }
            let fault = NthWriteFails(n, code: codes[n % codes.count])
            let result = await SiteBuilder(faults: fault.faults).build(options(trial))
            let output = FolderState(trial.directory.appending(path: "output"))
            guard let point = fault.failed else {
                // Past the last write: the walk is done, and the build is the fresh one.
                #expect(result.succeeded)
                #expect(output.recordByContent == expected)
                break
            }
            points.append(point)
            let errors = result.diagnostics.filter { $0.severity == .error }
            let words = String(cString: strerror(fault.code))
            #expect(!result.succeeded, "\(point)")
            #expect(errors.count == 1, "\(point): \(errors)")
            #expect(errors.first?.message.contains(words) == true, "\(point): \(errors)")
            switch result.outputState {
            case .unchanged:
                states["unchanged", default: 0] += 1
                unchanged(output)
            case .replaced:
                // The build's site is in place; its intent may stay for the next build.
                states["replaced", default: 0] += 1
                #expect(output.without(OutputWriter.intentName).recordByContent == expected, "\(point): \(output.differences(from: expected))")
            case .mixed(let paths):
                Issue.record("\(point): undoing the commit failed at \(paths)")
            }
            #expect(output.paths.allSatisfy { !$0.hasPrefix(OutputFolder.temporaryFolder) }, "\(point)")
            let cache = FolderState(trial.directory.appending(path: ".daybook-cache"))
            #expect(cache.paths.allSatisfy { !$0.contains(".tmp-") }, "\(point): \(cache.paths.filter { $0.contains(".tmp-") })")

            // With the fault gone, the next build gives what a fresh one does, byte for byte.
            let again = await SiteBuilder().build(options(trial))
            #expect(again.succeeded, "\(point): \(again.diagnostics)")
            let repaired = FolderState(trial.directory.appending(path: "output")).recordByContent
            #expect(repaired == expected, "after \(point): \(repaired.differences(from: expected))")
        }
        return (points, states)
    }
}

/// Fails the `n`-th write it is asked about with `code`, and remembers which it was.
final class NthWriteFails: @unchecked Sendable {
    let n: Int
    let code: Int32
    private let lock = NSLock()
    private var count = 0
    private var point: WriteFaults.Point?

    init(_ n: Int, code: Int32) {
        self.n = n
        self.code = code
    }

    var faults: WriteFaults { WriteFaults { self.next($0) } }

    var failed: WriteFaults.Point? { lock.withLock { point } }

    private func next(_ point: WriteFaults.Point) -> Int32? {
        lock.withLock {
            count += 1
            guard count == n else { return nil }
            self.point = point
            return code
        }
    }
}


/// `daybook check` saves its facts and file keys in the site's cache: a write that fails there
/// is an error with the file's name and the system's words, and leaves no temporary behind and
/// the container the check read as it was.
@Suite("Write faults, check's cache")
struct CheckCacheFaultTests {
    /// A check of the site's output over its saved container, saved with `faults`.
    func check(_ site: SiteFixture, touching page: String? = nil, faults: WriteFaults) async throws -> Diagnostic? {
        if let page { try site.write("output/" + page, (site.read("output/" + page) ?? "") + " ") }
        let kept = CheckContainer.open(site: site.directory)
        var cache: PageFactsCache? = CheckContainer.facts(in: kept)
        cache?.files = CheckContainer.filesArchive(in: kept).map(FileKeys.init(archive:)) ?? FileKeys()
        let source = FolderSource(directory: site.directory.appending(path: "output"))
        cache?.start(at: FileInfo.realtimeNanoseconds(), folders: source.listings)
        _ = await SiteChecker(baseURL: nil).check(source, cache: &cache)
        return CheckContainer.save(try #require(cache), over: kept, site: site.directory, faults: faults)
    }

    @Test("the check's container, failed when written fresh and when appended to")
    func eachWrite() async throws {
        let site = try SiteFixture(MiniSite.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        try #require(await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(MiniSite.now))).succeeded)
        let failing = WriteFaults { $0 == .cache("check") ? EIO : nil }
        let message = ".daybook-cache/check: error: cannot write the cache: Input/output error; free some space and run again (the cache only saves work: deleting .daybook-cache is safe)"
        let container = site.directory.appending(path: ".daybook-cache/check")
        // Fresh: no container is left.
        #expect(try await check(site, faults: failing)?.description == message)
        #expect(!FileManager.default.fileExists(atPath: container.path))
        #expect(try await check(site, faults: .none) == nil)
        let saved = try Data(contentsOf: container)
        #expect(CheckContainer.read(site: site.directory).files.keys.entries.count > 5)
        // Appended to (one page of many changed): cut back to the container as it was.
        #expect(try await check(site, touching: "index.html", faults: failing)?.description == message)
        #expect(try Data(contentsOf: container) == saved)
        let left = FolderState(site.directory.appending(path: ".daybook-cache")).paths
        #expect(left.allSatisfy { !$0.contains(".tmp-") }, "\(left)")
    }
}
