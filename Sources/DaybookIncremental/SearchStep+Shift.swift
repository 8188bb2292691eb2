import DaybookModel
import DaybookParallel
import DaybookRender

/// The search files after results came or went (a post added or deleted, a comment, a person):
/// every later result's number moved, which changes a cards file's results and the entries of
/// most words. Remade, the files needed every result made again, a second of a `medium` build's
/// CPU for one deleted post. Shifted, only the results that came are made: the kept results'
/// entries are renumbered in the postings, their cards are moved from the last build's cards
/// files (read back from the output, by the key the last build recorded) to their new files,
/// and their terms from the memo's groups to the new groups.
extension SearchStep {
    /// For each result the old and the new build both have (the same card and terms, by its
    /// document version), where it is in each, from the fewest results added and removed.
    struct Alignment: Sendable {
        /// Each old result's number now, or `nil` for a result gone.
        var newNumber: [Int?]
        /// Each result's number in the last build, or `nil` for a result that came.
        var oldNumber: [Int?]

        /// `nil` when more than `limit` results came or went: past that, remaking every file is
        /// the cheaper way, and the difference's cost grows with its size.
        init?(old: [UInt64], new: [UInt64], limit: Int) {
            // The two ends most often agree: only what lies between is compared.
            let prefix = zip(old, new).prefix { $0 == $1 }.count
            let suffix = zip(old[prefix...].reversed(), new[prefix...].reversed()).prefix { $0 == $1 }.count
            let (oldMiddle, newMiddle) = (old[prefix..<(old.count - suffix)], new[prefix..<(new.count - suffix)])
            // Results that came and went, counted without order: a lower bound of the difference
            // (moves add to it), which keeps the difference from running long.
            var counts: [UInt64: Int] = [:]
            for version in oldMiddle { counts[version, default: 0] += 1 }
            for version in newMiddle { counts[version, default: 0] -= 1 }
            guard counts.values.reduce(0, { $0 + abs($1) }) <= limit else { return nil }
            let difference = newMiddle.difference(from: oldMiddle)
            guard difference.count <= limit else { return nil }
            var removed = Set<Int>()
            var inserted = Set<Int>()
            for change in difference {
                switch change {
                case .remove(let offset, _, _): removed.insert(prefix + offset)
                case .insert(let offset, _, _): inserted.insert(prefix + offset)
                }
            }
            newNumber = Array(repeating: nil, count: old.count)
            oldNumber = Array(repeating: nil, count: new.count)
            var now = 0
            for then in old.indices where !removed.contains(then) {
                while inserted.contains(now) { now += 1 }
                newNumber[then] = now
                oldNumber[now] = then
                now += 1
            }
        }
    }

