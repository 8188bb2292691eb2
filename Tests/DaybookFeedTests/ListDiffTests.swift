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

    @Test("the same ids in the same order: only the items whose version changed are updated, in list order")
    func sameOrder() {
        let old = snapshot([("a", 1), ("b", 1), ("c", 1)])
        let diff = ListDiff(from: old, to: snapshot([("a", 1), ("b", 2), ("c", 3)]))
        #expect(diff == ListDiff(updated: ["b", "c"]))
        // An id without a version in one snapshot counts as updated, as in the general case.
        let unversioned = ListDiff(from: old, to: ListSnapshot(ids: ["a", "b", "c"], versions: ["a": 1, "b": 1]))
        #expect(unversioned == ListDiff(updated: ["c"]))
    }
}
