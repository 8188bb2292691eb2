@testable import DaybookIncremental
import DaybookModel
import Foundation
@testable import DaybookRender
import DaybookTestSupport
import Synchronization
import Testing

/// The search files made through the memo are, byte for byte, the files made from nothing, after
/// any sequence of edits, whether the memo stayed in memory (`serve`) or went through its
/// container (`daybook build`), and whether the output still held the last build's files.
@Suite("Search step")
struct SearchStepTests {
    /// Words with shared prefixes, words of five letters or more (near keys), one whose first two
    /// letters are the same, diacritics, and Japanese (bigrams).
    static let vocabulary = [
        "lighthouse", "lighthouses", "light", "harbour", "harbor", "tram", "dawn", "grandmother", "aalto", "café", "cafe", "Lisboa",
        "sintra", "sintras", "coast", "wave", "waves", "東京タワー", "夜景", "sunset", "sunrise", "ferry", "bridge", "bridges",
    ]

    static func document(_ random: inout SeededGenerator, number: Int) -> SearchDocument {
        var words = (0..<Int.random(in: 0...6, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }
        // Now and then a word no other result has, which an edit then takes out of the site.
        if Int.random(in: 0..<4, using: &random) == 0 { words.append("rare\(Int.random(in: 0..<40, using: &random))x") }
        let text = words.joined(separator: " ")
        let keys = (0..<Int.random(in: 0...2, using: &random)).map { _ in ["#coast", "#tram", "@ana", "~lisboa"].randomElement(using: &random)! }
        let kind: SearchDocument.Kind = [.post, .comment, .entry].randomElement(using: &random)!
        return SearchDocument(
            kind: kind, slug: "p\(number)", title: ["Ana", "Ben"].randomElement(using: &random)!, text: text, number: 20_000 + number,
            thumbnail: Bool.random(using: &random) ? "images/p\(number).64x64.webp" : "", texts: [text], keys: keys)
    }

    enum Edit: CaseIterable {
        case caption, keys, thumbnail, sameTextAsAnother, insert, remove, emptyText
    }

    static func apply(_ edit: Edit, to documents: inout [SearchDocument], _ random: inout SeededGenerator) {
        let index = Int.random(in: 0..<documents.count, using: &random)
        switch edit {
        case .caption:
            let replacement = document(&random, number: index)
            documents[index].text = replacement.text
            documents[index].texts = replacement.texts
        case .keys: documents[index].keys = document(&random, number: index).keys
        case .thumbnail: documents[index].thumbnail = documents[index].thumbnail.isEmpty ? "images/new.webp" : ""
        case .sameTextAsAnother:
            let other = documents[Int.random(in: 0..<documents.count, using: &random)]
            documents[index].texts = other.texts
            documents[index].keys = other.keys
        case .insert: documents.insert(document(&random, number: documents.count + 100), at: index)
        case .remove: if documents.count > 1 { documents.remove(at: index) }
        case .emptyText:
            documents[index].texts = []
            documents[index].text = ""
        }
    }

    /// 200 sequences of 20 edits over a site of 40 to 90 results; after each edit, the output
    /// folder as the step leaves it is the index made from nothing.
    @Test("after each of 20 random edits, 200 times: the output is the index made from nothing, a same-count edit is patched and a result added or removed is shifted")
    func randomEdits() throws {
        var random = SeededGenerator(seed: 39)
        var patchedCount = 0
        var (shiftedCount, addedOrRemoved) = (0, 0)
        for sequence in 0..<200 {
            var documents = (0..<Int.random(in: 40...90, using: &random)).map { Self.document(&random, number: $0) }
            var memo = MemoTable()
            var output: [String: [UInt8]] = [:]
            var keys: [String: UInt64] = [:]
            for step in 0..<20 {
                let edit = Edit.allCases.randomElement(using: &random)!
                let before = documents.count
                if step > 0 { Self.apply(edit, to: &documents, &random) }
                // Pages sized so that there are several files of each kind; now and then the site
                // grows past a step of the layout.
                // The last results are journal entries, whose card files hold half as many, in most sequences.
                var layout = SearchIndex.Layout(pages: 5_000 + (documents.count / 70) * 3_000, documents: documents.count, entries: sequence % 23)
                // Most sequences split their common words into several segments of big files.
                if sequence % 4 != 0 {
                    layout.splitting(above: 3 + sequence % 6, head: 1 + sequence % 4, width: 12 + sequence % 30, documents: documents.count)
                    layout.groupResults = sequence % 5
                }
                // `build` saves and reads the memo's container; `serve` keeps the table.
                if Bool.random(using: &random) { memo = MemoTable(container: memo.encoded()[...]) }
                // Now and then a file of the last build is gone from the output.
                let lost = Bool.random(using: &random) ? layout.paths.randomElement(using: &random) : nil
                if let lost { output[lost] = nil }
                let (held, heldKeys) = (output, keys)
                // Now and then the last cards files cannot be read back: their results are made.
                let readable = Int.random(in: 0..<4, using: &random) != 0
                // Half the sequences hand the cards files over as they are made, as a build does.
                let emitted = Mutex<[RenderedFile]>([])
                let emit: (@Sendable ([RenderedFile]) -> Void)? = sequence % 2 == 1 ? { @Sendable files in emitted.withLock { $0 += files } } : nil
                let keep: @Sendable (String, UInt64) -> Bool = { path, key in held[path] != nil && heldKeys[path] == key }
                let previousFile: @Sendable (String, UInt64) -> [UInt8]? = { path, key in readable && heldKeys[path] == key ? held[path] : nil }
                let result = SearchStep.files(
                    SearchResults(documents: documents), layout: layout, memo: &memo, keep: keep, previousFile: previousFile, emit: emit)
                for path in result.reused { #expect(output[path] != nil, "kept \(path), which the output lacks") }
                let handed = emitted.withLock { $0 }
                #expect(Set(handed.map(\.path)).count == handed.count, "a cards file handed over twice")
                for file in result.files + handed { output[file.path] = file.bytes }
                output = output.filter { layout.paths.contains($0.key) }
                keys = result.keys
                let expected = SearchIndex.files(documents, layout: layout)
                let mismatched = expected.filter { output[$0.path] != $0.bytes }.map(\.path)
                try #require(mismatched.isEmpty, "sequence \(sequence), edit \(step) (\(edit)): \(mismatched)")
                #expect(Set(output.keys) == Set(layout.paths))
                for file in expected { #expect(keys[file.path] == StableHash.ofContent(file.bytes)) }
                if step > 0 && documents.count == before && result.patched { patchedCount += 1 }
                if step > 0 && documents.count != before {
                    addedOrRemoved += 1
                    if result.shifted { shiftedCount += 1 }
                }
                #expect(!result.shifted || documents.count != before)
            }
        }
        // Most same-count edits are patched rather than remade, and most results added or
        // removed are shifted (a layout step remakes).
        #expect(patchedCount > 1_500)
        #expect(shiftedCount > addedOrRemoved * 3 / 4, "\(shiftedCount) of \(addedOrRemoved) shifted")
    }

    @Test("one caption edited: its card file, the postings of the words it gained and lost, and their lexicon files are all that change")
    func captionEditTouchesFew() {
        var (documents, layout, memo, first) = Self.built(seed: 1)
        #expect(!first.patched)
        #expect(first.files.count == layout.paths.count)
        documents[5].texts = ["lighthouse grandmother"]
        documents[5].text = "lighthouse grandmother"
        let held = first.keys
        let second = SearchStep.files(documents, layout: layout, memo: &memo) { path, key in held[path] == key }
        #expect(second.patched)
        let changed = SearchIndex.files(documents, layout: layout).filter { held[$0.path] != StableHash.ofContent($0.bytes) }.map(\.path)
        #expect(Set(second.files.map(\.path)) == Set(changed))
        #expect(second.files.count <= 10)
        #expect(second.reused.count == layout.paths.count - second.files.count)
        #expect(second.files.contains { $0.path == "search/d/0.json" })
    }

    @Test("remade with emit, every cards file goes to it as it is made and the output holds the rest; keys and memo are as without, and the next edit is patched")
    func emittedCards() {
        var random = SeededGenerator(seed: 3)
        var documents = (0..<300).map { Self.document(&random, number: $0) }
        let layout = SearchIndex.Layout(pages: 20_000, documents: documents.count, entries: 40)
        let emitted = Mutex<[RenderedFile]>([])
        var memo = MemoTable()
        let output = SearchStep.files(SearchResults(documents: documents), layout: layout, memo: &memo, keep: { _, _ in false }, emit: { files in emitted.withLock { $0 += files } })
        var plain = MemoTable()
        let whole = SearchStep.files(documents, layout: layout, memo: &plain) { _, _ in false }
        let cards = emitted.withLock { $0 }
        #expect(!cards.isEmpty && cards.allSatisfy { $0.path.hasPrefix("search/d/") })
        #expect(!output.files.contains { $0.path.hasPrefix("search/d/") })
        let fresh = Dictionary(uniqueKeysWithValues: SearchIndex.files(documents, layout: layout).map { ($0.path, $0.bytes) })
        #expect(Dictionary(uniqueKeysWithValues: (output.files + cards).map { ($0.path, $0.bytes) }) == fresh)
        #expect(output.keys == whole.keys)
        #expect(memo.encoded() == plain.encoded())
        documents[5].texts = ["lighthouse grandmother"]
        documents[5].text = "lighthouse grandmother"
        let held = output.keys
        let next = SearchStep.files(SearchResults(documents: documents), layout: layout, memo: &memo, keep: { path, key in held[path] == key }, emit: { _ in Issue.record("a patch emits nothing") })
        #expect(next.patched)
        #expect(next.files.contains { $0.path == "search/d/0.json" })
    }

    /// 300 random results, the last 40 in the journal entries' place in the layout, and their
    /// files made from nothing through a new memo.
    static func built(seed: UInt64) -> (documents: [SearchDocument], layout: SearchIndex.Layout, memo: MemoTable, first: SearchStep.Output) {
        var random = SeededGenerator(seed: seed)
        let documents = (0..<300).map { Self.document(&random, number: $0) }
        let layout = SearchIndex.Layout(pages: 20_000, documents: documents.count, entries: 40)
        var memo = MemoTable()
        let first = SearchStep.files(documents, layout: layout, memo: &memo) { _, _ in false }
        return (documents, layout, memo, first)
    }

    /// The last build's files as an output holds them, for `keep` and `previousFile`.
    struct HeldOutput: Sendable {
        var files: [String: [UInt8]]
        var keys: [String: UInt64]
        func keep(_ path: String, _ key: UInt64) -> Bool { files[path] != nil && keys[path] == key }
        func previous(_ path: String, _ key: UInt64) -> [UInt8]? { keys[path] == key ? files[path] : nil }
    }

    @Test("shifted with emit, each cards file that changed goes to it as it is made and the output holds none; keys and memo are as without")
    func shiftedEmits() {
        var (documents, layout, memo, first) = Self.built(seed: 5)
        var output = Dictionary(uniqueKeysWithValues: first.files.map { ($0.path, $0.bytes) })
        let held = HeldOutput(files: output, keys: first.keys)
        documents.remove(at: 7)
        var plainMemo = memo
        let plain = SearchStep.files(documents, layout: layout, memo: &plainMemo, keep: held.keep, previousFile: held.previous)
        let emitted = Mutex<[RenderedFile]>([])
        let shifted = SearchStep.files(
            SearchResults(documents: documents), layout: layout, memo: &memo, keep: held.keep, previousFile: held.previous,
            emit: { files in emitted.withLock { $0 += files } })
        #expect(plain.shifted && shifted.shifted)
        let cards = emitted.withLock { $0 }
        // Every cards file after the removed result changed, each handed over once.
        #expect(cards.count > 1 && cards.allSatisfy { $0.path.hasPrefix("search/d/") })
        #expect(Set(cards.map(\.path)).count == cards.count)
        #expect(Set(cards.map(\.path)) == Set(plain.files.map(\.path).filter { $0.hasPrefix("search/d/") }))
        #expect(!shifted.files.contains { $0.path.hasPrefix("search/d/") })
        #expect(shifted.keys == plain.keys && shifted.cardsMoved == plain.cardsMoved)
        #expect(memo.encoded() == plainMemo.encoded())
        for file in shifted.files + cards { output[file.path] = file.bytes }
        let fresh = Dictionary(uniqueKeysWithValues: SearchIndex.files(documents, layout: layout).map { ($0.path, $0.bytes) })
        #expect(output == fresh)
    }

    @Test("a shift that fails after handing cards files over is remade, and the remake does not hand them over again")
    func failedShiftEmitsOnce() {
        // Every result holds the same words, so a removal changes no lexicon file: the shift
        // gets as far as the cards, and fails after them for want of the lexicon's state.
        var documents = (0..<300).map { number in
            SearchDocument(
                kind: .post, slug: "p\(number)", title: "Ana", text: "lighthouse harbour", number: number, thumbnail: "", texts: ["lighthouse harbour"],
                keys: [])
        }
        let layout = SearchIndex.Layout(pages: 20_000, documents: documents.count, entries: 0)
        var memo = MemoTable()
        let first = SearchStep.files(documents, layout: layout, memo: &memo) { _, _ in false }
        let held = HeldOutput(files: Dictionary(uniqueKeysWithValues: first.files.map { ($0.path, $0.bytes) }), keys: first.keys)
        memo.retain(SearchStep.lexicon, ids: [])
        documents.remove(at: 7)
        let emitted = Mutex<[RenderedFile]>([])
        let output = SearchStep.files(
            SearchResults(documents: documents), layout: layout, memo: &memo, keep: { path, key in !path.hasPrefix("search/l/") && held.keep(path, key) },
            previousFile: held.previous, emit: { files in emitted.withLock { $0 += files } })
        #expect(!output.shifted && !output.patched)
        let cards = emitted.withLock { $0 }
        #expect(cards.count > 1)
        #expect(Set(cards.map(\.path)).count == cards.count, "a cards file handed over twice")
        let fresh = Dictionary(uniqueKeysWithValues: SearchIndex.files(documents, layout: layout).map { ($0.path, $0.bytes) })
        #expect(Dictionary(uniqueKeysWithValues: (output.files + cards).map { ($0.path, $0.bytes) }) == fresh)
    }

    @Test("remade from a first build's results, the files are the index made from nothing, and only a run of card files' results is held at a time")
    func firstBuildWindows() {
        var random = SeededGenerator(seed: 11)
        let documents = (0..<20_000).map { Self.document(&random, number: $0) }
        let layout = SearchIndex.Layout(pages: 20_000, documents: documents.count, entries: 0)
        // 10,000 runs of 2 results; the most runs held while a cards file is made.
        let held = ResultsProbe()
        let results = SearchResults(counts: Array(repeating: 2, count: 10_000)) { run in Array(documents[(2 * run)..<(2 * run + 2)]) }
        held.results = results
        let emitted = Mutex<[RenderedFile]>([])
        var memo = MemoTable()
        let output = SearchStep.files(
            results, layout: layout, memo: &memo, keep: { _, _ in false },
            emit: { files in
                held.note()
                emitted.withLock { $0 += files }
            })
        let fresh = Dictionary(uniqueKeysWithValues: SearchIndex.files(documents, layout: layout).map { ($0.path, $0.bytes) })
        #expect(Dictionary(uniqueKeysWithValues: (output.files + emitted.withLock { $0 }).map { ($0.path, $0.bytes) }) == fresh)
        var plain = MemoTable()
        #expect(output.keys == SearchStep.files(documents, layout: layout, memo: &plain) { _, _ in false }.keys)
        #expect(results.versions == documents.map(SearchStep.Versions.init))
        // A run of card files is about 16,384 results: 8,192 runs, and one begun before.
        #expect(held.most > 0 && held.most <= 8_193)
    }

    @Test("results made as files need them: a caption edit makes the runs of its cards file and no other, and writes the files a fresh index has")
    func lazyResults() {
        var random = SeededGenerator(seed: 7)
        // 100 runs of 3 results (a post and two comments, say).
        var documents = (0..<300).map { Self.document(&random, number: $0) }
        let layout = SearchIndex.Layout(pages: 20_000, documents: documents.count, entries: 0)
        var memo = MemoTable()
        let first = SearchStep.files(documents, layout: layout, memo: &memo) { _, _ in false }
        documents[22].texts = ["lighthouse grandmother"]
        documents[22].text = "lighthouse grandmother"
        let made = RunCounter()
        let edited = documents
        // Run 7 (results 21 to 23) is made by the build; the others come as their versions alone.
        let runs = (0..<100).map { run -> (documents: [SearchDocument]?, versions: [SearchStep.Versions]) in
            let own = Array(edited[(3 * run)..<(3 * run + 3)])
            return (run == 7 ? own : nil, own.map(SearchStep.Versions.init))
        }
        let results = SearchResults(runs: runs) { run in
            made.add()
            return Array(edited[(3 * run)..<(3 * run + 3)])
        }
        let held = first.keys
        let second = SearchStep.files(results, layout: layout, memo: &memo) { path, key in held[path] == key }
        #expect(second.patched)
        let fresh = SearchIndex.files(edited, layout: layout)
        let changed = fresh.filter { held[$0.path] != StableHash.ofContent($0.bytes) }
        #expect(second.files.map(\.path).sorted() == changed.map(\.path).sorted())
        for file in second.files { #expect(file.bytes == fresh.first { $0.path == file.path }?.bytes, "\(file.path)") }
        // The cards file of result 22 holds the runs around it; nothing else was made.
        let cardRange = layout.results(ofCardFile: layout.cardFile(of: 22, documents: 300), documents: 300)
        let cardRuns = Set(cardRange.map { $0 / 3 })
        #expect(made.value == cardRuns.subtracting([7]).count)
        #expect(made.value < 100)
    }

    @Test("a word many times in the last result of a group is kept as it is: an edit to it is patched, not remade")
    func repeatedWordAtTheEnd() {
        var random = SeededGenerator(seed: 3)
        var documents = (0..<300).map { Self.document(&random, number: $0) }
        let layout = SearchIndex.Layout(pages: 20_000, documents: documents.count, entries: 40)
        let last = layout.results(ofCardFile: layout.cardFiles - 1, documents: documents.count).upperBound - 1
        documents[last].texts = [Array(repeating: "edited", count: 60).joined(separator: " ")]
        var memo = MemoTable()
        _ = SearchStep.files(documents, layout: layout, memo: &memo) { _, _ in false }
        memo = MemoTable(container: memo.encoded()[...])
        documents[last].texts[0] += " again"
        let second = SearchStep.files(documents, layout: layout, memo: &memo) { _, _ in true }
        let patched = second.patched
        #expect(patched)
        #expect(second.files.map(\.bytes) == SearchIndex.files(documents, layout: layout).filter { file in second.files.contains { $0.path == file.path } }.map(\.bytes))
    }

    @Test("a memo whose values are damaged is remade from the documents, not trusted")
    func damagedMemo() {
        var random = SeededGenerator(seed: 2)
        var documents = (0..<120).map { Self.document(&random, number: $0) }
        let layout = SearchIndex.Layout(pages: 8_000, documents: documents.count)
        var memo = MemoTable()
        _ = SearchStep.files(documents, layout: layout, memo: &memo) { _, _ in false }
        var bytes = memo.encoded()
        // Every value's bytes changed after the index: each fails its checksum.
        let valuesStart = MemoContainer.headerBytes + MemoContainer.entryBytes * (MemoContainer(bytes: bytes[...])?.count ?? 0)
        for index in valuesStart..<bytes.count { bytes[index] ^= 0x5A }
        var damaged = MemoTable(container: bytes[...])
        documents[3].texts = ["ferry"]
        let result = SearchStep.files(documents, layout: layout, memo: &damaged) { _, _ in true }
        #expect(!result.patched)
        let expected = SearchIndex.files(documents, layout: layout)
        #expect(result.files.map(\.bytes) == expected.map(\.bytes))
    }
}

/// Counts runs made from a closure the results may call from any core.
final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Watches how many runs a `SearchResults` holds made.
final class ResultsProbe: @unchecked Sendable {
    private let lock = NSLock()
    var results: SearchResults?
    private var highest = 0
    func note() {
        let count = results?.runsMade ?? 0
        lock.withLock { highest = max(highest, count) }
    }
    var most: Int { lock.withLock { highest } }
}
