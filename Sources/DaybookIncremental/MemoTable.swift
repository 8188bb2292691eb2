import DaybookModel

/// A named step of the build whose results the incremental layer keeps, such as "the words of
/// this search result" or "this search postings file".
package struct MemoStep: Hashable, Sendable {
    package let name: String
    let hash: UInt64

    package init(_ name: String) {
        self.name = name
        var hash = StableHash()
        hash.combine(name)
        self.hash = hash.value
    }

    /// The id of a result filed by a name (a path, a post's id, a text): a hash of it.
    package static func id(_ name: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(name)
        return hash.value
    }

    /// Where the result for `id` is filed: the step and the id, hashed together.
    func key(_ id: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.combine(bits: self.hash)
        hash.combine(bits: id)
        return hash.value
    }
}

/// The results of a build's memoised steps, for the next build: each under its step and id,
/// with the version of the inputs it was worked out from. A result is taken again only when the
/// version asked for is the one it was stored under; a step's version is the hash of what it
/// read, so a result is never used for inputs it was not made of.
///
/// `serve` keeps one table in memory from build to build; `daybook build` reads it from its
/// container and saves it back (`prepared()`), so both go through the same steps. Values are
/// bytes in both: a step decodes only the results it needs, and what a build did not touch is
/// carried over as it was read, never decoded.
package struct MemoTable: Sendable {
    private struct Stored: Sendable {
        var step: UInt64
        var version: UInt64
        var stored: ArraySlice<UInt8>
        /// Makes the bytes of a result stored decoded (`store(_:_:version:decoded:encode:)`), when
        /// they were not made yet.
        var encode: (@Sendable () -> [UInt8])? = nil

        /// Where the result was written when the table spilled it (`spill`): its bytes were let go of.
        var spilled: MemoContainer.Entry? = nil
    }

    /// The container the table was read from, when it was.
    private let base: MemoContainer?
    /// Whether the table was read from a container.
    package var isRead: Bool { base != nil }
    /// The positions of each step's entries in `base`, found in one pass when the table is read:
    /// a step that drops its gone results, or lists them all, reads only its own entries (seven
    /// steps each reading the whole index of 60,000 entries were a twentieth of a preview rebuild).
    private let basePositions: [UInt64: [Int]]
    /// Results stored since, by key.
    private var added: [UInt64: Stored] = [:]
    /// Keys of the base that were dropped or replaced.
    private var dropped: Set<UInt64> = []
    /// Where results are written as soon as they are stored, rather than held to the save: a
    /// build without a memo to read (a large site's first) would otherwise hold every file's
    /// records and the search index's terms, 330 MB, from the moment each was made. Only for a
    /// table read from no container: its save is the spill's container, index appended.
    package var spill: (any MemoSpill)?
    /// Whether anything was stored or dropped since the table was made.
    package private(set) var changed = false
    /// Whether the table also holds results decoded, for the next build of a long-lived process
    /// (`serve`): it decodes nothing it decoded before, and a file's records are the very same
    /// values from build to build (compared by reference where they are compared). Decoding
    /// 7,500 files' records on every save was a twentieth of a rebuild.
    package var keepsDecoded = false
    /// Results as their step decoded them, by step, then by key, with the version they were stored under.
    private var decodedValues: [UInt64: any DecodedStep] = [:]

    package init() {
        base = nil
        basePositions = [:]
    }

    /// The table saved in `container`, or an empty one when the container is missing or damaged.
    package init(container: ArraySlice<UInt8>?) {
        self.init(storage: container.map(MemoBuffer.init))
    }

    /// The table saved in the container `storage` holds, or an empty one when there is none or
    /// it is damaged. Values are read from `storage` as steps ask for them.
    package init(storage: (any MemoStorage)?) {
        let base = storage.flatMap { MemoContainer(storage: $0) }
        var positions: [UInt64: [Int]] = [:]
        if let base { for position in 0..<base.count { positions[base.step(at: position), default: []].append(position) } }
        self.base = base
        basePositions = positions
    }

    /// The result `step` stored for `id` from inputs of `version`, when there is one.
    package func value(_ step: MemoStep, _ id: UInt64, version: UInt64) -> ArraySlice<UInt8>? {
        let key = step.key(id)
        if let stored = added[key] { return stored.step == step.hash && stored.version == version ? bytes(of: stored) : nil }
        guard let base, !dropped.contains(key), let position = base.position(of: key) else { return nil }
        let entry = base.entry(at: position)
        guard entry.step == step.hash, entry.version == version else { return nil }
        return base.value(of: entry)
    }

    /// The result `step` stored for `id` from inputs of `version`, as the step decoded it when the
    /// table keeps decoded results (`keepsDecoded`) and it was decoded before.
    package func decoded<Value: Sendable>(_ step: MemoStep, _ id: UInt64, version: UInt64, as type: Value.Type) -> Value? {
        decodedResults(of: step, as: type).value(id, version: version)
    }

    /// `step`'s results kept decoded, for a loop that looks up many of them: each `decoded` call
    /// copied the step's table out of the table's, and a parallel loop's threads contended for
    /// its count of references, 30,000 times a `serve` rebuild for the search's runs.
    package func decodedResults<Value: Sendable>(of step: MemoStep, as type: Value.Type) -> DecodedResults<Value> {
        DecodedResults(step: step, values: keepsDecoded ? (decodedValues[step.hash] as? DecodedValues<Value>)?.values ?? [:] : [:])
    }

    /// Keeps `value` as `step`'s result for `id` decoded, when the table keeps decoded results:
    /// the bytes stored under that version decode to it.
    package mutating func keepDecoded<Value: Sendable>(_ step: MemoStep, _ id: UInt64, version: UInt64, _ value: Value) {
        guard keepsDecoded else { return }
        keep(value, version: version, at: step.key(id), of: step)
    }

    /// Files `value` among `step`'s decoded results, taken out of the table for the time, so that
    /// the step's table is changed in place rather than copied.
    private mutating func keep<Value: Sendable>(_ value: Value, version: UInt64, at key: UInt64, of step: MemoStep) {
        var kept = decodedValues.removeValue(forKey: step.hash) as? DecodedValues<Value> ?? DecodedValues()
        kept.values[key] = (version, value)
        decodedValues[step.hash] = kept
    }

    /// Forgets the decoded result of `step` for `id`.
    package mutating func forgetDecoded(_ step: MemoStep, _ id: UInt64) {
        decodedValues[step.hash]?.remove(step.key(id))
    }

    /// Every result `step` stored, whatever its id and version, each verified: for a step whose
    /// results are found by what they hold rather than by where they were filed.
    package func values(of step: MemoStep) -> [ArraySlice<UInt8>] {
        var found = added.values.filter { $0.step == step.hash }.compactMap(bytes(of:))
        guard let base else { return found }
        for position in basePositions[step.hash] ?? [] {
            let entry = base.entry(at: position)
            if entry.step == step.hash && added[entry.key] == nil && !dropped.contains(entry.key), let value = base.value(of: entry) {
                found.append(value)
            }
        }
        return found
    }

    /// Stores the result of `step` for `id`, worked out from inputs of `version`.
    package mutating func store(_ step: MemoStep, _ id: UInt64, version: UInt64, value: [UInt8]) {
        let key = step.key(id)
        if let spill, let offset = spill.write(value[...]) {
            let entry = MemoContainer.Entry(
                key: key, step: step.hash, version: version, offset: offset, length: value.count, checksum: StableHash.checksum(value))
            put(Stored(step: step.hash, version: version, stored: [], spilled: entry), at: key)
        } else {
            put(Stored(step: step.hash, version: version, stored: value[...]), at: key)
        }
        if decodedValues[step.hash]?.version(at: key) != version { decodedValues[step.hash]?.remove(key) }
    }

    /// Stores `value` as `step`'s result for `id`, worked out from inputs of `version`, without its
    /// bytes: `encode` makes them only if a step asks for them or the table is saved (`prepared()`),
    /// which `serve` never does and `daybook build` does beside its commit. Encoding the whole
    /// page-facts table on every save was 3% of a `serve` rebuild. A table that spills its results
    /// (`spill`) encodes at once.
    package mutating func store(_ step: MemoStep, _ id: UInt64, version: UInt64, decoded value: some Sendable, encode: @escaping @Sendable () -> [UInt8]) {
        guard spill == nil else { return store(step, id, version: version, value: encode()) }
        let key = step.key(id)
        put(Stored(step: step.hash, version: version, stored: [], encode: encode), at: key)
        if keepsDecoded { keep(value, version: version, at: key, of: step) }
    }

    /// The bytes of a result stored since the table was read; `nil` for a spilled one that can no
    /// longer be read back as written.
    private func bytes(of stored: Stored) -> ArraySlice<UInt8>? {
        if let entry = stored.spilled {
            return spill?.read(entry.offset, entry.length).flatMap { StableHash.checksum($0) == entry.checksum ? $0 : nil }
        }
        return stored.encode.map { $0()[...] } ?? stored.stored
    }

    /// Files a result stored since the table was read, in place of any the container holds.
    private mutating func put(_ stored: Stored, at key: UInt64) {
        added[key] = stored
        if base != nil { dropped.insert(key) }
        changed = true
    }

    /// Drops every result of `step` but those for `ids`: a step's results for inputs that are
    /// gone (a deleted post's words, a postings file the site outgrew) leave with them.
    package mutating func retain(_ step: MemoStep, ids: Set<UInt64>) {
        let keys = Set(ids.map(step.key))
        decodedValues[step.hash]?.retain(keys)
        for (key, stored) in added where stored.step == step.hash && !keys.contains(key) {
            added[key] = nil
            changed = true
        }
        guard let base else { return }
        for position in basePositions[step.hash] ?? [] {
            let entry = base.entry(at: position)
            if !keys.contains(entry.key) && dropped.insert(entry.key).inserted { changed = true }
        }
    }

    /// The table as one fresh container (`MemoContainer`).
    package func encoded() -> [UInt8] { prepared().bytes }

    /// The table ready to be saved: the results carried over from the container it was read
    /// from, where they are, and those stored since.
    package func prepared() -> MemoContainer.Prepared {
        var carried: [MemoContainer.Entry] = []
        if let base {
            carried.reserveCapacity(base.count)
            for position in 0..<base.count {
                let entry = base.entry(at: position)
                if !dropped.contains(entry.key) { carried.append(entry) }
            }
        }
        var spilled: [MemoContainer.Entry] = []
        var made: [MemoContainer.Added] = []
        for (key, stored) in added {
            if let entry = stored.spilled {
                spilled.append(entry)
            } else {
                made.append(MemoContainer.Added(key: key, step: stored.step, version: stored.version, value: bytes(of: stored) ?? []))
            }
        }
        return MemoContainer.Prepared(base: base, carried: carried, spill: spill, spilled: spilled, added: made)
    }
}

