import DaybookFeed
import DaybookModel
import DaybookParallel
import DaybookRender
import Synchronization

/// The files under `search/`, made through the memo: a build folds and splits only the results
/// whose texts changed, and rewrites only the postings, lexicon and card files they touch.
///
/// What is kept (each a step of the memo):
/// - `search.index`: the last build's layout, each result's version and terms version, in
///   order, and each file's key (a hash of its bytes);
/// - `search.terms`: each result's words and keys with its terms version, by the group of
///   results one cards file holds (one entry per result made the memo's index most of its size);
/// - `search.postings` and `search.lexicon`: each file's contents, under the layout.
///
/// When the layout and the number of results are the last build's, the results that changed
/// are patched into the files their old and new terms are in (`SearchIndex.patched`). When
/// results came or went (a post added or gone moves every later result's number), the files
/// are shifted around them (`shift`). Anything else (a new layout, most results changed, a memo
/// missing a value) remakes the files from every result's terms, most of them kept. Either way
/// the files are the bytes `SearchIndex.files` makes from nothing (`SearchStepTests`).
package enum SearchStep {
    static let index = MemoStep("search.index")
    static let terms = MemoStep("search.terms")
    static let postings = MemoStep("search.postings")
    static let lexicon = MemoStep("search.lexicon")

    /// What the build writes: files whose bytes may have changed, and paths whose files the
    /// last build wrote and this one keeps; every path's key, for the record.
    package struct Output: Sendable {
        package var files: [RenderedFile] = []
        package var reused: [String] = []
        package var keys: [String: UInt64] = [:]
        /// Whether only the changed results were worked on (`false`: every file was remade).
        package var patched = false
        /// Whether results came or went, and the files were patched around them (`shift`).
        package var shifted = false
        /// How many cards were taken from the last build's cards files, to their new files.
        package var cardsMoved = 0
    }

    /// - Parameters:
    ///   - keep: whether the output still holds the last build's file at a path with a key.
    ///   - previousFile: the bytes of the last build's file at a path, when the output still
    ///     holds it with that key (`OutputWriter.previousFileRule`).
    package static func files(
        _ documents: [SearchDocument], layout: SearchIndex.Layout, memo: inout MemoTable, keep: @Sendable (String, UInt64) -> Bool,
        previousFile: @Sendable (String, UInt64) -> [UInt8]? = { _, _ in nil }
    ) -> Output {
        files(SearchResults(documents: documents), layout: layout, memo: &memo, keep: keep, previousFile: previousFile)
    }

    /// The same, of results made as the files need them (`results(of:versions:memo:)`).
    /// - Parameter emit: takes files as soon as they are made (from any thread), when given; they
    ///   are then left out of the output, but not their keys. Remaking every file, each cards
    ///   file goes to it as it is made: held to the end, they were 100 MB of a large site's peak.
    package static func files(
        _ results: SearchResults, layout: SearchIndex.Layout, memo: inout MemoTable, keep: @Sendable (String, UInt64) -> Bool,
        previousFile: @Sendable (String, UInt64) -> [UInt8]? = { _, _ in nil }, emit: (@Sendable ([RenderedFile]) -> Void)? = nil
    ) -> Output {
        let layoutVersion = version(of: layout)
        // Cards files a shift handed to `emit` before it failed: the bytes a remake makes of
        // them, which are not handed over again.
        let emitted = EmittedCards()
        if let previous = memo.value(index, 0, version: layoutVersion).flatMap(IndexRecord.init(bytes:)) {
            var table = memo
            let patched =
                previous.versions.count == results.count
                ? patch(results, previous: previous, layout: layout, layoutVersion: layoutVersion, memo: &table, keep: keep)
                : shift(
                    results, previous: previous, layout: layout, layoutVersion: layoutVersion, memo: &table, keep: keep, previousFile: previousFile,
                    emit: emit.map { emit in { @Sendable number, file in emitted.note(number); emit([file]) } })
            if let output = patched {
                memo = table
                keepRuns(of: results, memo: &memo)
                return output
            }
        }
        let output = remake(results, layout: layout, layoutVersion: layoutVersion, memo: &memo, emit: emit, emitted: emitted.numbers)
        keepRuns(of: results, memo: &memo)
        return output
    }

    /// The numbers of the cards files a shift handed to `emit`, from whichever core made them.
    final class EmittedCards: Sendable {
        private let handed = Mutex(Set<Int>())
        func note(_ number: Int) { handed.withLock { _ = $0.insert(number) } }
        var numbers: Set<Int> { handed.withLock { $0 } }
    }

    /// Stores a first build's runs (`results(of:versions:memo:)`), now that every result's
    /// versions are known.
    private static func keepRuns(of results: SearchResults, memo: inout MemoTable) {
        guard let runs = results.runsToKeep else { return }
        let versions = results.versions
        memo.store(Self.runs, 0, version: 0, value: encodeRuns(runs.map { ($0.id, $0.version, Array(versions[results.range(ofRun: $0.place)])) }))
    }

    /// A result's version (everything its card and terms are made of) and its terms' version.
    package struct Versions: Sendable, Equatable {
        var document: UInt64
        var terms: UInt64

        init(document: UInt64, terms: UInt64) { (self.document, self.terms) = (document, terms) }

        init(_ document: SearchDocument) {
            terms = document.termsVersion
            self.document = document.version(terms: terms)
        }
    }

    /// Every run of results worth keeping (a post's with its comments', an entry's, a
    /// person's), in one value: each run's id, the version of what its results read (a post's,
    /// the facts its page reads of it, `FactVersions.itemVersion(ofPost:)`, of which its results
    /// show a part; an entry's, its entry's; a person's, their record, avatar, name and post
    /// count) and its results' versions. A run whose inputs are as they were is not made at all
    /// unless a file needs its results (`SearchResults`). One value rather than one a run: 25,000
    /// entries grew the memo's index and its writing by a fifth of a second of CPU a full build.
    static let runs = MemoStep("search.runs")
    /// The runs `serve` keeps decoded, results and all, by id.
    static let heldRuns = MemoStep("search.runs.held")

    /// The kept runs' versions, by id.
    typealias KeptRuns = [UInt64: (version: UInt64, versions: [Versions])]

    struct Run: Sendable {
        var documents: [SearchDocument]
        var versions: [Versions]

        init(_ documents: [SearchDocument]) { (self.documents, versions) = (documents, documents.map(Versions.init)) }
        init(documents: [SearchDocument], versions: [Versions]) { (self.documents, self.versions) = (documents, versions) }
    }

    /// Every result, in order, with its versions: each run's versions taken from the memo while
    /// what its results read is as it was, its results made only when a file needs them.
    package static func results(of renderer: SiteRenderer, versions: FactVersions, memo: inout MemoTable) -> SearchResults {
        var hash = StableHash()
        hash.combine(renderer.config)
        hash.combine(renderer.today)
        let context = hash.value
        let (units, names, table) = (renderer.searchUnits(), renderer.searchNames(), memo)
        // Kept decoded by `serve`: decoding 30,000 runs' versions on every save, and encoding them
        // again after it, was a fifth of its search results.
        let keptDecoded = table.decoded(Self.runs, 0, version: 0, as: KeptRuns.self)
        let kept = keptDecoded ?? table.value(Self.runs, 0, version: 0).flatMap(decodeRuns) ?? [:]
        @Sendable func version(_ read: UInt64) -> UInt64 {
            var hash = StableHash()
            hash.combine(bits: read)
            hash.combine(bits: context)
            return hash.value
        }
        // With nothing kept (a first build), no result's versions are known before it is made:
        // the files remade from nothing make the results a few card files at a time, learning
        // their versions as they go, and the runs are kept once those are all known (`files`).
        let documents = { @Sendable (unit: SearchUnit) -> [SearchDocument] in
            var documents: [SearchDocument] = []
            documents.reserveCapacity(renderer.searchCount(unit))
            renderer.searchDocuments(of: unit, names: names) { documents.append($0) }
            return documents
        }
        if kept.isEmpty && !memo.keepsDecoded {
            let results = SearchResults(counts: units.map(renderer.searchCount)) { documents(units[$0]) }
            results.runsToKeep = units.indices.compactMap { place in
                Self.identity(of: units[place], versions: versions).map { (place, $0.id, version($0.read)) }
            }
            return results
        }
        let made = { @Sendable (unit: SearchUnit) -> Run in Run(documents(unit)) }
        let heldBefore = table.decodedResults(of: Self.heldRuns, as: Run.self)
        let found = Parallel.mapBlocking(units) { unit -> (documents: [SearchDocument]?, versions: [Versions], id: UInt64?, version: UInt64?) in
            guard let (id, read) = Self.identity(of: unit, versions: versions) else {
                let run = made(unit)
                return (run.documents, run.versions, nil, nil)
            }
            let version = version(read)
            // Held, its results are taken only by a file that needs them (`make` below): handed
            // over whole, `serve`'s 30,000 runs were counted in and out on every save, which
            // doubled its search results after a first build that made them all.
            if let held = heldBefore.value(id, version: version) { return (nil, held.versions, id, version) }
            if let run = kept[id], run.version == version { return (nil, run.versions, id, version) }
            let run = made(unit)
            return (run.documents, run.versions, id, version)
        }
        var changed = false
        for entry in found {
            guard let id = entry.id, let version = entry.version else { continue }
            if kept[id]?.version != version { changed = true }
            if let documents = entry.documents, heldBefore.value(id, version: version) == nil {
                memo.keepDecoded(Self.heldRuns, id, version: version, Run(documents: documents, versions: entry.versions))
            }
        }
        let ids = found.compactMap(\.id)
        memo.retain(Self.heldRuns, ids: Set(ids))
        if changed || ids.count != kept.count {
            let runs = found.compactMap { entry in entry.id.map { (id: $0, version: entry.version ?? 0, versions: entry.versions) } }
            let decoded = KeptRuns(runs.map { ($0.id, (version: $0.version, versions: $0.versions)) }, uniquingKeysWith: { first, _ in first })
            memo.store(Self.runs, 0, version: 0, decoded: decoded) { encodeRuns(runs) }
        } else if keptDecoded == nil {
            memo.keepDecoded(Self.runs, 0, version: 0, kept)
        }
        let identities = found.map { ($0.id, $0.version) }
        return SearchResults(runs: found.map { ($0.documents, $0.versions) }) { place in
            if let id = identities[place].0, let version = identities[place].1, let held = heldBefore.value(id, version: version) {
                return held.documents
            }
            return made(units[place]).documents
        }
    }

    /// A run's id, and the version of what its results read, for the runs worth keeping: a
    /// post's, an entry's, and a person's (their name and their bio); hashtags and places are
    /// cheap to make.
    private static func identity(
        of unit: SearchUnit, versions: FactVersions
    ) -> (id: UInt64, read: UInt64)? {
        var id = StableHash()
        var read = StableHash()
        switch unit {
        case .post(let post):
            id.combine("post")
            id.combine(post.id)
            read.combine(bits: versions.itemVersion(ofPost: post.id))
        case .entry(let entry):
            id.combine("entry")
            id.combine(entry.promptID)
            read.combine(bits: versions.version(of: .entry(entry.promptID)))
        case .user(let group), .bio(let group):
            if case .user = unit { id.combine("user") } else { id.combine("bio") }
            id.combine(group.id)
            read.combine(bits: versions.itemVersion(ofPerson: group.id))
            read.combine(group.name)
            read.combine(group.posts.count)
        case .tag, .place:
            return nil
        }
        return (id.value, read.value)
    }


    /// The version of a group's terms (the results of one cards file): their terms versions, in order.
    static func groupVersion(_ versions: ArraySlice<Versions>) -> UInt64 {
        var hash = StableHash()
        for version in versions { hash.combine(bits: version.terms) }
        return hash.value
    }

    static func version(of layout: SearchIndex.Layout) -> UInt64 {
        var hash = StableHash()
        let values = [
            layout.lexiconFiles, layout.postingFiles, layout.cardsPerFile, layout.cardFiles, layout.bigResults, layout.headResults, layout.bigBuckets,
            layout.segmentWidth, layout.segments, layout.groupResults, layout.entries, layout.entryCardsPerFile,
        ]
        for value in values { hash.combine(bits: UInt64(value)) }
        return hash.value
    }

    // MARK: - Every file

    /// - Parameter emitted: the numbers of the cards files a failed shift handed to `emit`,
    ///   which are not handed over again.
    private static func remake(
        _ results: SearchResults, layout: SearchIndex.Layout, layoutVersion: UInt64, memo: inout MemoTable, emit: (@Sendable ([RenderedFile]) -> Void)?,
        emitted: Set<Int> = []
    ) -> Output {
        // Every file is made again, every cards file with it: every result is needed.
        let count = results.count
        // Every kept result's terms, by their version: a post added or removed moves the results
        // after it to other groups, and their terms are found all the same.
        let table = memo
        var kept: [UInt64: SearchTerms] = [:]
        for group in Parallel.mapBlocking(table.values(of: terms), { decodeGroup($0) ?? [] }) {
            for (version, found) in group { kept[version] = found }
        }
        let known = kept
        // A run of card files at a time (about 16,000 results, which all cores share): their
        // results made (or taken), their terms stored and added to the postings, their cards
        // made, and the results let go of before the next run's are made. Made all at once, the
        // results were 160 MB and their terms 360 MB of `large`'s peak memory.
        var assembler = SearchIndex.Assembler()
        var cardKeys: [(String, UInt64)] = []
        var cards: [RenderedFile] = []
        cardKeys.reserveCapacity(layout.cardFiles)
        let groupsPerRun = max(1, 16_384 / max(1, layout.cardsPerFile))
        for first in stride(from: 0, to: layout.cardFiles, by: groupsPerRun) {
            let groups = first..<min(layout.cardFiles, first + groupsPerRun)
            let start = layout.results(ofCardFile: groups.lowerBound, documents: count).lowerBound
            let end = max(start, layout.results(ofCardFile: groups.upperBound - 1, documents: count).upperBound)
            let documents = results.documents(start..<end)
            let versions = Array(results.versions(start..<end))
            /// The results of card file `group`, as offsets into this run's.
            @Sendable func offsets(_ group: Int) -> Range<Int> {
                let range = layout.results(ofCardFile: group, documents: count)
                return (range.lowerBound - start)..<(range.upperBound - start)
            }
            let found = Parallel.mapBlocking(Array(documents.indices)) { known[versions[$0].terms] ?? SearchTerms(documents[$0]) }
            // Each group's terms, encoded again only when its results' terms changed.
            let encoded = Parallel.mapBlocking(Array(groups)) { group in
                let range = offsets(group)
                let version = groupVersion(versions[range])
                if table.value(terms, UInt64(group), version: version) != nil { return (group, version, [UInt8]?.none) }
                return (group, version, encodeGroup(range.map { (versions[$0].terms, found[$0]) }))
            }
            for (group, version, bytes) in encoded {
                if let bytes { memo.store(terms, UInt64(group), version: version, value: bytes) }
            }
            for (offset, result) in found.enumerated() { assembler.add(result, document: start + offset) }
            // The cards, each handed to `emit` as soon as it is made, when there is one.
            let made = Parallel.mapBlocking(Array(groups)) { number -> (key: (String, UInt64), file: RenderedFile?) in
                let file = SearchIndex.cardsJSON(cards: documents[offsets(number)], number: number)
                let key = (file.path, StableHash.ofContent(file.bytes))
                guard let emit else { return (key, file) }
                if !emitted.contains(number) { emit([file]) }
                return (key, nil)
            }
            cardKeys += made.map(\.key)
            cards += made.compactMap(\.file)
            results.forget(below: end)
        }
        memo.retain(terms, ids: Set((0..<layout.cardFiles).map(UInt64.init)))
        // Known now for every result; the postings and lexicon files need none of the results.
        let versions = results.versions
        results.release()
        let (postingFiles, lexiconFiles) = assembler.finished(layout: layout)
        let lexiconOut = Parallel.mapBlocking(Array(lexiconFiles.enumerated())) { number, file in
            (SearchIndex.lexiconJSON(file, number: number), encode(file))
        }
        let postingsOut = Parallel.mapBlocking(Array(postingFiles.enumerated())) { number, file in
            (SearchIndex.postingsJSON(file, number: number, layout: layout), encode(file))
        }
        let big = Parallel.mapBlocking(Array(0..<layout.bigBuckets)) { bucket in
            SearchIndex.bigJSON(bucket: bucket, postings: SearchIndex.postingFiles(ofBucket: bucket, layout).map { postingFiles[$0] }, layout: layout)
        }
        for (number, (_, bytes)) in lexiconOut.enumerated() { memo.store(lexicon, UInt64(number), version: layoutVersion, value: bytes) }
        for (number, (_, bytes)) in postingsOut.enumerated() { memo.store(postings, UInt64(number), version: layoutVersion, value: bytes) }
        memo.retain(lexicon, ids: Set((0..<layout.lexiconFiles).map(UInt64.init)))
        memo.retain(postings, ids: Set((0..<layout.postingFiles).map(UInt64.init)))
        var output = Output()
        output.files = lexiconOut.map(\.0) + postingsOut.map(\.0) + big.flatMap { $0 }
        // In the order of the layout's paths: the cards files last.
        let keys = Parallel.mapBlocking(output.files) { ($0.path, StableHash.ofContent($0.bytes)) } + cardKeys
        output.files += cards
        for (path, key) in keys { output.keys[path] = key }
        memo.store(index, 0, version: layoutVersion, value: IndexRecord(versions: versions, fileKeys: keys.map(\.1)).bytes)
        return output
    }

    // MARK: - The changed results only

    /// `nil` when something the patch needs is not in the memo.
    private static func patch(
        _ results: SearchResults, previous: IndexRecord, layout: SearchIndex.Layout, layoutVersion: UInt64,
        memo: inout MemoTable, keep: @Sendable (String, UInt64) -> Bool
    ) -> Output? {
        let versions = results.versions
        let paths = layout.paths
        guard previous.fileKeys.count == paths.count else { return nil }
        var changedCards = Set<Int>()
        var changedTerms: [Int] = []
        for (number, (now, then)) in zip(versions, previous.versions).enumerated() where now != then {
            changedCards.insert(layout.cardFile(of: number, documents: results.count))
            if now.terms != then.terms { changedTerms.append(number) }
        }
        // Past an eighth of the results (a post added and another removed in one build move all
        // those between), remaking every file from the kept terms is the cheaper way.
        guard changedTerms.count <= max(8, results.count / 8) else { return nil }
        results.prepare(numbers: changedTerms)
        // Each term whose count in a changed result moved, and what every changed result holds now.
        var affected = Set<String>()
        var now: [Int: [String: Int]] = [:]
        // The terms of the groups that hold a changed result, patched in place.
        func range(_ group: Int) -> Range<Int> { layout.results(ofCardFile: group, documents: results.count) }
        var groups: [Int: [(UInt64, SearchTerms)]] = [:]
        for number in changedTerms {
            let group = layout.cardFile(of: number, documents: results.count)
            if groups[group] == nil {
                guard let kept = memo.value(terms, UInt64(group), version: groupVersion(previous.versions[range(group)])).flatMap(decodeGroup),
                    kept.count == range(group).count
                else { return nil }
                groups[group] = kept
            }
            let place = number - range(group).lowerBound
            let old = groups[group]![place].1
            let new = SearchTerms(results.document(at: number))
            groups[group]![place] = (versions[number].terms, new)
            let (before, after) = (old.counted, new.counted)
            for (term, count) in after where before[term] != count { affected.insert(term) }
            for term in before.keys where after[term] == nil { affected.insert(term) }
            now[number] = after
        }
        for (group, found) in groups {
            memo.store(terms, UInt64(group), version: groupVersion(versions[range(group)]), value: encodeGroup(found))
        }
        // Each affected term with every changed result that holds it now: its entries lose all
        // the changed results and take these.
        let changed = Set(changedTerms)
        var newCounts: [String: [(document: Int, count: Int)]] = [:]
        for term in affected {
            newCounts[term] = changedTerms.compactMap { number in now[number]?[term].map { (number, $0) } }
        }

        var keys = previous.fileKeys
        var files: [Int: RenderedFile] = [:]
        func put(_ file: RenderedFile, at position: Int) {
            keys[position] = StableHash.ofContent(file.bytes)
            files[position] = file
        }
        // Postings, and how each word's count of results moved, for the lexicon.
        var lexiconChanges: [(word: String, before: Int, after: Int)] = []
        let byFile = Dictionary(grouping: newCounts.keys) { SearchIndex.postingsFile(of: $0, layout) }
        var patchedPostings: [Int: SearchIndex.Postings] = [:]
        for (number, fileTerms) in byFile {
            guard var file = memo.value(postings, UInt64(number), version: layoutVersion).flatMap(decodePostings) else { return nil }
            for term in fileTerms {
                let before = file[term] ?? []
                let after = SearchIndex.patched(before, changed: changed, counts: newCounts[term] ?? [])
                file[term] = after.isEmpty ? nil : after
                if !SearchIndex.isKey(term) {
                    lexiconChanges.append((term, SearchIndex.resultCount(before), SearchIndex.resultCount(after)))
                }
            }
            memo.store(postings, UInt64(number), version: layoutVersion, value: encode(file))
            patchedPostings[number] = file
            put(SearchIndex.postingsJSON(file, number: number, layout: layout), at: layout.lexiconFiles + number)
        }
        // The big files of each bucket whose postings changed, made again from its postings files;
        // only the segments whose bytes moved are written.
        let bigStart = layout.lexiconFiles + layout.postingFiles
        var madeBuckets: [Int: [RenderedFile]] = [:]
        for bucket in layout.bigBuckets == 0 ? [] : Set(byFile.keys.map { $0 % layout.bigBuckets }) {
            guard let made = bigFiles(ofBucket: bucket, layout: layout, layoutVersion: layoutVersion, memo: memo, changed: patchedPostings) else { return nil }
            madeBuckets[bucket] = made
            for (segment, file) in made.enumerated() {
                let position = bigStart + bucket * layout.segments + segment
                if StableHash.ofContent(file.bytes) != keys[position] { put(file, at: position) }
            }
        }
        guard let lexiconFiles = lexiconFiles(changing: lexiconChanges, layout: layout, layoutVersion: layoutVersion, memo: memo) else { return nil }
        for (number, file) in lexiconFiles {
            memo.store(lexicon, UInt64(number), version: layoutVersion, value: encode(file))
            put(SearchIndex.lexiconJSON(file, number: number), at: number)
        }
        for number in changedCards { put(cardsFile(number, of: results, layout: layout), at: bigStart + layout.bigFiles + number) }
        return finished(
            results, files: files, keys: keys, previous: previous, layout: layout, layoutVersion: layoutVersion, madeBuckets: madeBuckets,
            memo: &memo, keep: keep)
    }

    /// The lexicon files a patch changes, from how many results each word was in and is in now:
    /// a word's magnitude in its own file; a word new to the site or gone from it, in the files
    /// of its near keys. `nil` when a file is not in the memo.
    static func lexiconFiles(
        changing changes: [(word: String, before: Int, after: Int)], layout: SearchIndex.Layout, layoutVersion: UInt64, memo: MemoTable
    ) -> [Int: SearchIndex.Lexicon]? {
        var files: [Int: SearchIndex.Lexicon] = [:]
        func withLexicon(_ number: Int, _ change: (inout SearchIndex.Lexicon) -> Void) -> Bool {
            guard var file = files[number] ?? memo.value(lexicon, UInt64(number), version: layoutVersion).flatMap(decodeLexicon) else {
                return false
            }
            change(&file)
            files[number] = file
            return true
        }
        for (word, before, after) in changes {
            let magnitude = after == 0 ? nil : SearchIndex.magnitude(ofResults: after)
            if before > 0 && magnitude == SearchIndex.magnitude(ofResults: before) { continue }
            guard withLexicon(SearchIndex.lexiconFile(of: word, layout), { $0.words[word] = magnitude }) else { return nil }
            guard (before == 0) != (after == 0) else { continue }
            for key in SearchIndex.nearKeys(of: word) {
                let done = withLexicon(SearchIndex.lexiconFile(of: key, layout)) { file in
                    var found = file.near[key] ?? []
                    if after == 0 { found.removeAll { $0 == word } } else { found.append(word) }
                    file.near[key] = found.isEmpty ? nil : found
                }
                guard done else { return nil }
            }
        }
        return files
    }

    /// The output of a patch, from the files it made (`files`, by place in the layout's paths)
    /// and every file's key: the files nothing touched are kept when the output still holds
    /// them, else made again from the memo; the index record is stored when it changed.
    /// - Parameter emitted: the places in `layout.paths` of the files already handed to `emit`.
    static func finished(
        _ results: SearchResults, files: [Int: RenderedFile], keys: [UInt64], previous: IndexRecord, layout: SearchIndex.Layout,
        layoutVersion: UInt64, madeBuckets: [Int: [RenderedFile]], memo: inout MemoTable, keep: @Sendable (String, UInt64) -> Bool,
        emitted: Set<Int> = []
    ) -> Output? {
        let paths = layout.paths
        let bigStart = layout.lexiconFiles + layout.postingFiles
        let cardStart = bigStart + layout.bigFiles
        var (files, keys, madeBuckets) = (files, keys, madeBuckets)
        var output = Output()
        output.patched = true
        for (position, path) in paths.enumerated() where files[position] == nil && !emitted.contains(position) {
            if keep(path, keys[position]) {
                output.reused.append(path)
                continue
            }
            let file: RenderedFile
            if position < layout.lexiconFiles {
                guard let state = memo.value(lexicon, UInt64(position), version: layoutVersion).flatMap(decodeLexicon) else { return nil }
                file = SearchIndex.lexiconJSON(state, number: position)
            } else if position < bigStart {
                let number = position - layout.lexiconFiles
                guard let state = memo.value(postings, UInt64(number), version: layoutVersion).flatMap(decodePostings) else { return nil }
                file = SearchIndex.postingsJSON(state, number: number, layout: layout)
            } else if position < cardStart {
                let bucket = (position - bigStart) / layout.segments
                if madeBuckets[bucket] == nil { madeBuckets[bucket] = bigFiles(ofBucket: bucket, layout: layout, layoutVersion: layoutVersion, memo: memo) }
                guard let made = madeBuckets[bucket] else { return nil }
                file = made[(position - bigStart) % layout.segments]
            } else {
                file = cardsFile(position - cardStart, of: results, layout: layout)
            }
            keys[position] = StableHash.ofContent(file.bytes)
            files[position] = file
        }
        // In the layout's order, as when every file is remade.
        output.files = files.sorted { $0.key < $1.key }.map(\.value)
        for (path, key) in zip(paths, keys) { output.keys[path] = key }
        let versions = results.versions
        if versions != previous.versions || keys != previous.fileKeys {
            memo.store(index, 0, version: layoutVersion, value: IndexRecord(versions: versions, fileKeys: keys).bytes)
        }
        return output
    }

    /// Cards file `number`, made of its results.
    static func cardsFile(_ number: Int, of results: SearchResults, layout: SearchIndex.Layout) -> RenderedFile {
        SearchIndex.cardsJSON(cards: results.documents(layout.results(ofCardFile: number, documents: results.count)), number: number)
    }

    /// The big files of a bucket, made again from its postings files in the memo (`changed`:
    /// those a patch holds in hand); `nil` when one is not in the memo.
    static func bigFiles(
        ofBucket bucket: Int, layout: SearchIndex.Layout, layoutVersion: UInt64, memo: MemoTable, changed: [Int: SearchIndex.Postings] = [:]
    ) -> [RenderedFile]? {
        var states: [SearchIndex.Postings] = []
        for number in SearchIndex.postingFiles(ofBucket: bucket, layout) {
            guard let state = changed[number] ?? memo.value(postings, UInt64(number), version: layoutVersion).flatMap(decodePostings) else { return nil }
            states.append(state)
        }
        return SearchIndex.bigJSON(bucket: bucket, postings: states, layout: layout)
    }
}
