import DaybookModel

/// Every string a check's pages hold (link targets, ids, titles, parse messages), each stored
/// once and named by its index. A 32,000-page site has 1.4 million links but tens of thousands
/// of distinct ones: with the table, a link is resolved once per distinct string (an array slot
/// instead of a dictionary lookup per link), two ids are the same id when their indexes are
/// equal, and the facts cache stores four bytes per string.
///
/// Strings are told apart by their bytes (`ExactString`), as a browser tells URLs and ids apart.
struct StringTable: Sendable {
    private(set) var strings: [String] = []
    private var indexes: [ExactString: UInt32] = [:]

    init() {}

    /// `nil` when a string appears twice: indexes could then differ for equal strings, and a
    /// duplicate id would go unseen. Only a damaged archive holds such a table.
    init?(strings: [String]) {
        indexes.reserveCapacity(strings.count)
        self.strings.reserveCapacity(strings.count)
        for text in strings {
            guard intern(text) == UInt32(self.strings.count - 1) else { return nil }
        }
    }

    var count: Int { strings.count }

    /// Room for `more` strings without the index growing (and hashing every string again) on the way.
    mutating func reserveCapacity(more: Int) {
        strings.reserveCapacity(strings.count + more)
        indexes.reserveCapacity(strings.count + more)
    }

    subscript(index: UInt32) -> String { strings[Int(index)] }

    /// The string's index, added at the end when new.
    mutating func intern(_ text: String) -> UInt32 {
        // One hash per string: the dictionary's default-inserting accessor either finds the
        // string or adds it with the next index.
        let next = UInt32(strings.count)
        var index = next
        func read(_ value: inout UInt32) { index = value }
        read(&indexes[ExactString(text), default: next])
        if index == next { strings.append(text) }
        return index
    }

    /// The string's index when some page holds it.
    func index(of text: String) -> UInt32? { indexes[ExactString(text)] }
}
