import DaybookModel
@testable import DaybookRender
import Foundation
import Testing

/// Post cards are kept between builds (`CardStore`); each is taken only while the facts it read
/// have the versions they had, and only at the placement it was rendered for.
@Suite("Card store")
struct CardStoreTests {
    let list = CardStore.Placement(inList: true, lazy: true)
    let firstOnPage = CardStore.Placement(inList: true, lazy: false)

    /// Versions of facts as a test sets them: a card of post `id` reads `.post(id)` and its author.
    final class Site: @unchecked Sendable {
        var versions: [PageFact: UInt64] = [:]
        var rendered: [String] = []

        func version(_ facts: [PageFact]) -> UInt64 {
            var hash = StableHash()
            for fact in facts { hash.combine(bits: versions[fact] ?? 0) }
            return hash.value
        }

        func card(_ store: CardStore, _ id: String, _ placement: CardStore.Placement, _ html: String) -> String {
            store.card(id, placement: placement, version: version) {
                rendered.append(html)
                return (html, [.post(id), .person("ana")])
            }.html
        }
    }

    @Test("a card whose facts are as they were comes from the store at its placement; another placement or a changed fact renders it")
    func versionsAndPlacements() {
        let store = CardStore()
        let site = Site()
        #expect(site.card(store, "p1", list, "p1 v1 lazy") == "p1 v1 lazy")
        // Asked again, with other bytes on offer: the stored ones are the answer.
        #expect(site.card(store, "p1", list, "not rendered") == "p1 v1 lazy")
        #expect(site.card(store, "p1", firstOnPage, "p1 v1 eager") == "p1 v1 eager")
        #expect(site.card(store, "p2", list, "p2 v1 lazy") == "p2 v1 lazy")
        // The post changed: each placement is rendered again.
        site.versions[.post("p1")] = 2
        #expect(site.card(store, "p1", list, "p1 v2 lazy") == "p1 v2 lazy")
        #expect(site.card(store, "p1", firstOnPage, "p1 v2 eager") == "p1 v2 eager")
        #expect(site.card(store, "p2", list, "not rendered") == "p2 v1 lazy")
        // The author every card reads changed: both posts render again.
        site.versions[.person("ana")] = 5
        #expect(site.card(store, "p2", list, "p2 ana lazy") == "p2 ana lazy")
        #expect(site.card(store, "p1", list, "p1 ana lazy") == "p1 ana lazy")
        #expect(site.rendered == ["p1 v1 lazy", "p1 v1 eager", "p2 v1 lazy", "p1 v2 lazy", "p1 v2 eager", "p2 ana lazy", "p1 ana lazy"])
    }

    @Test("a card hands the page that shows it the facts it read, taken or rendered")
    func factsForThePage() {
        let store = CardStore()
        let site = Site()
        let made = store.card("p1", placement: list, version: site.version) { ("card", [.post("p1"), .image("a.jpg")]) }
        let taken = store.card("p1", placement: list, version: site.version) { ("other", []) }
        #expect(made.facts == [.post("p1"), .image("a.jpg")])
        #expect(taken.html == "card" && taken.facts == made.facts)
    }

    @Test("cards of posts that are gone are let go once the store holds more posts than the site")
    func release() {
        let store = CardStore()
        let site = Site()
        for id in ["a", "b", "c"] { _ = site.card(store, id, list, id) }
        store.keep(only: ["a", "b", "c", "d"])
        #expect(store.count == 3)
        store.keep(only: ["a", "c"])
        #expect(store.count == 2)
        #expect(site.card(store, "a", list, "rendered") == "a")
        #expect(site.card(store, "b", list, "rendered") == "rendered")
    }

