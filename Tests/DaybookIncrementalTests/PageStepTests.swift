@testable import DaybookBuild
import DaybookIncremental
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

@testable import DaybookRender

/// The facts each page read (`PageFactTable`), as the incremental layer keeps them between builds.
@Suite("Page facts")
struct PageStepTests {
    /// Pages of these paths and places, in this order.
    static func pages(_ pages: KeyValuePairs<String, [Int32]>) -> [PageFactTable.Page] { pages.map { PageFactTable.Page(path: $0, places: $1) } }

    /// Each page's places, by path.
    static func places(_ table: PageFactTable) -> [String: [Int32]] { Dictionary(uniqueKeysWithValues: table.pages.map { ($0.path, $0.places) }) }

    @Test("a build's table keeps the kept pages' places, adds the built pages' new facts once each at the end, and drops pages gone")
    func next() {
        let previous = PageFactTable(
            facts: [.post("p1"), .person("ana"), .post("p2")], pages: Self.pages(["a.html": [0, 1], "b.html": [2, 1], "gone.html": [1]]), wholeCount: 3)
        let table = PageFactTable.next(
            previous: previous, kept: [("a.html", [0, 1])],
            built: [("b.html", [.post("p2"), .image("x.jpg")]), ("c.html", [.image("x.jpg"), .entry("q1")])])
        // Old facts are not looked up: p2 is added again rather than hashed against the table.
        #expect(table.facts == [.post("p1"), .person("ana"), .post("p2"), .post("p2"), .image("x.jpg"), .entry("q1")])
        #expect(table.pages.map(\.path) == ["a.html", "b.html", "c.html"])
        #expect(Self.places(table) == ["a.html": [0, 1], "b.html": [3, 4], "c.html": [4, 5]])
        #expect(table.wholeCount == 3)
    }

    @Test("once grown by half, the table is made whole: each fact a page reads once, no other, the pages' facts the same")
    func madeWhole() {
        let facts = (0..<1_100).map { PageFact.post("p\($0)") }
        let previous = PageFactTable(facts: facts, pages: Self.pages(["a.html": [0, 1]]), wholeCount: 600)
        let table = PageFactTable.next(previous: previous, kept: [("a.html", [0, 1])], built: [("b.html", [.post("p1"), .person("ana")])])
        #expect(table.facts.count == 3 && table.wholeCount == 3)
        let read = Self.places(table).mapValues { $0.map { table.facts[Int($0)] } }
        #expect(read == ["a.html": [.post("p0"), .post("p1")], "b.html": [.post("p1"), .person("ana")]])
    }

    @Test("the table reads back from its bytes as it was; cut short, grown, or naming a fact it lacks, it is none")
    func bytes() {
        let table = PageFactTable(
            facts: [.post("p1"), .comments("p1"), .neighbours("p1"), .person("Zoë"), .profile("al"), .image("a b.jpg"), .entry("q1"), .linkTarget("#café")],
            versions: (1...8).map { UInt64($0) << 40 },
            pages: [
                PageFactTable.Page(path: "posts/p1/index.html", places: [0, 1, 2, 3, 7], shape: 7, key: .max),
                PageFactTable.Page(path: "index.html", places: [], shape: 0, key: 1),
            ],
            wholeCount: 8, context: 42)
        let bytes = table.bytes
        #expect(PageFactTable(bytes: bytes[...]) == table)
        for cut in [0, 1, bytes.count / 2, bytes.count - 1] {
            #expect(PageFactTable(bytes: bytes[..<cut]) == nil, "\(cut)")
        }
        #expect(PageFactTable(bytes: (bytes + [0])[...]) == nil)
        // One fact, no versions, and a page naming the second; the same page named twice; two
        // versions for one fact.
        func written(versions: Int = 0, pages: [(String, Int)]) -> [UInt8] {
            var writer = MemoWriter()
            writer.count(1)
            writer.count(0)
            writer.string("p1")
            writer.count(versions)
            for _ in 0..<versions { writer.fixed(9) }
            writer.count(1)
            writer.fixed(0)
            writer.count(pages.count)
            for (path, place) in pages {
                writer.string(path)
                writer.fixed(0)
                writer.fixed(0)
                writer.count(1)
                writer.count(place)
            }
            return writer.bytes
        }
        #expect(PageFactTable(bytes: written(pages: [("index.html", 0)])[...]) != nil)
        #expect(PageFactTable(bytes: written(pages: [("index.html", 1)])[...]) == nil)
        #expect(PageFactTable(bytes: written(pages: [("index.html", 0), ("index.html", 0)])[...]) == nil)
        #expect(PageFactTable(bytes: written(versions: 2, pages: [("index.html", 0)])[...]) == nil)
        // An unknown kind of fact.
        #expect(PageFact(kind: 8, name: "x") == nil)
    }

    /// What `PageBuilder` recorded for two pages of a built site: the facts their keys are made of.
    @Test("a post page and a timeline page record exactly what they read: the post, its comments and neighbours, the people, the tags and mentions looked up")
    func recordedReads() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(IndexSite.now)))
        #expect(result.errorCount == 0)
        let table = try #require(PageStep.previous(in: MemoPlace.site(site.directory, faults: .none).load()))
        func facts(_ path: String) -> [PageFact]? { Self.places(table)[path].map { $0.map { table.facts[Int($0)] } } }
        // p2 by al, "#sea #sky", with bea's comment "#sky is nice, #unused is not a page, hi @zoe".
        #expect(facts("posts/p2/index.html") == [
            .comments("p2"), .neighbours("p2"), .person("al"), .post("p2"), .linkTarget("#sea"), .linkTarget("#sky"), .person("bea"),
            .linkTarget("#unused"), .linkTarget("@zoe"),
        ])
        // Page 2 of the timeline (two to a page): p3 and p4 by zoe, each card's facts in turn, each
        // fact once ("#cafe\u{301}" in p4 is p3's "#café").
        #expect(facts("timeline/page/2/index.html") == [
            .post("p3"), .person("zoe"), .linkTarget("#sky"), .linkTarget("#café"), .post("p4"), .linkTarget("#sea"),
        ])
        // The home page is built whole every time, to be fingerprinted: it keeps its place in the
        // table, and no facts.
        #expect(facts("index.html") == [])
    }
}
