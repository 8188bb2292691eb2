@testable import DaybookRender
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
}