    @Test("an earlier build's cards are read once, at the miss that reaches the threshold; cards rendered before stay")
    func earlierCards() {
        let saved = CardStore()
        let site = Site()
        for id in ["a", "b", "c"] { _ = site.card(saved, id, list, "saved \(id)") }
        var archive: [UInt8] = []
        saved.writeArchive { archive += $0 }
        let bytes = archive[...]
        let reads = Counter()
        let store = CardStore(earlier: { reads.add(); return [bytes] }, loadAfterMisses: 2)
        // First miss: below the threshold, rendered.
        #expect(site.card(store, "a", list, "rendered a") == "rendered a")
        #expect(reads.value == 0)
        // Second miss: the file is read, and b comes from it; a rendered in this build stays.
        #expect(site.card(store, "b", list, "rendered b") == "saved b")
        #expect(site.card(store, "a", list, "again a") == "rendered a")
        // A saved card whose post changed, or at another placement, is not taken, and the file is not read again.
        site.versions[.post("c")] = 2
        #expect(site.card(store, "c", list, "rendered c") == "rendered c")
        #expect(site.card(store, "b", firstOnPage, "rendered b eager") == "rendered b eager")
        #expect(reads.value == 1)
        #expect(store.rendered == 3)
    }

    @Test("the archive reads back as written; cut short, with bytes after it or a count beyond its bytes, it is no cache")
    func archive() throws {
        let store = CardStore()
        let site = Site()
        _ = site.card(store, "p1", list, "<article>é</article>")
        _ = site.card(store, "p1", firstOnPage, "")
        _ = site.card(store, "p2", list, "two")
        var bytes: [UInt8] = []
        store.writeArchive { bytes += $0 }
        let entries = try #require(CardStore.entries(archive: bytes[...]))
        let version = site.version([.post("p1"), .person("ana")])
        #expect(entries == [
            "p1": CardStore.Entry(facts: [.post("p1"), .person("ana")], version: version, html: [nil, nil, "", "<article>é</article>"]),
            "p2": CardStore.Entry(facts: [.post("p2"), .person("ana")], version: version, html: [nil, nil, nil, "two"]),
        ])
        for cut in [0, 1, 4, 8, bytes.count / 2, bytes.count - 1] {
            #expect(CardStore.entries(archive: bytes[..<cut]) == nil, "cut at \(cut)")
        }
        #expect(CardStore.entries(archive: (bytes + [0])[...]) == nil)
        // A count far beyond the bytes is refused before anything is reserved.
        #expect(CardStore.entries(archive: ([255, 255, 255, 255] + bytes.dropFirst(4))[...]) == nil)
    }
}

extension CardStoreTests {
    @Test("the cards archived in parts: each card in the part its id names, every part read back gives the store's cards")
    func parts() throws {
        let store = CardStore()
        let site = Site()
        let ids = (0..<40).map { "p\($0)" }
        for id in ids { _ = site.card(store, id, list, "card \(id)") }
        var parts: [(Int, [UInt8])] = []
        store.writeArchives(count: 8) { parts.append(($0, $1)) }
        #expect(parts.map(\.0) == Array(0..<8))
        var found: [String: CardStore.Entry] = [:]
        for (index, bytes) in parts {
            let entries = try #require(CardStore.entries(archive: bytes[...]))
            #expect(entries.keys.allSatisfy { CardStore.part(of: $0, count: 8) == index })
            found.merge(entries) { _, new in new }
        }
        var whole: [UInt8] = []
        store.writeArchive { whole += $0 }
        #expect(found == CardStore.entries(archive: whole[...]))
        #expect(Set(parts.map { $0.1.count }).count > 1, "the cards are spread over the parts")
        // A store reads every part; a damaged one costs its cards alone.
        let saved = parts.map { $0.1[...] } + [[1, 2, 3]]
        let reader = CardStore(earlier: { saved }, loadAfterMisses: 1)
        for id in ids { #expect(site.card(reader, id, list, "rendered") == "card \(id)") }
        #expect(reader.rendered == 0)
    }
}

/// Counts calls from a closure the store may call from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
