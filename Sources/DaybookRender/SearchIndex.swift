import DaybookFeed
import DaybookModel
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
/// 2. `search/p/<n>.json`, the postings: for each word, the results that hold it and how many
///    times; and the filter keys (`#tag`, `@user`, `~place`, `^year`) with their results. Filed
///    by a hash of the word. Nothing in a word's entry depends on the rest of its result (no
///    positions, no lengths), so an edit rewrites only the entries of the words it adds or
///    drops: a phrase, and a run of Chinese, Japanese or Korean characters, is checked on the
///    cards of the results that hold all its words.
/// 3. `search/d/<n>.json`, the cards: kind, link, title, text, date and thumbnail of a run of
///    results, fetched only for the results shown.
///
/// How many files of each kind there are follows from the site's page and result counts alone
/// (`Layout`), in powers of two, so that an edit rarely moves a word to another file: a caption
/// edit rewrites the postings files of the words it adds and drops, its card's file, and the
/// lexicon files of a word new to the site or gone from it.
struct SearchIndex: Sendable {
    static let folder = "search/"

    /// How many files of each kind, from the budget of one file under `search/` per 50 pages
    /// (and 20): seven tenths for cards, a fifth for postings, a twentieth for the lexicon. A first
    /// one-word query fetches one postings file and the cards of the five results it shows.
    struct Layout: Sendable, Hashable {
        var lexiconFiles: Int
        var postingFiles: Int
        var cardsPerFile: Int
        var cardFiles: Int

        init(pages: Int, documents: Int) {
            let budget = Double(pages / 50 + 20)
            lexiconFiles = Self.powerOfTwo(atMost: budget * 0.05)
            postingFiles = Self.powerOfTwo(atMost: budget * 0.2)
            // A multiple of 32: the cards of a new post move to another file only when the site
            // grows past a step.
            cardsPerFile = max(32, Int((Double(documents) / (budget * 0.7) / 32).rounded(.up)) * 32)
            cardFiles = max(1, (documents + cardsPerFile - 1) / cardsPerFile)
        }

        static func powerOfTwo(atMost value: Double) -> Int {
            var power = 1
            while Double(power * 2) <= value { power *= 2 }
            return power
        }

        var paths: [String] {
            (0..<lexiconFiles).map { "\(SearchIndex.folder)l/\($0).json" } + (0..<postingFiles).map { "\(SearchIndex.folder)p/\($0).json" }
                + (0..<cardFiles).map { "\(SearchIndex.folder)d/\($0).json" }
        }
    }

    /// How many results `searchDocuments()` makes, without making them: the layout is needed
    /// to list the output paths before anything renders.
    static func documentCount(_ feeds: SiteFeeds) -> Int {
        feeds.indexes.users.count + feeds.indexes.tags.count + feeds.indexes.locations.count + feeds.timeline.count
            + feeds.timeline.reduce(0) { $0 + (feeds.comments[$1.id]?.count ?? 0) } + feeds.journal.count { $0.prompt != nil }
    }

    let layout: Layout
    /// The files, in the order of `layout.paths`.
    let files: [RenderedFile]
    let documentCount: Int
    /// How many people, hashtags and places lead the results (their ids come first).
    let groupCounts: (people: Int, tags: Int, places: Int)

    /// What the search page hands `search.js`: the layout and the numbers ranking needs.
    var configuration: String {
        #"{"lexicon":\#(layout.lexiconFiles),"postings":\#(layout.postingFiles),"cardsPerFile":\#(layout.cardsPerFile),"results":\#(documentCount),"people":\#(groupCounts.people),"tags":\#(groupCounts.tags),"places":\#(groupCounts.places)}"#
    }

