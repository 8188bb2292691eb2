@testable import DaybookIncremental
import DaybookModel
import DaybookTestSupport
import Synchronization
import Testing

/// The memo's one on-disk format: what is stored is read back under its step, id and version
/// only; damage never gives a wrong value; the bytes are fixed for a format version.
@Suite("Memo container")
struct MemoContainerTests {
    static let words = MemoStep("test.words")
    static let files = MemoStep("test.files")

    static func sample() -> MemoTable {
        var table = MemoTable()
        table.store(words, 1, version: 10, value: Array("lighthouse".utf8))
        table.store(words, 2, version: 20, value: Array("tram".utf8))
        table.store(files, 1, version: 30, value: [1, 2, 3])
        return table
    }

    @Test("a value is found under its step, id and version, and under nothing else, before and after a save")
    func roundTrip() throws {
        let table = Self.sample()
        let saved = MemoTable(container: table.encoded()[...])
        for memo in [table, saved] {
            #expect(memo.value(Self.words, 1, version: 10).map(Array.init) == Array("lighthouse".utf8))
            #expect(memo.value(Self.words, 2, version: 20).map(Array.init) == Array("tram".utf8))
            #expect(memo.value(Self.files, 1, version: 30).map(Array.init) == [1, 2, 3])
            #expect(memo.value(Self.words, 1, version: 11) == nil, "another version of the inputs")
            #expect(memo.value(Self.files, 2, version: 20) == nil, "the same id of another step")
            #expect(memo.value(Self.words, 3, version: 10) == nil)
        }
        #expect(!saved.changed)
    }

    @Test("a stored value replaces the saved one; retain drops a step's other ids, and a save leaves them out")
    func replaceAndRetain() {
        var table = MemoTable(container: Self.sample().encoded()[...])
        table.store(Self.words, 1, version: 11, value: Array("harbour".utf8))
        table.retain(Self.words, ids: [1])
        #expect(table.changed)
        let saved = MemoTable(container: table.encoded()[...])
        #expect(saved.value(Self.words, 1, version: 10) == nil)
        #expect(saved.value(Self.words, 1, version: 11).map(Array.init) == Array("harbour".utf8))
        #expect(saved.value(Self.words, 2, version: 20) == nil, "retain dropped it")
        #expect(saved.value(Self.files, 1, version: 30).map(Array.init) == [1, 2, 3], "another step's values stay")
    }

    @Test("a value filed once the save is prepared replaces the carried or made one under its id, or removes it; the rest stay, appended or fresh")
    func filing() {
        var table = MemoTable(container: Self.sample().encoded()[...])
        table.store(Self.files, 2, version: 40, value: [4])
        let prepared = table.prepared()
        // In place of a carried value, and of a made one; and a value removed.
        let filed = prepared.filing(Self.words, 1, version: 0, value: Array("beacon".utf8)).filing(Self.files, 2, version: 41, value: [5])
        let removed = prepared.filing(Self.words, 2, version: 0, value: nil)
        var appended = Self.sample().encoded()
        filed.appended(at: appended.count) { appended += $0 }
        for bytes in [filed.bytes, appended] {
            let saved = MemoTable(container: bytes[...])
            #expect(saved.value(Self.words, 1, version: 0).map(Array.init) == Array("beacon".utf8))
            #expect(saved.value(Self.words, 1, version: 10) == nil)
            #expect(saved.value(Self.files, 2, version: 41).map(Array.init) == [5])
            #expect(saved.value(Self.files, 2, version: 40) == nil)
            #expect(saved.value(Self.words, 2, version: 20).map(Array.init) == Array("tram".utf8))
            #expect(saved.value(Self.files, 1, version: 30).map(Array.init) == [1, 2, 3])
        }
        let without = MemoTable(container: removed.bytes[...])
        #expect(without.value(Self.words, 2, version: 20) == nil)
        #expect(without.value(Self.files, 2, version: 40).map(Array.init) == [4])
        #expect(without.value(Self.words, 1, version: 10).map(Array.init) == Array("lighthouse".utf8))
    }