    /// `nil` when something the shift needs is not in the memo, or the results moved too much.
    static func shift(
        _ results: SearchResults, previous: IndexRecord, layout: SearchIndex.Layout, layoutVersion: UInt64, memo: inout MemoTable,
        keep: @Sendable (String, UInt64) -> Bool, previousFile: @Sendable (String, UInt64) -> [UInt8]?,
        emit: (@Sendable (Int, RenderedFile) -> Void)? = nil
    ) -> Output? {
        let versions = results.versions
        guard previous.fileKeys.count == layout.paths.count,
            let alignment = Alignment(old: previous.versions.map(\.document), new: versions.map(\.document), limit: max(8, results.count / 8))
        else { return nil }
        let came = alignment.oldNumber.indices.filter { alignment.oldNumber[$0] == nil }
        results.prepare(numbers: came)
        let cameTerms = Parallel.mapBlocking(came) { SearchTerms(results.document(at: $0)) }

        // The postings: every entry renumbered, those of results gone left out, those of results
        // that came put in at their place.
        var added: [String: [(document: Int, count: Int)]] = [:]
        for (number, terms) in zip(came, cameTerms) {
            for (term, times) in terms.counted { added[term, default: []].append((number, times)) }
        }
        let addedByFile = Dictionary(grouping: added) { SearchIndex.postingsFile(of: $0.key, layout) }
        let table = memo
        let shifted = Parallel.mapBlocking(Array(0..<layout.postingFiles)) { number -> (SearchIndex.Postings, [(String, Int, Int)])? in
            guard let file = table.value(postings, UInt64(number), version: layoutVersion).flatMap(decodePostings) else { return nil }
            return renumbered(file, alignment: alignment, adding: addedByFile[number] ?? [])
        }
        var keys = previous.fileKeys
        var files: [Int: RenderedFile] = [:]
        func put(_ file: RenderedFile, at position: Int) {
            let key = StableHash.ofContent(file.bytes)
            guard key != keys[position] else { return }
            keys[position] = key
            files[position] = file
        }
        var lexiconChanges: [(word: String, before: Int, after: Int)] = []
        var postingFiles: [SearchIndex.Postings] = []
        for found in shifted {
            guard let (file, changes) = found else { return nil }
            postingFiles.append(file)
            lexiconChanges += changes
        }
        let rendered = Parallel.mapBlocking(Array(postingFiles.enumerated())) { number, file in
            (SearchIndex.postingsJSON(file, number: number, layout: layout), encode(file))
        }
        for (number, (file, bytes)) in rendered.enumerated() {
            memo.store(postings, UInt64(number), version: layoutVersion, value: bytes)
            put(file, at: layout.lexiconFiles + number)
        }
        // Every big file: a big word's entries moved with the rest.
        let bigStart = layout.lexiconFiles + layout.postingFiles
        let made = Parallel.mapBlocking(Array(0..<layout.bigBuckets)) { [postingFiles] bucket in
            SearchIndex.bigJSON(bucket: bucket, postings: SearchIndex.postingFiles(ofBucket: bucket, layout).map { postingFiles[$0] }, layout: layout)
        }
        var madeBuckets: [Int: [RenderedFile]] = [:]
        for (bucket, segments) in made.enumerated() {
            madeBuckets[bucket] = segments
            for (segment, file) in segments.enumerated() { put(file, at: bigStart + bucket * layout.segments + segment) }
        }
        guard let lexiconFiles = lexiconFiles(changing: lexiconChanges, layout: layout, layoutVersion: layoutVersion, memo: memo) else { return nil }
        for (number, file) in lexiconFiles {
            memo.store(lexicon, UInt64(number), version: layoutVersion, value: encode(file))
            put(SearchIndex.lexiconJSON(file, number: number), at: number)
        }

        let cardStart = bigStart + layout.bigFiles
        let moved = movedCards(results, previous: previous, alignment: alignment, layout: layout, previousFile: previousFile, emit: emit)
        // Each file whose bytes changed, in the output or handed over already.
        var emitted = Set<Int>()
        for (file, key, cards, _) in moved where key != keys[cardStart + file] {
            keys[cardStart + file] = key
            if let cards { files[cardStart + file] = cards } else { emitted.insert(cardStart + file) }
        }

        // The terms of each group whose results changed, from the last build's groups and the
        // results that came.
        let cameByNumber = Dictionary(uniqueKeysWithValues: zip(came, cameTerms))
        guard storeShiftedGroups(versions: versions, previous: previous, alignment: alignment, came: cameByNumber, results: results, layout: layout, memo: &memo)
        else { return nil }
        var output = finished(
            results, files: files, keys: keys, previous: previous, layout: layout, layoutVersion: layoutVersion, madeBuckets: madeBuckets,
            memo: &memo, keep: keep, emitted: emitted)
        output?.shifted = true
        output?.cardsMoved = moved.reduce(0) { $0 + $1.taken }
        return output
    }

    /// The cards files whose results are no longer the same, each made of its kept results'
    /// cards, taken from the last build's cards files (`previousFile`), and the cards of the
    /// results that came. A kept result whose last file cannot be read back is made again.
    ///
    /// Made a run of files at a time (about 16,000 results), the last build's files they take
    /// from read back for that run and let go of after it. With `emit`, each file whose bytes
    /// changed goes to it as soon as it is made, and is returned without them. Made at once and
    /// held to the end, a deleted post's moved cards grew the build by 330 MB on `large`, whose
    /// peak then fell from about 1,710 to 1,555 MiB.
    /// - Returns: each file's number, its key, its bytes unless emitted, and how many of its cards
    ///   were taken.
    private static func movedCards(
        _ results: SearchResults, previous: IndexRecord, alignment: Alignment, layout: SearchIndex.Layout,
        previousFile: @Sendable (String, UInt64) -> [UInt8]?, emit: (@Sendable (Int, RenderedFile) -> Void)?
    ) -> [(file: Int, key: UInt64, cards: RenderedFile?, taken: Int)] {
        let (count, oldCount) = (results.count, previous.versions.count)
        let cardStart = layout.lexiconFiles + layout.postingFiles + layout.bigFiles
        let paths = layout.paths
        @Sendable func oldRange(_ file: Int) -> Range<Int> { layout.results(ofCardFile: file, documents: oldCount) }
        @Sendable func newRange(_ file: Int) -> Range<Int> { layout.results(ofCardFile: file, documents: count) }
        @Sendable func oldFile(_ number: Int) -> Int { layout.cardFile(of: number, documents: oldCount) }
        let moved = (0..<layout.cardFiles).filter { file in
            let (now, then) = (newRange(file), oldRange(file))
            return now.count != then.count || now.contains { alignment.oldNumber[$0] != then.lowerBound + ($0 - now.lowerBound) }
        }
        var made: [(file: Int, key: UInt64, cards: RenderedFile?, taken: Int)] = []
        made.reserveCapacity(moved.count)
        let filesPerRun = max(1, 16_384 / max(1, layout.cardsPerFile))
        for first in stride(from: 0, to: moved.count, by: filesPerRun) {
            let run = Array(moved[first..<min(moved.count, first + filesPerRun)])
            let sources = Set(run.flatMap { newRange($0).compactMap { alignment.oldNumber[$0] } }.map(oldFile))
            let oldCards = Dictionary(
                uniqueKeysWithValues: Parallel.mapBlocking(Array(sources)) { file -> (Int, (bytes: [UInt8], cards: [Range<Int>])?) in
                    guard let bytes = previousFile(paths[cardStart + file], previous.fileKeys[cardStart + file]),
                        let cards = SearchIndex.cardFragments(of: bytes), cards.count == oldRange(file).count
                    else { return (file, nil) }
                    return (file, (bytes, cards))
                })
            let unread = run.flatMap { file in newRange(file).filter { alignment.oldNumber[$0].map { oldCards[oldFile($0)]! == nil } ?? false } }
            results.prepare(numbers: unread)
            made += Parallel.mapBlocking(run) { file in
                var taken = 0
                let fragments = newRange(file).map { number -> ArraySlice<UInt8> in
                    if let then = alignment.oldNumber[number], let (bytes, cards) = oldCards[oldFile(then)]! {
                        taken += 1
                        return bytes[cards[then - oldRange(oldFile(then)).lowerBound]]
                    }
                    return SearchIndex.cardJSON(results.document(at: number))[...]
                }
                let cards = SearchIndex.cardsJSON(fragments: fragments, number: file)
                let key = StableHash.ofContent(cards.bytes)
                guard let emit, key != previous.fileKeys[cardStart + file] else { return (file, key, cards, taken) }
                emit(file, cards)
                return (file, key, nil, taken)
            }
        }
        return made
    }

