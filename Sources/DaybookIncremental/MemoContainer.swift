import DaybookModel

/// Where a container's bytes are read from, a range at a time: an array in memory (tests, the
/// fuzzer), or the file in `<site>/.daybook-cache/` (`daybook build`), read by position so that a
/// build reads only the values it asks for rather than the whole memo (60 MB on a medium site).
package protocol MemoStorage: Sendable {
    /// The container's length in bytes, as it was when opened: what a later save appends lies beyond.
    var count: Int { get }
    /// The `length` bytes at `offset`, or `nil` when they are not all there or could not be read.
    func read(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>?
}

/// Where a table writes its results as they are stored (`MemoTable.spill`): the fresh container
/// a build without a memo to read makes, a file whose values come first and whose index the save
/// appends (`MemoContainer.Prepared.appended`).
package protocol MemoSpill: Sendable {
    /// Writes `bytes` at the container's end; where they start, or `nil` when they could not be
    /// written (the table then holds them).
    func write(_ bytes: ArraySlice<UInt8>) -> Int?
    /// The `length` bytes written at `offset`, or `nil` when they cannot be read back.
    func read(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>?
}

/// A container held in memory.
package struct MemoBuffer: MemoStorage {
    let bytes: ArraySlice<UInt8>

    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    package var count: Int { bytes.count }

    package func read(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return bytes[(bytes.startIndex + offset)..<(bytes.startIndex + offset + length)]
    }
}

/// The one on-disk form of the incremental layer's memo (`<site>/.daybook-cache/memo`): a header,
/// then what each save appended, values first and then an index of every live value, sorted by
/// key, closed by a trailer that locates it.
///
/// Append-only: a save writes only the values its build made, then a new index (which may point
/// at values any earlier save wrote) and a trailer. A one-post edit on a medium site appends a
/// few MB rather than rewriting 60. Once the dead values outweigh the live ones, the save writes
/// a fresh container instead (`Prepared.isWorthCompacting`).
///
/// Read by position: opening reads the trailer and the index, checks their checksums, and
/// nothing else; a value is bounds-checked and its own checksum verified only when a build asks
/// for it. Any damage makes a value (or, in the trailer or index, the whole memo) missing, which
/// only costs its work again: the folder is untrusted, so nothing here trusts a length or an
/// offset. A save cut short leaves no valid trailer at the end, and so no memo.
///
/// ```
/// "daybook-memo\n"   magic
/// u32                formatVersion
/// then per save:
///   values           concatenated
///   n × 48 bytes     key, step, version, offset, length, checksum (u64 each), by key
///   u64              offset of the index
///   u64              entry count n
///   u64              checksum of the index
///   u64              checksum of the three fields above
/// ```
/// Offsets count from the magic's first byte.
package struct MemoContainer: Sendable {
    package static let magic = Array("daybook-memo\n".utf8)
    /// Bump when the layout above or any step's value encoding changes: a container of another
    /// version is not read (`MemoContainerTests` holds the bytes of a known table to this).
    package static let formatVersion: UInt32 = 5
    static let entryBytes = 48
    /// What every container starts with: the magic and the format version.
    package static let header: [UInt8] = {
        var header = ByteWriter()
        header.bytes += magic
        header.uint32(formatVersion)
        return header.bytes
    }()
    static let headerBytes = header.count
    static let trailerBytes = 32

    /// One index entry, as stored.
    package struct Entry: Sendable {
        var key: UInt64
        var step: UInt64
        var version: UInt64
        var offset: Int
        var length: Int
        var checksum: UInt64
    }

    package let storage: any MemoStorage
    let count: Int
    /// The index, read whole on opening (half a MB for a medium site's 10,000 entries).
    private let index: ArraySlice<UInt8>

    /// The container in `storage`, or `nil` when its header, trailer or index is damaged or of
    /// another format version.
    package init?(storage: any MemoStorage, formatVersion: UInt32 = Self.formatVersion) {
        let end = storage.count
        guard end >= Self.headerBytes + Self.trailerBytes, let header = storage.read(0, Self.headerBytes),
            header.prefix(Self.magic.count).elementsEqual(Self.magic)
        else { return nil }
        var reader = ByteReader(header, at: header.startIndex + Self.magic.count)
        guard reader.uint32() == formatVersion, let trailer = storage.read(end - Self.trailerBytes, Self.trailerBytes) else { return nil }
        reader = ByteReader(trailer, at: trailer.startIndex)
        guard let offset = reader.uint64(), let count = reader.uint64(), let checksum = reader.uint64(), let sealed = reader.uint64(),
            StableHash.checksum(trailer.prefix(24)) == sealed,
            // The index lies just before the trailer, after the header (a count too large for
            // that is refused before the subtraction could go below zero).
            count <= UInt64((end - Self.headerBytes - Self.trailerBytes) / Self.entryBytes),
            offset == UInt64(end - Self.trailerBytes) - count * UInt64(Self.entryBytes), let index = storage.read(Int(offset), Int(count) * Self.entryBytes),
            StableHash.checksum(index) == checksum
        else { return nil }
        self.storage = storage
        self.count = Int(count)
        self.index = index
    }

    /// The container held in `bytes`.
    package init?(bytes: ArraySlice<UInt8>, formatVersion: UInt32 = Self.formatVersion) {
        self.init(storage: MemoBuffer(bytes), formatVersion: formatVersion)
    }

    func entry(at position: Int) -> Entry {
        var reader = ByteReader(index, at: index.startIndex + position * Self.entryBytes)
        // The index's length was checked on opening: every field is there.
        let (key, step, version) = (reader.uint64() ?? 0, reader.uint64() ?? 0, reader.uint64() ?? 0)
        let (offset, length, checksum) = (reader.uint64() ?? 0, reader.uint64() ?? 0, reader.uint64() ?? 0)
        return Entry(
            key: key, step: step, version: version, offset: Int(truncatingIfNeeded: offset), length: Int(truncatingIfNeeded: length),
            checksum: checksum)
    }

    /// The position of `key` in the index, by binary search.
    func position(of key: UInt64) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            let found = keyAt(middle)
            if found == key { return middle }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The step of the entry at `position`, read alone.
    func step(at position: Int) -> UInt64 {
        var reader = ByteReader(index, at: index.startIndex + position * Self.entryBytes + 8)
        return reader.uint64() ?? 0
    }

    private func keyAt(_ position: Int) -> UInt64 {
        var reader = ByteReader(index, at: index.startIndex + position * Self.entryBytes)
        return reader.uint64() ?? 0
    }

    /// The value of `entry`, or `nil` when it lies outside the values or fails its checksum.
    func value(of entry: Entry) -> ArraySlice<UInt8>? {
        guard Self.headerBytes <= entry.offset else { return nil }
        return storage.read(entry.offset, entry.length).flatMap { StableHash.checksum($0) == entry.checksum ? $0 : nil }
    }

    /// One value a build made, to be written.
    struct Added {
        var key: UInt64
        var step: UInt64
        var version: UInt64
        var value: ArraySlice<UInt8>
    }

    /// A save of a table read from `base`: the entries it carries over, where they are, and the
    /// values it made (a large site's memo is over 100 MB, which a copy in one array would double).
    /// Written either as an append to the container it was read from, or as a fresh container.
    package struct Prepared: Sendable {
        /// The container the table was read from, when it was.
        package let base: MemoContainer?
        let carried: [Entry]
        /// Where the values in `spilled` were written as they were made.
        package let spill: (any MemoSpill)?
        let spilled: [Entry]
        /// The values made, by key, each with its checksum.
        let added: [Checked]

        typealias Checked = (key: UInt64, step: UInt64, version: UInt64, value: ArraySlice<UInt8>, checksum: UInt64)

        init(base: MemoContainer?, carried: [Entry], spill: (any MemoSpill)? = nil, spilled: [Entry] = [], added: [Added]) {
            self.init(
                base: base, carried: carried, spill: spill, spilled: spilled,
                checked: added.sorted { $0.key < $1.key }.map { Self.checked($0.key, $0.step, $0.version, $0.value) })
        }

        private init(base: MemoContainer?, carried: [Entry], spill: (any MemoSpill)?, spilled: [Entry], checked: [Checked]) {
            (self.base, self.carried, self.spill, self.spilled, self.added) = (base, carried, spill, spilled, checked)
        }

        private static func checked(_ key: UInt64, _ step: UInt64, _ version: UInt64, _ value: ArraySlice<UInt8>) -> Checked {
            (key, step, version, value, StableHash.checksum(value))
        }

        /// The same save with `value` as `step`'s result for `id` in place of any carried over or
        /// made; without it when `value` is `nil`. For a value made once the rest was prepared
        /// (the build record, once the output is in place); the other values made keep their
        /// checksums.
        package func filing(_ step: MemoStep, _ id: UInt64, version: UInt64, value: [UInt8]?) -> Prepared {
            let key = step.key(id)
            var made = added.filter { $0.key != key }
            if let value { made.insert(Self.checked(key, step.hash, version, value[...]), at: made.firstIndex { $0.key > key } ?? made.endIndex) }
            return Prepared(
                base: base, carried: carried.filter { $0.key != key }, spill: spill, spilled: spilled.filter { $0.key != key }, checked: made)
        }

        /// Bytes of the live values.
        var liveBytes: Int {
            carried.reduce(0) { $0 + $1.length } + spilled.reduce(0) { $0 + $1.length } + added.reduce(0) { $0 + $1.value.count }
        }

        /// Whether appending to `base` would leave more dead bytes than live ones, so that a fresh
        /// container is worth its larger write: a one-post edit on a medium site appends about 8 MB
        /// of its 60, so one save in eight or so compacts.
        package var isWorthCompacting: Bool {
            guard let base else { return true }
            let appended =
                added.reduce(0) { $0 + $1.value.count } + (carried.count + spilled.count + added.count) * MemoContainer.entryBytes
                + MemoContainer.trailerBytes
            return base.storage.count + appended > 2 * liveBytes + (1 << 20)
        }

        /// The bytes to append to `base`, whose container now ends at `end` (another save may
        /// have appended since it was read: its values are left as garbage), or to the spill's
        /// container, piece by piece.
        package func appended(at end: Int, _ put: (ArraySlice<UInt8>) -> Void) {
            var entries = carried + spilled
            var offset = end
            for value in added {
                put(value.value)
                entries.append(Entry(key: value.key, step: value.step, version: value.version, offset: offset, length: value.value.count, checksum: value.checksum))
                offset += value.value.count
            }
            put(MemoContainer.index(of: entries, at: offset)[...])
        }

        /// A fresh container, piece by piece: the values carried over are read from `base` (and
        /// those spilled from the spill) one at a time, and left out when they can no longer be read.
        package func whole(_ put: (ArraySlice<UInt8>) -> Void) {
            put(MemoContainer.header[...])
            var entries: [Entry] = []
            entries.reserveCapacity(carried.count + spilled.count + added.count)
            var offset = MemoContainer.headerBytes
            /// Writes `value` next, indexed as `entry` at its new place.
            func place(_ value: ArraySlice<UInt8>, as entry: Entry) {
                put(value)
                entries.append(Entry(key: entry.key, step: entry.step, version: entry.version, offset: offset, length: value.count, checksum: entry.checksum))
                offset += value.count
            }
            for entry in carried {
                guard let value = base?.storage.read(entry.offset, entry.length), entry.offset >= MemoContainer.headerBytes else { continue }
                place(value, as: entry)
            }
            for entry in spilled {
                guard let value = spill?.read(entry.offset, entry.length) else { continue }
                place(value, as: entry)
            }
            for value in added {
                place(value.value, as: Entry(key: value.key, step: value.step, version: value.version, offset: 0, length: value.value.count, checksum: value.checksum))
            }
            put(MemoContainer.index(of: entries, at: offset)[...])
        }

        /// The fresh container's bytes in one array.
        package var bytes: [UInt8] {
            var all: [UInt8] = []
            whole { all += $0 }
            return all
        }
    }

    /// The index of `entries` (each key once) sorted by key, then the trailer, for an index that starts at `offset`.
    static func index(of entries: [Entry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.key < $1.key }
        var index = ByteWriter()
        index.bytes.reserveCapacity(sorted.count * entryBytes + trailerBytes)
        for entry in sorted {
            index.uint64(entry.key)
            index.uint64(entry.step)
            index.uint64(entry.version)
            index.uint64(UInt64(entry.offset))
            index.uint64(UInt64(entry.length))
            index.uint64(entry.checksum)
        }
        let checksum = StableHash.checksum(index.bytes)
        var trailer = ByteWriter()
        trailer.uint64(UInt64(offset))
        trailer.uint64(UInt64(sorted.count))
        trailer.uint64(checksum)
        trailer.uint64(StableHash.checksum(trailer.bytes))
        return index.bytes + trailer.bytes
    }
}
