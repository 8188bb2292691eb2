@testable import DaybookRender
import Foundation
import Testing

/// `serve` keeps rendered post cards between builds (`CardStore`); each is taken only for the
/// version and placement it was rendered for.
@Suite("Card store")
struct CardStoreTests {
    let list = CardStore.Placement(inList: true, lazy: true)
    let firstOnPage = CardStore.Placement(inList: true, lazy: false)

    @Test("a card at its version and placement comes from the store; another placement or version is rendered")
    func versionsAndPlacements() {
        let store = CardStore()
        var rendered: [String] = []
        func card(_ id: String, _ version: UInt64, _ placement: CardStore.Placement, _ html: String) -> String {
            store.html(id, version: version, placement: placement) {
                rendered.append(html)
                return html
            }
        }
        #expect(card("p1", 7, list, "p1 v7 lazy") == "p1 v7 lazy")
        // Asked again, with other bytes on offer: the stored ones are the answer.
        #expect(card("p1", 7, list, "not rendered") == "p1 v7 lazy")
        #expect(card("p1", 7, firstOnPage, "p1 v7 eager") == "p1 v7 eager")
        #expect(card("p2", 7, list, "p2 v7 lazy") == "p2 v7 lazy")
        // The post changed: each placement is rendered again, and the old version is gone.
        #expect(card("p1", 8, list, "p1 v8 lazy") == "p1 v8 lazy")
        #expect(card("p1", 8, firstOnPage, "p1 v8 eager") == "p1 v8 eager")
        #expect(card("p1", 7, list, "p1 v7 again") == "p1 v7 again")
        #expect(rendered == ["p1 v7 lazy", "p1 v7 eager", "p2 v7 lazy", "p1 v8 lazy", "p1 v8 eager", "p1 v7 again"])
    }

    @Test("cards of posts that are gone are let go once the store holds more posts than the site")
    func release() {
        let store = CardStore()
        for id in ["a", "b", "c"] { _ = store.html(id, version: 1, placement: list) { id } }
        store.keep(only: ["a", "b", "c", "d"])
        #expect(store.count == 3)
        store.keep(only: ["a", "c"])
        #expect(store.count == 2)
        #expect(store.html("a", version: 1, placement: list) { "rendered" } == "a")
        #expect(store.html("b", version: 1, placement: list) { "rendered" } == "rendered")
    }

    @Test("an earlier build's cards are read once, at the miss that reaches the threshold; cards rendered before stay")
    func earlierCards() {
        let saved = CardStore()
        for id in ["a", "b", "c"] { _ = saved.html(id, version: 1, placement: list) { "saved \(id)" } }
        var archive: [UInt8] = []
        saved.writeArchive { archive += $0 }
        let bytes = archive[...]
        let reads = Counter()
        let store = CardStore(earlier: { reads.add(); return bytes }, loadAfterMisses: 2)
        // First miss: below the threshold, rendered.
        #expect(store.html("a", version: 1, placement: list) { "rendered a" } == "rendered a")
        #expect(reads.value == 0)
        // Second miss: the file is read, and b comes from it; a rendered in this build stays.
        #expect(store.html("b", version: 1, placement: list) { "rendered b" } == "saved b")
        #expect(store.html("a", version: 1, placement: list) { "again a" } == "rendered a")
        // A saved card of another version or placement is not taken, and the file is not read again.
        #expect(store.html("c", version: 2, placement: list) { "rendered c" } == "rendered c")
        #expect(store.html("b", version: 1, placement: firstOnPage) { "rendered b eager" } == "rendered b eager")
        #expect(reads.value == 1)
        #expect(store.rendered == 3)
    }

    @Test("the archive reads back as written; cut short or with bytes after it, it is no cache")
    func archive() throws {
        let store = CardStore()
        _ = store.html("p1", version: 7, placement: list) { "<article>é</article>" }
        _ = store.html("p1", version: 7, placement: firstOnPage) { "" }
        _ = store.html("p2", version: 9, placement: list) { "two" }
        var bytes: [UInt8] = []
        store.writeArchive { bytes += $0 }
        let entries = try #require(CardStore.entries(archive: bytes[...]))
        #expect(entries == [
            "p1": CardStore.Entry(version: 7, html: [nil, nil, "", "<article>é</article>"]),
            "p2": CardStore.Entry(version: 9, html: [nil, nil, nil, "two"]),
        ])
        for cut in [0, 1, 4, bytes.count / 2, bytes.count - 1] {
            #expect(CardStore.entries(archive: bytes[..<cut]) == nil, "cut at \(cut)")
        }
        #expect(CardStore.entries(archive: (bytes + [0])[...]) == nil)
        // A count far beyond the bytes is refused before anything is reserved.
        #expect(CardStore.entries(archive: [255, 255, 255, 255][...]) == nil)
    }
}

/// Counts calls from a closure the store may call from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
