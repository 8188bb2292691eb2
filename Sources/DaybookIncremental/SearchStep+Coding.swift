import DaybookModel
import DaybookRender

/// The values of the search step, as `MemoWriter` bytes.
extension SearchStep {
    /// `search.index`: each result's versions, in order, and each file's key, in layout order.
    struct IndexRecord: Sendable {
        var versions: [Versions]
        var fileKeys: [UInt64]

        init(versions: [Versions], fileKeys: [UInt64]) {
            self.versions = versions
            self.fileKeys = fileKeys
        }

        init?(bytes: ArraySlice<UInt8>) {
            var reader = MemoReader(bytes)
            guard
                let versions = reader.elements({ reader in
                    reader.fixed().flatMap { document in reader.fixed().map { Versions(document: document, terms: $0) } }
                }),
                let keys = reader.elements({ $0.fixed() }), reader.atEnd
            else { return nil }
            self.versions = versions
            fileKeys = keys
        }

        var bytes: [UInt8] {
            var writer = MemoWriter()
            writer.count(versions.count)
            for version in versions {
                writer.fixed(version.document)
                writer.fixed(version.terms)
            }
            writer.count(fileKeys.count)
            for key in fileKeys { writer.fixed(key) }
            return writer.bytes
        }
    }

    /// A group's results, each with its terms version.
    static func encodeGroup(_ group: [(UInt64, SearchTerms)]) -> [UInt8] {
        var size = 4
        for (_, terms) in group {
            size += 12
            for word in terms.words { size += word.utf8.count + 2 }
            for key in terms.keys { size += key.utf8.count + 1 }
        }
        var writer = MemoWriter(reserving: size)
        writer.count(group.count)
        for (version, terms) in group {
            writer.fixed(version)
            encode(terms, into: &writer)
        }
        return writer.bytes
    }

    static func decodeGroup(_ bytes: ArraySlice<UInt8>) -> [(UInt64, SearchTerms)]? {
        var reader = MemoReader(bytes)
        guard let group = reader.elements({ reader in reader.fixed().flatMap { version in decodeTerms(&reader).map { (version, $0) } } }),
            reader.atEnd
        else { return nil }
        return group
    }

    static func encode(_ terms: SearchTerms, into writer: inout MemoWriter) {
        writer.count(terms.words.count)
        for (word, count) in zip(terms.words, terms.counts) {
            writer.string(word)
            writer.count(count)
        }
        writer.count(terms.keys.count)
        for key in terms.keys { writer.string(key) }
    }

    static func decodeTerms(_ reader: inout MemoReader) -> SearchTerms? {
        // How often a word comes is a number, not a count of elements to read: `count()` would
        // refuse one larger than the bytes left (a word forty times in a group's last result).
        guard let words = reader.elements({ reader in reader.string().flatMap { word in reader.unsigned().map { (word, Int(clamping: $0)) } } }),
            let keys = reader.elements({ $0.string() })
        else { return nil }
        return SearchTerms(words: words.map(\.0), counts: words.map(\.1), keys: keys)
    }

    static func encode(_ file: SearchIndex.Postings) -> [UInt8] {
        var writer = MemoWriter()
        writer.count(file.count)
        for (term, entries) in file.sorted(by: { $0.key < $1.key }) {
            writer.string(term)
            writer.count(entries.count)
            for value in entries { writer.signed(value) }
        }
        return writer.bytes
    }

    static func decodePostings(_ bytes: ArraySlice<UInt8>) -> SearchIndex.Postings? {
        var reader = MemoReader(bytes)
        guard let pairs = reader.elements({ reader in reader.string().flatMap { term in reader.elements({ $0.signed() }).map { (term, $0) } } }),
            reader.atEnd
        else { return nil }
        return Dictionary(pairs) { first, _ in first }
    }

    static func encode(_ file: SearchIndex.Lexicon) -> [UInt8] {
        var writer = MemoWriter()
        writer.count(file.words.count)
        for (word, magnitude) in file.words.sorted(by: { $0.key < $1.key }) {
            writer.string(word)
            writer.signed(magnitude)
        }
        writer.count(file.near.count)
        for (key, words) in file.near.sorted(by: { $0.key < $1.key }) {
            writer.string(key)
            writer.count(words.count)
            for word in words { writer.string(word) }
        }
        return writer.bytes
    }

    static func decodeLexicon(_ bytes: ArraySlice<UInt8>) -> SearchIndex.Lexicon? {
        var reader = MemoReader(bytes)
        guard let words = reader.elements({ reader in reader.string().flatMap { word in reader.signed().map { (word, $0) } } }),
            let near = reader.elements({ reader in reader.string().flatMap { key in reader.elements({ $0.string() }).map { (key, $0) } } }),
            reader.atEnd
        else { return nil }
        return SearchIndex.Lexicon(words: Dictionary(words) { first, _ in first }, near: Dictionary(near) { first, _ in first })
    }

    /// Every kept run: a count, then each run's id, version and results' versions (a count,
    /// then two fixed words each).
    static func encodeRuns(_ runs: [(id: UInt64, version: UInt64, versions: [Versions])]) -> [UInt8] {
        var writer = MemoWriter(reserving: 4 + runs.reduce(0) { $0 + 18 + 16 * $1.versions.count })
        writer.count(runs.count)
        for run in runs {
            writer.fixed(run.id)
            writer.fixed(run.version)
            writer.count(run.versions.count)
            for version in run.versions {
                writer.fixed(version.document)
                writer.fixed(version.terms)
            }
        }
        return writer.bytes
    }

    static func decodeRuns(_ bytes: ArraySlice<UInt8>) -> [UInt64: (version: UInt64, versions: [Versions])]? {
        var reader = MemoReader(bytes)
        guard let count = reader.count() else { return nil }
        var runs: [UInt64: (version: UInt64, versions: [Versions])] = [:]
        runs.reserveCapacity(count)
        for _ in 0..<count {
            guard let id = reader.fixed(), let version = reader.fixed(),
                let versions = reader.elements({ reader -> Versions? in
                    guard let document = reader.fixed(), let terms = reader.fixed() else { return nil }
                    return Versions(document: document, terms: terms)
                })
            else { return nil }
            runs[id] = (version, versions)
        }
        return reader.atEnd ? runs : nil
    }
}
