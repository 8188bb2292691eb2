import DaybookModel

/// The one on-disk form of the incremental layer's memo (`<site>/.daybook-cache/memo`): a
/// header, an index sorted by key, then the values, each at its offset.
///
/// Read by position: opening it checks the header and the index's checksum, and nothing else;
/// a value is bounds-checked and its own checksum verified only when a build asks for it, so a
/// one-post edit reads the few entries it needs out of tens of thousands. Any damage makes a
/// value (or, in the header or index, the whole memo) missing, which only costs its work again:
/// the folder is untrusted, so nothing here trusts a length or an offset.
///
/// ```
/// "daybook-memo\n"   magic
/// u32                formatVersion
/// u32                entry count n
/// u64                checksum of the index
/// n × 48 bytes       key, step, version, offset, length, checksum (u64 each), by key
/// values             concatenated
/// ```
package struct MemoContainer: Sendable {
    package static let magic = Array("daybook-memo\n".utf8)
    /// Bump when the layout above or any step's value encoding changes: a container of another
    /// version is not read (`MemoContainerTests` holds the bytes of a known table to this).
    package static let formatVersion: UInt32 = 3
    static let entryBytes = 48
    static let headerBytes = magic.count + 4 + 4 + 8

    /// One index entry, as stored.
    struct Entry: Sendable {
        var key: UInt64
        var step: UInt64
        var version: UInt64
        var offset: Int
        var length: Int
        var checksum: UInt64
    }

    let bytes: ArraySlice<UInt8>
    let count: Int
    /// Where the index starts in `bytes`.
    private let indexStart: Int
    /// Where the values start in `bytes`.
    private let valuesStart: Int

    /// The container in `bytes`, or `nil` when its header or index is damaged or of another format version.
    package init?(bytes: ArraySlice<UInt8>, formatVersion: UInt32 = Self.formatVersion) {
        var reader = ByteReader(bytes, at: bytes.startIndex)
        guard bytes.count >= Self.headerBytes, bytes.prefix(Self.magic.count).elementsEqual(Self.magic) else { return nil }
        reader.index += Self.magic.count
        guard reader.uint32() == formatVersion, let count = reader.uint32(), let checksum = reader.uint64() else { return nil }
        let indexBytes = Int(count) * Self.entryBytes
        guard bytes.endIndex - reader.index >= indexBytes else { return nil }
        guard StableHash.ofContent(bytes[reader.index..<(reader.index + indexBytes)]) == checksum else { return nil }
        self.bytes = bytes
        self.count = Int(count)
        indexStart = reader.index
        valuesStart = reader.index + indexBytes
    }

    func entry(at position: Int) -> Entry {
        var reader = ByteReader(bytes, at: indexStart + position * Self.entryBytes)
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
        var reader = ByteReader(bytes, at: indexStart + position * Self.entryBytes + 8)
        return reader.uint64() ?? 0
    }

    private func keyAt(_ position: Int) -> UInt64 {
        var reader = ByteReader(bytes, at: indexStart + position * Self.entryBytes)
        return reader.uint64() ?? 0
    }

    /// The value of `entry`, or `nil` when it lies outside the container or fails its checksum.
    func value(of entry: Entry) -> ArraySlice<UInt8>? {
        storedValue(of: entry).flatMap { StableHash.ofContent($0) == entry.checksum ? $0 : nil }
    }

    /// The bytes of `entry` as stored, unchecked, or `nil` when they lie outside the container:
    /// carried into the next container with their checksum, which a read then verifies.
    func storedValue(of entry: Entry) -> ArraySlice<UInt8>? {
        guard entry.offset >= 0, entry.length >= 0, entry.offset <= bytes.endIndex - valuesStart,
            entry.length <= bytes.endIndex - valuesStart - entry.offset
        else { return nil }
        return bytes[(valuesStart + entry.offset)..<(valuesStart + entry.offset + entry.length)]
    }

    /// One entry to encode; `checksum` is `nil` for a new value, and the stored one for a value
    /// carried over from an earlier container (hashing every value again cost most of a save).
    struct Encoded {
        var key: UInt64
        var step: UInt64
        var version: UInt64
        var value: ArraySlice<UInt8>
        var checksum: UInt64?
    }

    /// A container ready to write: its header and index made, its values still where they were
    /// (a large site's memo is over 100 MB, which a second copy in one array would double).
    package struct Prepared: Sendable {
        let head: [UInt8]
        let values: [ArraySlice<UInt8>]

        /// Hands the container's bytes to `put`, piece by piece, in order.
        package func write(_ put: (ArraySlice<UInt8>) -> Void) {
            put(head[...])
            for value in values { put(value) }
        }

        package var bytes: [UInt8] {
            var all = head
            for value in values { all += value }
            return all
        }
    }

    /// The container of `entries` (each key once), sorted by key.
    static func prepare(_ entries: [Encoded]) -> Prepared {
        let sorted = entries.sorted { $0.key < $1.key }
        var index = ByteWriter()
        index.bytes.reserveCapacity(sorted.count * entryBytes)
        var offset = 0
        for entry in sorted {
            let checksum = entry.checksum ?? StableHash.ofContent(entry.value)
            index.uint64(entry.key)
            index.uint64(entry.step)
            index.uint64(entry.version)
            index.uint64(UInt64(offset))
            index.uint64(UInt64(entry.value.count))
            index.uint64(checksum)
            offset += entry.value.count
        }
        let checksum = StableHash.ofContent(index.bytes)
        var head = ByteWriter()
        head.bytes.reserveCapacity(headerBytes + index.bytes.count)
        head.bytes += magic
        head.uint32(formatVersion)
        head.uint32(UInt32(sorted.count))
        head.uint64(checksum)
        head.bytes += index.bytes
        return Prepared(head: head.bytes, values: sorted.map(\.value))
    }
}