    /// A postings file with every result renumbered (`alignment`), the results gone left out and
    /// `adding` put in, with how many results each word of it was in and is in now when that moved.
    static func renumbered(
        _ file: SearchIndex.Postings, alignment: Alignment, adding: [(key: String, value: [(document: Int, count: Int)])]
    ) -> (SearchIndex.Postings, [(String, Int, Int)]) {
        var result = SearchIndex.Postings(minimumCapacity: file.count + adding.count)
        var changes: [(String, Int, Int)] = []
        let additions = Dictionary(uniqueKeysWithValues: adding.map { ($0.key, $0.value) })
        for (term, entries) in file {
            var shifted: [Int] = []
            shifted.reserveCapacity(entries.count)
            var dropping = false
            for value in entries {
                if value >= 0 {
                    guard let now = alignment.newNumber[value] else {
                        dropping = true
                        continue
                    }
                    dropping = false
                    shifted.append(now)
                } else if !dropping {
                    shifted.append(value)
                }
            }
            if let more = additions[term] { shifted = SearchIndex.patched(shifted, changed: [], counts: more) }
            if !shifted.isEmpty { result[term] = shifted }
            let (before, after) = (SearchIndex.resultCount(entries), SearchIndex.resultCount(shifted))
            if before != after && !SearchIndex.isKey(term) { changes.append((term, before, after)) }
        }
        for (term, more) in additions where file[term] == nil {
            result[term] = SearchIndex.patched([], changed: [], counts: more)
            if !SearchIndex.isKey(term) { changes.append((term, 0, more.count)) }
        }
        return (result, changes)
    }

    /// Stores the terms of each group (a cards file's results) whose results' terms are not kept
    /// under its version: the kept results' terms from the last build's groups, those that came
    /// as made. `false` when a group of the last build is not in the memo.
    private static func storeShiftedGroups(
        versions: [Versions], previous: IndexRecord, alignment: Alignment, came: [Int: SearchTerms], results: SearchResults,
        layout: SearchIndex.Layout, memo: inout MemoTable
    ) -> Bool {
        let (count, oldCount) = (results.count, previous.versions.count)
        @Sendable func oldRange(_ group: Int) -> Range<Int> { layout.results(ofCardFile: group, documents: oldCount) }
        let table = memo
        let missing = (0..<layout.cardFiles).compactMap { group -> (Int, UInt64)? in
            let version = groupVersion(versions[layout.results(ofCardFile: group, documents: count)])
            return table.value(terms, UInt64(group), version: version) == nil ? (group, version) : nil
        }
        let sources = Set(
            missing.flatMap { group, _ in layout.results(ofCardFile: group, documents: count).compactMap { alignment.oldNumber[$0] } }
                .map { layout.cardFile(of: $0, documents: oldCount) })
        let oldGroups = Dictionary(
            uniqueKeysWithValues: Parallel.mapBlocking(Array(sources)) { group in
                (group, table.value(terms, UInt64(group), version: groupVersion(previous.versions[oldRange(group)])).flatMap(decodeGroup))
            })
        guard oldGroups.allSatisfy({ group, found in found?.count == oldRange(group).count }) else { return false }
        let encoded = Parallel.mapBlocking(missing) { group, version in
            let found = layout.results(ofCardFile: group, documents: count).map { number -> (UInt64, SearchTerms) in
                if let terms = came[number] { return (versions[number].terms, terms) }
                let then = alignment.oldNumber[number]!
                let source = layout.cardFile(of: then, documents: oldCount)
                return oldGroups[source]!![then - oldRange(source).lowerBound]
            }
            return (group, version, encodeGroup(found))
        }
        for (group, version, bytes) in encoded { memo.store(terms, UInt64(group), version: version, value: bytes) }
        memo.retain(terms, ids: Set((0..<layout.cardFiles).map(UInt64.init)))
        return true
    }
}