    @Test("results kept decoded are found by id and version, each step's apart, and leave with a new version, a forget or a retain; a taken view stays as taken")
    func keptDecoded() {
        var table = MemoTable()
        table.keepsDecoded = true
        table.keepDecoded(Self.words, 1, version: 10, "lighthouse")
        table.keepDecoded(Self.words, 2, version: 20, "harbour")
        table.keepDecoded(Self.files, 1, version: 10, [7, 8])
        let view = table.decodedResults(of: Self.words, as: String.self)
        #expect(view.value(1, version: 10) == "lighthouse")
        #expect(view.value(1, version: 11) == nil)
        #expect(table.decoded(Self.files, 1, version: 10, as: [Int].self) == [7, 8])
        #expect(table.decoded(Self.files, 1, version: 10, as: String.self) == nil, "another type than kept")
        #expect(table.decodedResults(of: Self.files, as: String.self).value(1, version: 10) == nil)

        table.store(Self.words, 1, version: 11, value: Array("lantern".utf8))
        #expect(table.decoded(Self.words, 1, version: 10, as: String.self) == nil, "stored from other inputs")
        table.forgetDecoded(Self.files, 1)
        #expect(table.decoded(Self.files, 1, version: 10, as: [Int].self) == nil)
        table.retain(Self.words, ids: [1])
        #expect(table.decoded(Self.words, 2, version: 20, as: String.self) == nil, "not retained")
        #expect(view.value(1, version: 10) == "lighthouse" && view.value(2, version: 20) == "harbour", "the view as taken")
    }

    @Test("a result stored decoded is encoded only when its bytes are asked for or the table is saved; a table that spills encodes it at once")
    func storedDecoded() {
        let encodings = Mutex(0)
        let encode: @Sendable () -> [UInt8] = {
            encodings.withLock { $0 += 1 }
            return Array("lighthouse".utf8)
        }
        var process = MemoTable()
        process.keepsDecoded = true
        process.store(Self.words, 1, version: 10, decoded: "lighthouse", encode: encode)
        #expect(process.decoded(Self.words, 1, version: 10, as: String.self) == "lighthouse")
        #expect(process.changed)
        #expect(encodings.withLock { $0 } == 0)
        #expect(process.value(Self.words, 1, version: 10).map(Array.init) == Array("lighthouse".utf8))
        #expect(encodings.withLock { $0 } == 1)
        let saved = MemoTable(container: process.encoded()[...])
        #expect(encodings.withLock { $0 } == 2)
        #expect(saved.value(Self.words, 1, version: 10).map(Array.init) == Array("lighthouse".utf8))
        #expect(process.value(Self.words, 1, version: 11) == nil, "another version of the inputs")

        // `daybook build`'s table: encoded when saved (beside the build's commit), never kept decoded.
        var plain = MemoTable()
        plain.store(Self.words, 1, version: 10, decoded: "lighthouse", encode: encode)
        #expect(encodings.withLock { $0 } == 2)
        #expect(plain.decoded(Self.words, 1, version: 10, as: String.self) == nil, "a plain table keeps nothing decoded")
        let prepared = plain.prepared()
        #expect(encodings.withLock { $0 } == 3)
        #expect(MemoTable(container: prepared.bytes[...]).value(Self.words, 1, version: 10).map(Array.init) == Array("lighthouse".utf8))

        // A first build's table writes each result as it is stored.
        let spill = BufferSpill()
        var spilling = MemoTable()
        spilling.spill = spill
        spilling.store(Self.words, 1, version: 10, decoded: "lighthouse", encode: encode)
        #expect(encodings.withLock { $0 } == 4)
        #expect(spill.written.withLock { $0 } == Array("lighthouse".utf8))
        #expect(spilling.value(Self.words, 1, version: 10).map(Array.init) == Array("lighthouse".utf8))
        #expect(encodings.withLock { $0 } == 4)
    }

