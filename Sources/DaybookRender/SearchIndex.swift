import DaybookFeed
import DaybookModel
import DaybookParallel
import Foundation

/// The files under `search/` that the search page reads (CONTRACT §10), made from the site's
/// content by the build, not from its HTML.
///
/// A query fetches only what it needs, in at most three rounds:
/// 1. `search/l/<n>.json`, the lexicon: each word with the order of magnitude of how many
///    results hold it (⌊log₂⌋, which an edit seldom moves), filed by its first two characters, so
///    that every word a prefix begins is in one file; and, for words of
///    five letters or more, the word with its first or its second letter left out, so that a
///    word one edit away is found from at most four files (the other edits keep the first two
///    letters, and the word's own file finds them).
/// 2. `search/p/<n>.json`, the postings: for each word, the results that hold it (each as its
///    distance from the one before, then, when the word is there more than once, the count,
///    negated); and the filter keys (`#tag`, `@user`, `~place`) with their results. Filed
///    by a hash of the word. Nothing in a word's entry depends on the rest of its result (no
///    positions, no lengths), so an edit rewrites only the entries of the words it adds or
///    drops: a phrase, and a run of Chinese, Japanese or Korean characters, is checked on the
///    cards of the results that hold all its words.
///    A big word (`Layout.bigResults`) keeps only its count and best results here; its whole list
///    is in `search/b/<n>.json`, fetched only by a query that needs more of it.
/// 3. `search/d/<n>.json`, the cards (`SearchDocument`): kind, slug, title, text, day or count,
///    and thumbnail of a run of results, fetched only for the results shown.
///
/// How many files of each kind there are follows from the site's page and result counts alone
/// (`Layout`), in powers of two, so that an edit rarely moves a word to another file: a caption
/// edit rewrites the postings files of the words it adds and drops, its card's file, and the
/// lexicon files of a word new to the site or gone from it.
package enum SearchIndex {
    package static let folder = "search/"

    /// How many files of each kind, from the budget of one file under `search/` per 50 pages
    /// (and 20): a twentieth for the lexicon, a fifth for postings, a twelfth for the lists of
    /// big words, the rest for cards. A first one-word query fetches one postings file and the
    /// cards of the results it shows (and, for a word of five letters or more, the lexicon files
    /// of its near words).
    package struct Layout: Sendable, Hashable {
        package var lexiconFiles: Int
        package var postingFiles: Int
        package var cardsPerFile: Int
        /// Journal entries come last, and their cards are about twice a post's or a comment's
        /// (a prompt's title, and its body and responses cut to the same length): their files
        /// hold half as many, so that no card file is much larger than another. (On `large` the
        /// entries' files were 66 KB to the others' 38 KB, and a common word's first four results,
        /// the newest, were all entries: 264 KB of cards alone.)
        package var entries: Int
        package var entryCardsPerFile: Int
        package var cardFiles: Int
        /// A word or key in more results than this is big: its postings file holds only its best
        /// `headResults` and its count, and its whole list is in the big files. A common word's
        /// list (`to` is in 172,868 of 621,442 results on `large`, 465 KB) would otherwise be
        /// fetched whole by a one-word query, over CONTRACT §10's 256 KiB. A power of two of the
        /// results, so that it seldom moves.
        package var bigResults: Int
        /// How many of a big word's best results its postings file holds: the first pages of a
        /// one-word query, so that only a query that reads further (or several words, or
        /// filters) fetches the whole list.
        package var headResults = 32
        /// Big files are filed by a hash of the word (`bigBuckets`, a power of two no larger than
        /// `postingFiles`, so a bucket's words are those of the postings files it divides) and by
        /// runs of `segmentWidth` results (`segments`), so that no file outgrows 512 KiB however
        /// large the site, and an edit rewrites one segment of each big word it touches.
        package var bigBuckets: Int
        /// How many people, hashtags and places lead the results: a big word's best results
        /// start with them, as `search.js` ranks them first.
        package var groupResults = 0
        package var segmentWidth = 65_536
        package var segments: Int

        package init(pages: Int, documents: Int, entries: Int = 0) {
            let budget = Double(pages / 50 + 20)
            lexiconFiles = Self.powerOfTwo(atMost: budget * 0.05)
            postingFiles = Self.powerOfTwo(atMost: budget * 0.2)
            segments = Self.segments(documents: documents, width: segmentWidth)
            bigResults = max(headResults, Self.powerOfTwo(atMost: Double(documents / 512)))
            // A site of fewer results than a big word needs has no big files.
            bigBuckets = documents > bigResults ? min(postingFiles, Self.powerOfTwo(atMost: budget / 12 / Double(segments))) : 0
            let rest = max(1, Int(budget) - lexiconFiles - postingFiles - bigBuckets * segments)
            // A multiple of 32: the cards of a new post move to another file only when the site
            // grows past a step.
            cardsPerFile = max(32, Int((Double(documents + min(entries, documents)) / Double(rest) / 32).rounded(.up)) * 32)
            // Entries apart only when the results need more than one file.
            let entries = documents > cardsPerFile ? min(entries, documents) : 0
            self.entries = entries
            entryCardsPerFile = cardsPerFile / 2
            cardFiles = 0
            cardFiles = max(1, postCardFiles(documents: documents) + (entries + entryCardsPerFile - 1) / entryCardsPerFile)
        }

        /// How many card files hold results before the entries.
        func postCardFiles(documents: Int) -> Int { (documents - entries + cardsPerFile - 1) / cardsPerFile }

        /// The card file of result `number`, of `documents` in all.
        package func cardFile(of number: Int, documents: Int) -> Int {
            let entryStart = documents - entries
            if number < entryStart { return number / cardsPerFile }
            return postCardFiles(documents: documents) + (number - entryStart) / entryCardsPerFile
        }

        /// Big words split at `results`, in segments of `width` (tests make small sites split).
        package mutating func splitting(above results: Int, head: Int, width: Int, documents: Int) {
            bigResults = results
            headResults = head
            segmentWidth = width
            segments = Self.segments(documents: documents, width: width)
            bigBuckets = max(1, bigBuckets)
        }

        /// How many runs of `width` results `documents` results make (one at least).
        static func segments(documents: Int, width: Int) -> Int { max(1, (documents + width - 1) / width) }

        static func powerOfTwo(atMost value: Double) -> Int {
            var power = 1
            while Double(power * 2) <= value { power *= 2 }
            return power
        }

        /// The site's layout: its pages, and the results of its search units (`PageBuilder.searchUnits()`).
        package init(pages: Int, feeds: SiteFeeds) { self.init(pages: pages, feeds: feeds, documents: SearchIndex.documentCount(feeds)) }

        /// The same, with the results already counted (`documentCount`, a walk of every comment list).
        init(pages: Int, feeds: SiteFeeds, documents: Int) {
            self.init(pages: pages, documents: documents, entries: SearchIndex.entryCount(feeds))
            groupResults = feeds.indexes.users.count + feeds.indexes.tags.count + feeds.indexes.locations.count
        }

        package var bigFiles: Int { bigBuckets * segments }

        package var paths: [String] {
            (0..<lexiconFiles).map { SearchIndex.path("l", $0) } + (0..<postingFiles).map { SearchIndex.path("p", $0) }
                + (0..<bigFiles).map { SearchIndex.path("b", $0) } + (0..<cardFiles).map { SearchIndex.path("d", $0) }
        }

        /// The numbers of the results cards file `number` holds, of `documents` in all (the
        /// last file may hold fewer).
        package func results(ofCardFile number: Int, documents: Int) -> Range<Int> {
            let (entryStart, postFiles) = (documents - entries, postCardFiles(documents: documents))
            if number < postFiles { return number * cardsPerFile..<min(entryStart, (number + 1) * cardsPerFile) }
            let first = entryStart + (number - postFiles) * entryCardsPerFile
            return min(documents, first)..<min(documents, first + entryCardsPerFile)
        }
    }

    /// How many results the search units make, without making them: the layout is needed
    /// to list the output paths before anything renders.
    static func documentCount(_ feeds: SiteFeeds) -> Int {
        // Without a viewer, the timeline is every shown post, whose comments are all the feeds
        // hold: counted without looking 20,000 posts up one by one (asked twice a build).
        let comments =
            feeds.timeline.count == feeds.posts.count
            ? feeds.comments.values.reduce(0) { $0 + $1.count } : feeds.timeline.reduce(0) { $0 + (feeds.comments[$1.id]?.count ?? 0) }
        return feeds.indexes.users.count + feeds.indexes.tags.count + feeds.indexes.locations.count + bioCount(feeds) + feeds.timeline.count
            + comments + entryCount(feeds)
    }

    /// The journal entries with a prompt: each is a result, after all the others.
    static func entryCount(_ feeds: SiteFeeds) -> Int { feeds.journal.count { $0.prompt != nil } }

    /// The people who have a bio: each is a second result (`SearchUnit.bio`).
    static func bioCount(_ feeds: SiteFeeds) -> Int { feeds.indexes.users.count { !(feeds.usersByID[$0.id]?.bio ?? "").isEmpty } }

    /// What the search page hands `search.js`, worked out from the feeds alone, without the
    /// index: the search page renders with the other pages, while the index is made beside them.
    struct Summary: Sendable {
        let layout: Layout
        let documentCount: Int
        /// How many people, hashtags and places lead the results (their ids come first).
        let groupCounts: (people: Int, tags: Int, places: Int)
        /// Each year's posts and their comments: a run of ids, first and last. Posts come oldest
        /// first, each followed by its comments, after the people, hashtags, places and bios.
        let years: [(year: Int, first: Int, last: Int)]

        init(feeds: SiteFeeds, pages: Int) {
            documentCount = SearchIndex.documentCount(feeds)
            layout = Layout(pages: pages, feeds: feeds, documents: documentCount)
            let indexes = feeds.indexes
            groupCounts = (indexes.users.count, indexes.tags.count, indexes.locations.count)
            var years: [(year: Int, first: Int, last: Int)] = []
            var number = indexes.users.count + indexes.tags.count + indexes.locations.count + SearchIndex.bioCount(feeds)
            for post in feeds.timeline.reversed() {
                let year = post.createdAt.day(in: feeds.moment.timeZone).year
                let last = number + (feeds.comments[post.id]?.count ?? 0)
                if years.last?.year == year { years[years.count - 1].last = last } else { years.append((year, number, last)) }
                number = last + 1
            }
            self.years = years
        }

        var configuration: String {
            let runs = years.map { #""\#($0.year)":[\#($0.first),\#($0.last)]"# }.joined(separator: ",")
            return
                #"{"lexicon":\#(layout.lexiconFiles),"postings":\#(layout.postingFiles),"cardsPerFile":\#(layout.cardsPerFile),"entries":\#(layout.entries),"entryCardsPerFile":\#(layout.entryCardsPerFile),"big":\#(layout.bigBuckets),"segments":\#(layout.segments),"segmentWidth":\#(layout.segmentWidth),"results":\#(documentCount),"people":\#(groupCounts.people),"tags":\#(groupCounts.tags),"places":\#(groupCounts.places),"years":{\#(runs)}}"#
        }
    }

    /// One postings file: each word and key with its results, by number, each followed, when
    /// the word is there more than once, by the count, negated. Absolute numbers here; the file
    /// holds each as its distance from the one before (`postingsJSON`).
    package typealias Postings = [String: [Int]]

    /// One lexicon file: each word's order of magnitude of results, and the near keys filed here.
    package struct Lexicon: Sendable, Equatable {
        package var words: [String: Int] = [:]
        package var near: [String: [String]] = [:]
        package init(words: [String: Int] = [:], near: [String: [String]] = [:]) {
            self.words = words
            self.near = near
        }
    }

    /// The postings file a word or key is filed in.
    package static func postingsFile(of term: String, _ layout: Layout) -> Int { Int(SearchText.hash(term) % UInt32(layout.postingFiles)) }

    /// The lexicon file a word (or a near key) is filed in: by its first two characters.
    package static func lexiconFile(of text: String, _ layout: Layout) -> Int {
        Int(SearchText.hash(SearchText.group(text)) % UInt32(layout.lexiconFiles))
    }

    /// The keys a word of five letters or more is found by with one letter wrong: the word with
    /// its first or its second letter left out.
    package static func nearKeys(of word: String) -> [String] {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= 5 else { return [] }
        let keys = (0..<2).map { dropped in
            var key = String.UnicodeScalarView()
            for (offset, scalar) in scalars.enumerated() where offset != dropped { key.append(scalar) }
            return String(key)
        }
        // A word whose first two letters are the same has one key ("aalto": "alto").
        return keys[0] == keys[1] ? [keys[0]] : keys
    }

    /// A word's entry in the lexicon: ⌊log₂⌋ of how many results hold it (which an edit seldom moves).
    package static func magnitude(ofResults count: Int) -> Int { Int.bitWidth - 1 - count.leadingZeroBitCount }

    /// How many results an entry list names.
    package static func resultCount(_ entries: [Int]) -> Int { entries.count { $0 >= 0 } }

    /// The postings and lexicon of the results whose terms are `terms`, in result order.
    package static func assemble(_ terms: [SearchTerms], layout: Layout) -> (postings: [Postings], lexicon: [Lexicon]) {
        var assembler = Assembler()
        for (document, result) in terms.enumerated() { assembler.add(result, document: document) }
        return assembler.finished(layout: layout)
    }

    /// The postings and lexicon, made result by result in result order, so that a build need not
    /// hold every result's terms at once: on `large` (154,000 pages) they were 360 MB of its
    /// peak memory.
    package struct Assembler: Sendable {
        // Each term is numbered the first time it is met, and its entries grow in an array of
        // arrays: one dictionary look-up a term of each result.
        private var numbers: [String: Int] = [:]
        private var entries: [[Int]] = []

        package init() {}

        private mutating func number(of term: String) -> Int {
            if let known = numbers[term] { return known }
            numbers[term] = entries.count
            entries.append([])
            return entries.count - 1
        }

        /// Adds result `document`'s terms; results come in order.
        package mutating func add(_ result: SearchTerms, document: Int) {
            for (word, count) in zip(result.words, result.counts) {
                let index = number(of: word)
                entries[index].append(document)
                if count > 1 { entries[index].append(-count) }
            }
            for key in result.keys { entries[number(of: key)].append(document) }
        }

        package func finished(layout: Layout) -> (postings: [Postings], lexicon: [Lexicon]) {
            var postings = [Postings](repeating: [:], count: layout.postingFiles)
            var lexicon = [Lexicon](repeating: Lexicon(), count: layout.lexiconFiles)
            for (term, index) in numbers {
                postings[postingsFile(of: term, layout)][term] = entries[index]
                guard !isKey(term) else { continue }
                lexicon[lexiconFile(of: term, layout)].words[term] = magnitude(ofResults: resultCount(entries[index]))
                for key in nearKeys(of: term) { lexicon[lexiconFile(of: key, layout)].near[key, default: []].append(term) }
            }
            return (postings, lexicon)
        }
    }

    /// An entry list as its results, each with how often it holds the term (`room`: more to come).
    static func results(_ entries: [Int], room: Int = 0) -> [(document: Int, count: Int)] {
        var results: [(document: Int, count: Int)] = []
        results.reserveCapacity(entries.count + room)
        for value in entries {
            if value >= 0 {
                results.append((value, 1))
            } else if !results.isEmpty {
                results[results.count - 1].count = -value
            }
        }
        return results
    }

    /// One term's entries with the results `changed` names replaced by what they hold now: those
    /// results' old entries go, and each that holds the term now (`counts`) comes in at its place.
    package static func patched(_ entries: [Int], changed: Set<Int>, counts: [(document: Int, count: Int)]) -> [Int] {
        var results = Self.results(entries, room: counts.count)
        results.removeAll { changed.contains($0.document) }
        results += counts
        results.sort { $0.document < $1.document }
        var patched: [Int] = []
        patched.reserveCapacity(results.count)
        for (document, count) in results {
            patched.append(document)
            if count > 1 { patched.append(-count) }
        }
        return patched
    }

    static func path(_ kind: String, _ number: Int) -> String { "\(folder)\(kind)/\(number).json" }

    /// `search/l/<n>.json`.
    package static func lexiconJSON(_ file: Lexicon, number: Int) -> RenderedFile {
        var json = JSONText()
        json.open("{")
        json.key("words")
        json.open("{")
        for (word, count) in file.words.sorted(by: { $0.key < $1.key }) {
            json.key(word)
            json.number(count)
        }
        json.close("}")
        json.key("near")
        json.open("{")
        for (key, found) in file.near.sorted(by: { $0.key < $1.key }) {
            json.key(key)
            json.open("[")
            for word in found.sorted() { json.string(word) }
            json.close("]")
        }
        json.close("}")
        json.close("}")
        return RenderedFile(path: path("l", number), bytes: json.bytes)
    }

    /// `search/p/<n>.json`: each result as its distance from the one before; a big word as its
    /// count of results (`n`) and its best results (`top`: by how often they hold it, then newest
    /// first, as BM25 ranks them for a one-word query), each number whole.
    package static func postingsJSON(_ file: Postings, number: Int, layout: Layout) -> RenderedFile {
        var json = JSONText()
        json.open("{")
        for (word, entries) in file.sorted(by: { $0.key < $1.key }) {
            json.key(word)
            let results = resultCount(entries)
            if results > layout.bigResults {
                json.open("{")
                json.key("n")
                json.number(results)
                json.key("top")
                json.open("[")
                for (document, count) in best(entries, layout.headResults, group: layout.groupResults) {
                    json.number(document)
                    if count > 1 { json.number(-count) }
                }
                json.close("]")
                json.close("}")
            } else {
                entriesJSON(entries[...], into: &json)
            }
        }
        json.close("}")
        return RenderedFile(path: path("p", number), bytes: json.bytes)
    }

    /// An entry list as a JSON array: each result as its distance from the one before (the
    /// first from 0), each count as it is.
    static func entriesJSON(_ entries: ArraySlice<Int>, into json: inout JSONText) {
        json.open("[")
        var last = 0
        for value in entries {
            if value >= 0 {
                json.number(value - last)
                last = value
            } else {
                json.number(value)
            }
        }
        json.close("]")
    }

    /// The `limit` results of an entry list a one-word query ranks first: people, hashtags and
    /// places (numbers below `group`), then the most occurrences, then the newest (the highest number).
    static func best(_ entries: [Int], _ limit: Int, group: Int) -> [(document: Int, count: Int)] {
        var results = Self.results(entries)
        results.sort {
            let (leads, other) = ($0.document < group, $1.document < group)
            if leads != other { return leads }
            return $0.count != $1.count ? $0.count > $1.count : $0.document > $1.document
        }
        return Array(results.prefix(limit))
    }

    /// The big files of one bucket, `search/b/<bucket × segments + segment>.json`, from the
    /// postings files whose number the bucket divides (`postings`, any order): each big word with
    /// its results of the segment, as the postings files write a small word's.
    package static func bigJSON(bucket: Int, postings: [Postings], layout: Layout) -> [RenderedFile] {
        var pieces = [[(word: String, entries: ArraySlice<Int>)]](repeating: [], count: layout.segments)
        for file in postings {
            for (word, entries) in file where resultCount(entries) > layout.bigResults {
                // Each segment's run of the list: it starts at the first result of the segment.
                var start = 0
                var segment = 0
                func close(at end: Int) {
                    if end > start { pieces[segment].append((word, entries[start..<end])) }
                    start = end
                }
                for (position, value) in entries.enumerated() where value >= 0 && value / layout.segmentWidth != segment {
                    close(at: position)
                    segment = value / layout.segmentWidth
                }
                close(at: entries.count)
            }
        }
        return pieces.enumerated().map { segment, words in
            var json = JSONText()
            json.open("{")
            for (word, entries) in words.sorted(by: { $0.word < $1.word }) {
                json.key(word)
                entriesJSON(entries, into: &json)
            }
            json.close("}")
            return RenderedFile(path: path("b", bucket * layout.segments + segment), bytes: json.bytes)
        }
    }

    /// `search/d/<n>.json`: the cards of the results it holds.
    package static func cardsJSON(_ documents: [SearchDocument], number: Int, layout: Layout) -> RenderedFile {
        cardsJSON(cards: documents[layout.results(ofCardFile: number, documents: documents.count)], number: number)
    }

    /// Cards file `number`, of the results it holds.
    package static func cardsJSON(cards: some Sequence<SearchDocument>, number: Int) -> RenderedFile {
        var json = JSONText()
        json.open("[")
        for document in cards { card(document, into: &json) }
        json.close("]")
        return RenderedFile(path: path("d", number), bytes: json.bytes)
    }

    /// One result's card, as it stands in its cards file. A cards file is its cards joined by
    /// commas in brackets, so a build that renumbers the results (a post added or gone) moves
    /// the kept cards to their new files (`cardsJSON(fragments:number:)`) without making their
    /// results again.
    package static func cardJSON(_ document: SearchDocument) -> [UInt8] {
        var json = JSONText()
        card(document, into: &json)
        return json.bytes
    }

    private static func card(_ document: SearchDocument, into json: inout JSONText) {
        json.open("[")
        json.string(document.kind.rawValue)
        json.string(document.slug)
        json.string(document.title)
        json.string(Self.cardText(document.text))
        json.number(document.number)
        json.string(document.thumbnail)
        // An item in its own language (§11): its tag, its direction where it is not the
        // site's, and whether the title is its text too. Left out for the site's language.
        if !document.lang.isEmpty {
            json.string(document.lang)
            json.string(document.dir)
            json.number(document.titleInLanguage ? 1 : 0)
        }
        json.close("]")
    }

    /// Cards file `number`, of its cards as `cardJSON` writes them: the bytes `cardsJSON(cards:number:)` makes.
    package static func cardsJSON(fragments: [ArraySlice<UInt8>], number: Int) -> RenderedFile {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fragments.reduce(2) { $0 + $1.count + 1 })
        bytes.append(UInt8(ascii: "["))
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += fragment
        }
        bytes.append(UInt8(ascii: "]"))
        return RenderedFile(path: path("d", number), bytes: bytes)
    }

    /// Where each card of a cards file's bytes is, as `cardJSON` wrote it: `nil` when the bytes
    /// are not an array of arrays. Only ever given a file whose bytes hash to the key the last
    /// build recorded for it, so a file edited in the output is never split.
    package static func cardFragments(of bytes: [UInt8]) -> [Range<Int>]? {
        let (open, close, quote, backslash) = (UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "\\"))
        guard bytes.first == open, bytes.last == close else { return nil }
        var cards: [Range<Int>] = []
        var (depth, start, inString, escaped) = (0, 0, false, false)
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == quote {
                    inString = false
                }
                continue
            }
            if byte == quote {
                inString = true
            } else if byte == open {
                depth += 1
                if depth == 2 { start = offset }
            } else if byte == close {
                if depth == 2 { cards.append(start..<(offset + 1)) }
                depth -= 1
                if depth < 0 { return nil }
            }
        }
        return depth == 0 && !inString ? cards : nil
    }

    /// Every file of the index of `documents`, in the order of `layout.paths`, made from nothing
    /// kept: what the incremental layer's files are held to.
    package static func files(_ documents: [SearchDocument], layout: Layout) -> [RenderedFile] {
        let terms = Parallel.mapBlocking(documents) { SearchTerms($0) }
        let (postings, lexicon) = assemble(terms, layout: layout)
        return Parallel.mapBlocking(Array(lexicon.enumerated())) { lexiconJSON($1, number: $0) }
            + Parallel.mapBlocking(Array(postings.enumerated())) { postingsJSON($1, number: $0, layout: layout) }
            + Parallel.mapBlocking(Array(0..<layout.bigBuckets)) { bigJSON(bucket: $0, postings: postingFiles(ofBucket: $0, layout).map { postings[$0] }, layout: layout) }
                .flatMap { $0 }
            + Parallel.mapBlocking(Array(0..<layout.cardFiles)) { cardsJSON(documents, number: $0, layout: layout) }
    }

    /// The numbers of the postings files whose words may fall in big bucket `number`: those it
    /// divides (`bigBuckets` divides `postingFiles`, both powers of two).
    package static func postingFiles(ofBucket number: Int, _ layout: Layout) -> StrideTo<Int> {
        stride(from: number, to: layout.postingFiles, by: layout.bigBuckets)
    }

    /// Filter keys start with a character no word starts with.
    package static func isKey(_ word: String) -> Bool { word.first.map { "#@~&".contains($0) } ?? false }

    /// A card's text: whole up to `maxTextCharacters`, else cut at a space before it, with `…`.
    static func cardText(_ text: String) -> String {
        if text.utf8.count <= SearchDocument.maxTextCharacters && !text.utf8.contains(where: { $0 == 10 || $0 == 13 }) { return text }
        // Only the first characters are looked at: counting a long text's characters was slow.
        let head = text.prefix(SearchDocument.maxTextCharacters + 1).map { $0.isNewline ? " " : $0 }
        guard head.count > SearchDocument.maxTextCharacters else { return String(head) }
        let cut = head.prefix(SearchDocument.maxTextCharacters)
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]) + "…"
    }
}

/// JSON written straight to bytes, compact and in the order given: the index files are tens of
/// megabytes on a large site, and `JSONEncoder` would sort and escape through `Any`.
struct JSONText {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Opens an object (`{`) or an array (`[`).
    mutating func open(_ bracket: Character) {
        separate()
        bytes.append(bracket.asciiValue ?? 0)
        needsComma = false
    }

    /// Closes what `open` opened (`}` or `]`).
    mutating func close(_ bracket: Character) {
        bytes.append(bracket.asciiValue ?? 0)
        needsComma = true
    }

    mutating func key(_ text: String) {
        string(text)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func number(_ value: Int) {
        separate()
        // Digits straight into the bytes: the postings of a large site are millions of numbers.
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
        needsComma = true
    }

    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): bytes += Array(#"\\"#.utf8)
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                bytes += Array("\\u00\(hex.count == 1 ? "0" : "")\(hex)".utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
