import DaybookModel

/// One list as a build saw it: its ids in display order and a version of each item.
///
/// Everything a list page shows derives from this, so comparing two snapshots says which
/// items were inserted, removed or updated, like the batch updates of a list view.
package struct ListSnapshot: Sendable, Hashable {
    package var ids: [String]
    /// A stable hash of what the page shows of each item; changes when the item does.
    package var versions: [String: UInt64]

    package init(ids: [String] = [], versions: [String: UInt64] = [:]) {
        self.ids = ids
        self.versions = versions
    }
}

/// The difference between two snapshots of one list.
package struct ListDiff: Sendable, Hashable {
    /// In the new list's order.
    package var inserted: [String] = []
    /// In the old list's order.
    package var removed: [String] = []
    /// Present in both with a different version, in the new list's order.
    package var updated: [String] = []
    /// Present in both at a different position relative to the others that stayed.
    package var moved: Bool = false

    package init(inserted: [String] = [], removed: [String] = [], updated: [String] = [], moved: Bool = false) {
        self.inserted = inserted
        self.removed = removed
        self.updated = updated
        self.moved = moved
    }

    package var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && updated.isEmpty && !moved }

    /// - Complexity: O(old.count + new.count).
    package init(from old: ListSnapshot, to new: ListSnapshot) {
        // The usual rebuild: the same ids in the same order. Two sets of a timeline's 20,000 ids
        // were most of the diff, and most of the time `serve` spent after a build.
        if old.ids == new.ids {
            updated = new.ids.filter { old.versions[$0] != new.versions[$0] }
            return
        }
        let oldIDs = Set(old.ids)
        let newIDs = Set(new.ids)
        inserted = new.ids.filter { !oldIDs.contains($0) }
        removed = old.ids.filter { !newIDs.contains($0) }
        updated = new.ids.filter { oldIDs.contains($0) && old.versions[$0] != new.versions[$0] }
        // The ids that stayed, in each order: any difference means something moved.
        moved = old.ids.filter(newIDs.contains) != new.ids.filter(oldIDs.contains)
    }
}
