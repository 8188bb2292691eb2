import DaybookModel
import Testing

/// The memo's containers verify every value they read with `StableHash.checksum`: damage anywhere
/// in a value, in any of its four lanes or its tail, must change it.
@Suite("Checksums of stored values")
struct ChecksumTests {
    static let bytes: [UInt8] = (0..<203).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    @Test("one bit flipped at any byte, a byte cut or added, or a block of zeros moved, changes the checksum")
    func damage() {
        let sum = StableHash.checksum(Self.bytes)
        for index in Self.bytes.indices {
            var flipped = Self.bytes
            flipped[index] ^= 0x10
            #expect(StableHash.checksum(flipped) != sum, "a bit of byte \(index)")
        }
        #expect(StableHash.checksum(Array(Self.bytes.dropLast())) != sum)
        #expect(StableHash.checksum(Self.bytes + [0]) != sum)
        // Lanes are not interchangeable: the same words in another lane differ.
        let a = [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 1, count: 8) + [UInt8](repeating: 0, count: 16)
        let b = [UInt8](repeating: 1, count: 8) + [UInt8](repeating: 0, count: 24)
        #expect(StableHash.checksum(a) != StableHash.checksum(b))
        #expect(StableHash.checksum([UInt8](repeating: 0, count: 32)) != StableHash.checksum([UInt8](repeating: 0, count: 64)))
    }

    @Test("a slice sums as its bytes do, wherever it starts, and the sum of known bytes is fixed")
    func stable() {
        let padded = [9, 9, 9] + Self.bytes
        #expect(StableHash.checksum(padded[3...]) == StableHash.checksum(Self.bytes))
        #expect(StableHash.checksum([]) == StableHash.checksum([UInt8]()[...]))
        // Stored in every container: a change here is a change of the memo's format.
        #expect(StableHash.checksum(Self.bytes) == Self.recorded)
    }

    static let recorded: UInt64 = 13_274_083_532_162_764_282
}