/// One step's results as a table keeps them decoded (`MemoTable.decodedResults`).
package struct DecodedResults<Value: Sendable>: Sendable {
    let step: MemoStep
    let values: [UInt64: (version: UInt64, value: Value)]

    /// `MemoTable.decoded` of this step, as the table was when these were taken.
    package func value(_ id: UInt64, version: UInt64) -> Value? {
        guard let kept = values[step.key(id)], kept.version == version else { return nil }
        return kept.value
    }
}

/// A step's results as a table keeps them decoded, whatever their type: what the table does to
/// all of them without knowing it.
private protocol DecodedStep: Sendable {
    func version(at key: UInt64) -> UInt64?
    mutating func remove(_ key: UInt64)
    /// Drops the results of keys not among `keys`.
    mutating func retain(_ keys: Set<UInt64>)
}

/// A step's results kept decoded, all of one type, with the version each was made from. Typed,
/// a lookup copies the value and nothing else: held as `any Sendable`, each was copied out of its
/// box and cast through the runtime, a fifth of `serve`'s search results after a caption edit.
private struct DecodedValues<Value: Sendable>: DecodedStep {
    var values: [UInt64: (version: UInt64, value: Value)] = [:]

    func version(at key: UInt64) -> UInt64? { values[key]?.version }

    mutating func remove(_ key: UInt64) { values[key] = nil }

    mutating func retain(_ keys: Set<UInt64>) {
        if values.keys.contains(where: { !keys.contains($0) }) { values = values.filter { keys.contains($0.key) } }
    }
}