    /// The bytes of a known table. When this fails, the container's format (or a step's value
    /// encoding) changed: bump `MemoContainer.formatVersion`, so that no build reads a memo of
    /// the old format as the new, and record the new bytes here.
    @Test("format version 5: the bytes of a known table are fixed, and a container of another version is not read")
    func formatVersion() {
        let bytes = Self.sample().encoded()
        #expect(MemoContainer.formatVersion == 5)
        #expect(Self.hex(bytes) == Self.recorded, "the container's bytes changed")
        #expect(MemoContainer(bytes: bytes[...], formatVersion: MemoContainer.formatVersion + 1) == nil)
        var bumped = bytes
        bumped[MemoContainer.magic.count] &+= 1
        #expect(MemoTable(container: bumped[...]).value(Self.words, 1, version: 10) == nil)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// Magic, version 5; the values by key ([1, 2, 3], "lighthouse", "tram"); then by key: key,
    /// step, version, offset, length, checksum; then the trailer: the index's offset, 3 entries,
    /// the index's checksum, the trailer's.
    static let recorded =
        "646179626f6f6b2d6d656d6f0a" + "05000000"
        + "010203" + "6c69676874686f757365" + "7472616d"
        + "bab1be8f82cfdc09805c889c977ba30d1e0000000000000011000000000000000300000000000000fa47c6272db3dc2f"
        + "03315a82a1a4e212a98e48216777f3b00a0000000000000014000000000000000a00000000000000d50636bbc9d4d393"
        + "a0528c61864ff2b5a98e48216777f3b014000000000000001e000000000000000400000000000000756f5f543a3b28c5"
        + "2200000000000000" + "0300000000000000" + "a9c6c94f386c6f2d" + "08aeab5ccb829567"

    @Test("a save appends the values its build made and a new index; what it carries is read where it was, and the earlier saves' index is gone")
    func append() {
        var bytes = Self.sample().encoded()
        var table = MemoTable(container: bytes[...])
        table.store(Self.words, 1, version: 11, value: Array("harbour".utf8))
        table.retain(Self.files, ids: [])
        let prepared = table.prepared()
        let before = bytes.count
        prepared.appended(at: bytes.count) { bytes += $0 }
        // "harbour", then two entries of 48 bytes and the trailer.
        #expect(bytes.count == before + 7 + 2 * 48 + 32)
        let read = MemoTable(container: bytes[...])
        #expect(read.value(Self.words, 1, version: 11).map(Array.init) == Array("harbour".utf8))
        #expect(read.value(Self.words, 2, version: 20).map(Array.init) == Array("tram".utf8), "carried where it was")
        #expect(read.value(Self.words, 1, version: 10) == nil, "replaced")
        #expect(read.value(Self.files, 1, version: 30) == nil, "dropped")
        #expect(read.encoded() == MemoTable(container: table.encoded()[...]).encoded(), "the same table as a fresh container")
        // Cut anywhere in what the save appended, the container has no end to read.
        for cut in (before + 1)..<bytes.count {
            #expect(MemoTable(container: bytes.prefix(cut)).value(Self.words, 2, version: 20) == nil)
        }
    }

    @Test("a save compacts once appending would leave more dead bytes than live ones and a MB")
    func compaction() {
        let big = [UInt8](repeating: 7, count: 300_000)
        var table = MemoTable()
        table.store(Self.files, 1, version: 1, value: big)
        var bytes = table.encoded()
        var saves = 0
        for version in 2...20 {
            var next = MemoTable(container: bytes[...])
            next.store(Self.files, 1, version: UInt64(version), value: big)
            let prepared = next.prepared()
            if prepared.isWorthCompacting {
                bytes = prepared.bytes
                break
            }
            prepared.appended(at: bytes.count) { bytes += $0 }
            saves += 1
        }
        // 300 KB live: the fifth 300 KB value would leave 1.2 MB dead, over 300 KB and a MB.
        #expect(saves == 4)
        #expect(bytes.count < 400_000)
        #expect(MemoTable(container: bytes[...]).value(Self.files, 1, version: 6).map(Array.init) == big)
    }

    @Test("damage anywhere, any byte changed or the file cut short, gives the stored value or none, never another")
    func damage() {
        let bytes = Self.sample().encoded()
        let expected: [(MemoStep, UInt64, UInt64, [UInt8])] = [
            (Self.words, 1, 10, Array("lighthouse".utf8)), (Self.words, 2, 20, Array("tram".utf8)), (Self.files, 1, 30, [1, 2, 3]),
        ]
        var damaged: [[UInt8]] = (0..<bytes.count).map { Array(bytes.prefix($0)) }
        for position in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var copy = bytes
                copy[position] ^= flip
                damaged.append(copy)
            }
        }
        var found = 0
        for copy in damaged {
            let table = MemoTable(container: copy[...])
            for (step, id, version, value) in expected {
                guard let read = table.value(step, id, version: version) else { continue }
                #expect(Array(read) == value)
                found += 1
            }
            // A save of a damaged table reads back as well.
            _ = MemoTable(container: table.encoded()[...]).value(Self.words, 1, version: 10)
        }
        // Flips in one value's bytes leave the others readable.
        #expect(found > 0)
    }

    @Test("a sealed trailer whose index would not fit, or would start inside the header, is refused without trapping")
    func forgedTrailers() {
        let header = MemoContainer.header
        for (padding, count) in [(0, 1), (48, 2), (48, 1 << 40), (100, 3), (0, 0)] {
            var bytes = header + [UInt8](repeating: 0, count: padding)
            let end = bytes.count + 32
            var trailer = ByteWriter()
            // The index's offset as the count would put it, wrapped as an unchecked subtraction would.
            trailer.uint64(UInt64(end - 32) &- UInt64(count) &* 48)
            trailer.uint64(UInt64(count))
            trailer.uint64(StableHash.checksum([UInt8](repeating: 0, count: min(padding, count * 48))))
            trailer.uint64(StableHash.checksum(trailer.bytes))
            bytes += trailer.bytes
            let table = MemoTable(container: bytes[...])
            #expect(table.isRead == (count == 0 || count * 48 <= padding))
        }
    }

    @Test("random tables of random values: every value read back after a save, none under another version")
    func randomTables() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            var table = MemoTable()
            var stored: [UInt64: (UInt64, [UInt8])] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let id = UInt64.random(in: 0..<30, using: &random)
                let value = (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let version = random.next()
                table.store(Self.words, id, version: version, value: value)
                stored[id] = (version, value)
            }
            let saved = MemoTable(container: table.encoded()[...])
            for (id, (version, value)) in stored {
                #expect(saved.value(Self.words, id, version: version).map(Array.init) == value)
                #expect(saved.value(Self.words, id, version: version &+ 1) == nil)
            }
        }
    }

    @Test("variable-length numbers read back, signed and unsigned; a number cut short or too long is refused")
    func memoBytes() {
        var writer = MemoWriter()
        let signed = [0, 1, -1, 63, -64, 1 << 40, -(1 << 40), Int.max, Int.min]
        let unsigned: [UInt64] = [0, 127, 128, 16_383, 16_384, UInt64.max]
        for value in signed { writer.signed(value) }
        for value in unsigned { writer.unsigned(value) }
        writer.string("Cabo da Roca · 東京")
        var reader = MemoReader(writer.bytes[...])
        #expect(signed.map { _ in reader.signed() } == signed.map { $0 })
        #expect(unsigned.map { _ in reader.unsigned() } == unsigned.map { $0 })
        #expect(reader.string() == "Cabo da Roca · 東京")
        #expect(reader.atEnd)
        var cut = MemoReader(Array(writer.bytes.prefix(1) + [0x80])[...])
        _ = cut.signed()
        #expect(cut.signed() == nil)
        var long = MemoReader([UInt8](repeating: 0xFF, count: 11)[...])
        #expect(long.unsigned() == nil)
        var count = MemoReader([0x05, 0x61][...])
        #expect(count.string() == nil, "a length past the end")
    }
}

/// A spill in memory: what a first build's table writes as it stores.
final class BufferSpill: MemoSpill {
    let written = Mutex<[UInt8]>([])

    func write(_ bytes: ArraySlice<UInt8>) -> Int? {
        written.withLock { written in
            defer { written += bytes }
            return written.count
        }
    }

    func read(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        written.withLock { written in offset + length <= written.count ? written[offset..<(offset + length)] : nil }
    }
}
