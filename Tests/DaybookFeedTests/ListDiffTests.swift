import DaybookFeed
import Testing

@Suite("List diff")
struct ListDiffTests {
    func snapshot(_ items: [(String, UInt64)]) -> ListSnapshot {
        ListSnapshot(ids: items.map(\.0), versions: Dictionary(uniqueKeysWithValues: items))
    }

    @Test("insertions, removals and updates, each in list order")
    func batchUpdate() {
        let old = snapshot([("a", 1), ("b", 1), ("c", 1), ("d", 1)])
        let new = snapshot([("e", 1), ("a", 2), ("c", 1), ("f", 1), ("d", 3)])
        let diff = ListDiff(from: old, to: new)
        #expect(diff.inserted == ["e", "f"])
        #expect(diff.removed == ["b"])
        #expect(diff.updated == ["a", "d"])
        #expect(!diff.moved)
    }

    @Test("a reorder of the same items is a move, not an update")
    func moved() {
        let diff = ListDiff(from: snapshot([("a", 1), ("b", 1)]), to: snapshot([("b", 1), ("a", 1)]))
        #expect(diff.inserted.isEmpty && diff.removed.isEmpty && diff.updated.isEmpty)
        #expect(diff.moved)
    }

    @Test("identical snapshots, and two empty lists, have no difference")
    func empty() {
        #expect(ListDiff(from: snapshot([("a", 1)]), to: snapshot([("a", 1)])).isEmpty)
        #expect(ListDiff(from: ListSnapshot(), to: ListSnapshot()).isEmpty)
        #expect(ListDiff(from: ListSnapshot(), to: snapshot([("a", 1)])).inserted == ["a"])
    }
}