    init(documents: [SearchDocument], pages: Int) {
        let layout = Layout(pages: pages, documents: documents.count)
        self.layout = layout
        documentCount = documents.count
        groupCounts = (documents.count { $0.kind == .user }, documents.count { $0.kind == .tag }, documents.count { $0.kind == .place })
        var postings: [String: [Int]] = [:]
        var lastDocument: [String: Int] = [:]
        for (number, document) in documents.enumerated() {
            var counts: [String: Int] = [:]
            for word in document.words { counts[word, default: 0] += 1 }
            for (word, count) in counts.sorted(by: { $0.key < $1.key }) {
                postings[word, default: []] += [number - (lastDocument[word] ?? 0), count]
                lastDocument[word] = number
            }
            for key in Set(document.keys).sorted() {
                postings[key, default: []].append(number - (lastDocument[key] ?? 0))
                lastDocument[key] = number
            }
        }

        // The lexicon: each word's count of results, and the near keys of the longer ones.
        var lexicon = [[String: Int]](repeating: [:], count: layout.lexiconFiles)
        var near = [[String: [String]]](repeating: [:], count: layout.lexiconFiles)
        func lexiconFile(_ text: String) -> Int { Int(SearchText.hash(SearchText.group(text)) % UInt32(layout.lexiconFiles)) }
        for word in postings.keys where !Self.isKey(word) {
            let results = (postings[word]?.count ?? 0) / 2
            lexicon[lexiconFile(word)][word] = Int.bitWidth - 1 - results.leadingZeroBitCount
            let scalars = Array(word.unicodeScalars)
            guard scalars.count >= 5 else { continue }
            for dropped in 0..<2 {
                var key = String.UnicodeScalarView()
                for (offset, scalar) in scalars.enumerated() where offset != dropped { key.append(scalar) }
                let text = String(key)
                near[lexiconFile(text)][text, default: []].append(word)
            }
        }
        var postingFiles = [[String: [Int]]](repeating: [:], count: layout.postingFiles)
        for (word, entries) in postings { postingFiles[Int(SearchText.hash(word) % UInt32(layout.postingFiles))][word] = entries }

        var files: [RenderedFile] = []
        for (number, (words, keys)) in zip(lexicon, near).enumerated() {
            var json = JSONText()
            json.open("{")
            json.key("words")
            json.open("{")
            for (word, count) in words.sorted(by: { $0.key < $1.key }) {
                json.key(word)
                json.number(count)
            }
            json.close("}")
            json.key("near")
            json.open("{")
            for (key, found) in keys.sorted(by: { $0.key < $1.key }) {
                json.key(key)
                json.open("[")
                for word in found.sorted() { json.string(word) }
                json.close("]")
            }
            json.close("}")
            json.close("}")
            files.append(RenderedFile(path: "\(Self.folder)l/\(number).json", bytes: json.bytes))
        }
        for (number, words) in postingFiles.enumerated() {
            var json = JSONText()
            json.open("{")
            for (word, entries) in words.sorted(by: { $0.key < $1.key }) {
                json.key(word)
                json.open("[")
                for value in entries { json.number(value) }
                json.close("]")
            }
            json.close("}")
            files.append(RenderedFile(path: "\(Self.folder)p/\(number).json", bytes: json.bytes))
        }
        for number in 0..<layout.cardFiles {
            var json = JSONText()
            json.open("[")
            for document in documents[(number * layout.cardsPerFile)..<min(documents.count, (number + 1) * layout.cardsPerFile)] {
                json.open("[")
                for field in [document.kind.rawValue, document.url, document.title, Self.cardText(document.text), document.dateLabel, document.thumbnail ?? ""] {
                    json.string(field)
                }
                json.close("]")
            }
            json.close("]")
            files.append(RenderedFile(path: "\(Self.folder)d/\(number).json", bytes: json.bytes))
        }
        self.files = files
    }

    /// Filter keys start with a character no word starts with.
    static func isKey(_ word: String) -> Bool { word.first.map { "#@~^&".contains($0) } ?? false }

    /// A card's text: whole up to `maxTextCharacters`, else cut at a space before it, with `…`.
    static func cardText(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flat.count > SearchDocument.maxTextCharacters else { return flat }
        let cut = flat.prefix(SearchDocument.maxTextCharacters)
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
        bytes += String(value).utf8
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

/// The search index of one build, made the first time the search page or the data files ask
/// for it, once: both need it, and they render on different cores.
final class SearchIndexBox: @unchecked Sendable {
    private let lock = NSLock()
    private var made: SearchIndex?
    private let make: @Sendable () -> SearchIndex

    init(_ make: @escaping @Sendable () -> SearchIndex) { self.make = make }

    var index: SearchIndex {
        lock.withLock {
            if let made { return made }
            let index = make()
            made = index
            return index
        }
    }
}
