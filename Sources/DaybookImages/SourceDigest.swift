/// XXH64 of a source's bytes: the part of the cache key that says "these exact bytes".
///
/// A build hashes every photo on every run, so the hash has to keep up with the disk: XXH64 reads
/// eight bytes per step (several GB/s), where the byte-wise FNV of `StableHash` manages about one.
/// It is not a cryptographic hash; a collision needs deliberately crafted files of one's own.
package enum SourceDigest {
    private static let p1: UInt64 = 11_400_714_785_074_694_791
    private static let p2: UInt64 = 14_029_467_366_897_019_727
    private static let p3: UInt64 = 1_609_587_929_392_839_161
    private static let p4: UInt64 = 9_650_029_242_287_828_579
    private static let p5: UInt64 = 2_870_177_450_012_600_261

    package static func xxh64(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { xxh64(buffer: $0, seed: seed) }
    }

    private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }

    static func xxh64(buffer: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let n = buffer.count
        var i = 0
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        func u32(_ at: Int) -> UInt64 { UInt64(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        var h: UInt64
        if n >= 32 {
            var v1 = seed &+ p1 &+ p2, v2 = seed &+ p2, v3 = seed, v4 = seed &- p1
            while i + 32 <= n {
                v1 = round(v1, u64(i))
                v2 = round(v2, u64(i + 8))
                v3 = round(v3, u64(i + 16))
                v4 = round(v4, u64(i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(merge(merge(merge(h, v1), v2), v3), v4)
        } else {
            h = seed &+ p5
        }
        h &+= UInt64(n)
        while i + 8 <= n {
            h = rotl(h ^ round(0, u64(i)), 27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h = rotl(h ^ (u32(i) &* p1), 23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h = rotl(h ^ (UInt64(buffer[i]) &* p5), 11) &* p1
            i += 1
        }
        h ^= h >> 33
        h &*= p2
        h ^= h >> 29
        h &*= p3
        h ^= h >> 32
        return h
    }
}
