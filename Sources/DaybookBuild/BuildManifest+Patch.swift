import DaybookModel

extension BuildManifest {
    /// Where a record's lines lie in its bytes, by each file's place in the record's path order.
    ///
    /// A rebuild after an edit changes a few files' lines of 34,000: with these, the new record is
    /// the old one's bytes with those lines replaced (`BuildManifest.encoded(patching:)`), where
    /// writing every line again (a lookup in both tables per file) was the most of saving it.
    /// Only a record laid out as `encoded` writes it has them: every file's line in order, then
    /// every key's line in the same order, each key a file's.
    package struct Lines: Sendable, Equatable {
        /// Where file `i`'s line starts; one more, where the files' lines end.
        var files: [Int]
        /// Where the key lines of file `i` and the files after it start (file `i` has a key line
        /// when the next start is further on); one more, where the key lines end.
        var keys: [Int]
        /// How many key lines there are.
        var keyCount: Int

        /// Whether these fit a record of `count` files in `bytes` bytes.
        func fit(count: Int, bytes: Int) -> Bool {
            files.count == count + 1 && keys.count == count + 1 && (keys.last ?? 0) <= bytes && (files.last ?? 0) <= (keys.first ?? 0)
        }
    }

    /// The record `encoded(pathOrder:)` would write, made from the previous record's bytes:
    /// `previous` as encoded (in `previous.pathOrder`) differs from this manifest at `changed`
    /// alone, a file's entry or its key. Only those paths' lines are written; the rest are the
    /// previous bytes, copied run by run. The lists are written whole.
    ///
    /// `nil` (the caller encodes in full) when the previous record's lines are not known, the
    /// files are not the order's, or a changed path is not a file.
    package func encoded(patching previous: Encoded, changed: some Collection<String>) -> Encoded? {
        let order = previous.pathOrder
        let old = previous.bytes
        guard let lines = previous.lines, lines.fit(count: order.count, bytes: old.count), files.count == order.count else { return nil }
        // Each changed path's place in the order, which is sorted (`encoded` writes it so), once.
        var named = Set<Int>()
        for path in changed {
            guard files[path] != nil, let place = Self.place(of: path, in: order) else { return nil }
            named.insert(place)
        }
        let places = named.sorted()
        var keyCount = lines.keyCount
        for place in places {
            if lines.keys[place + 1] > lines.keys[place] { keyCount -= 1 }
            if pageKeys[order[place]] != nil { keyCount += 1 }
        }
        // A path outside `changed` that gained or lost a key: the caller's promise does not hold.
        guard keyCount == pageKeys.count else { return nil }

        var out: [UInt8] = []
        out.reserveCapacity(old.count + 200 * places.count)
        out += old[0..<lines.files[0]]
        let fileStarts = Self.patch(old, starts: lines.files, at: places, into: &out) { place, out in
            Self.fileLine(order[place], files[order[place]]!, into: &out)
        }
        out += old[lines.files[order.count]..<lines.keys[0]]
        // A changed file's old key line, if any, gives way to its new one, if any.
        let keyStarts = Self.patch(old, starts: lines.keys, at: places, into: &out) { place, out in
            if let key = pageKeys[order[place]] { Self.keyLine(order[place], key, into: &out) }
        }
        appendLists(to: &out)
        return Encoded(bytes: out, pathOrder: order, lines: Lines(files: fileStarts, keys: keyStarts, keyCount: keyCount))
    }

    /// One section of `old` (the files' lines, or the keys'), which `starts` cuts at each file's
    /// place, appended to `out`: the runs between `places` (sorted, distinct) copied, and each
    /// place's lines written by `write`. Gives where each place's lines start in `out`.
    private static func patch(
        _ old: [UInt8], starts: [Int], at places: [Int], into out: inout [UInt8], write: (Int, inout [UInt8]) -> Void
    ) -> [Int] {
        var moved = starts
        var next = 0
        var shift = out.count - starts[0]
        for place in places {
            out += old[starts[next]..<starts[place]]
            for index in next..<place { moved[index] += shift }
            moved[place] = out.count
            write(place, &out)
            shift = out.count - starts[place + 1]
            next = place + 1
        }
        out += old[starts[next]..<starts[starts.count - 1]]
        for index in next..<starts.count { moved[index] += shift }
        return moved
    }

    /// `path`'s place in `order`, sorted as records sort their paths; `nil` when it is not there.
    private static func place(of path: String, in order: [String]) -> Int? {
        var (low, high) = (0, order.count)
        while low < high {
            let middle = (low + high) / 2
            if order[middle].scalarsPrecede(path) { low = middle + 1 } else { high = middle }
        }
        return low < order.count && order[low] == path ? low : nil
    }
}
