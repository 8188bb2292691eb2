/// A 64-bit FNV-1a hash that is the same in every process.
///
/// Swift's `Hasher` is seeded per process, so anything persisted between builds (the output
/// manifest, item versions) needs a hash of its own. FNV-1a is tiny and fast enough for change
/// detection; it is not meant to resist deliberate collisions.
package struct StableHash: Sendable, Hashable {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    package mutating func combine(_ bytes: some Sequence<UInt8>) {
        // Contiguous bytes (arrays, most strings' UTF-8) take the pointer loop: the generic one is
        // not specialised across modules and costs ten times as much per byte.
        let done: Void? = bytes.withContiguousStorageIfAvailable { combine(buffer: UnsafeRawBufferPointer($0)) }
        if done != nil { return }
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
    }

    package mutating func combine(buffer: UnsafeRawBufferPointer) {
        var v = value
        for byte in buffer {
            v ^= UInt64(byte)
            v &*= 0x0000_0100_0000_01B3
        }
        value = v
    }

    /// Feeds a string, its length first, so ("ab", "c") and ("a", "bc") differ; eight bytes a
    /// step, as `ofContent` does: byte by byte, the strings a one-post rebuild of a 20,000-post
    /// site hashes (every post's and comment's content key) took 40 ms of CPU, now half that.
    package mutating func combine(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { combine(text: UnsafeRawBufferPointer($0)) }
        if done != nil { return }
        var copy = text
        copy.withUTF8 { combine(text: UnsafeRawBufferPointer($0)) }
    }

    private mutating func combine(text raw: UnsafeRawBufferPointer) {
        var v = value
        v ^= 0xFD ^ UInt64(raw.count) << 8
        v &*= 0x0000_0100_0000_01B3
        value = Self.mixed(raw, into: v)
    }

    /// `value` with `raw` mixed in eight bytes a step, the last few one at a time.
    private static func mixed(_ raw: UnsafeRawBufferPointer, into value: UInt64) -> UInt64 {
        var v = value
        let words = raw.count / 8
        for index in 0..<words {
            v ^= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
            v &*= 0x0000_0100_0000_01B3
            v ^= v >> 29
        }
        for index in (words * 8)..<raw.count {
            v ^= UInt64(raw[index])
            v &*= 0x0000_0100_0000_01B3
        }
        return v
    }

    /// A checksum of a stored value (the memo's containers, `MemoContainer`): 32 bytes a step in
    /// four independent lanes, which the processor works on at once, several times `ofContent`'s
    /// speed, where `daybook check` verifies the 45 MB it keeps after every edit. It detects
    /// damage, as `ofContent` does; neither resists a forgery. Not equal to `ofContent`.
    package static func checksum(_ bytes: [UInt8]) -> UInt64 { checksum(bytes[...]) }

    /// `checksum` of a slice, without copying it.
    package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let seed: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
            var (a, b, c, d) = (seed, seed &+ 0x9E37_79B9_7F4A_7C15, seed ^ 0xC2B2_AE3D_27D4_EB4F, seed &- 0x1656_67B1_9E37_79F9)
            @inline(__always) func step(_ lane: inout UInt64, _ word: UInt64) {
                lane ^= word
                lane &*= 0x0000_0100_0000_01B3
                lane ^= lane >> 29
            }
            let blocks = raw.count / 32
            for block in 0..<blocks {
                let base = block * 32
                step(&a, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)))
                step(&b, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self)))
                step(&c, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 16, as: UInt64.self)))
                step(&d, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 24, as: UInt64.self)))
            }
            var v = a
            step(&v, b)
            step(&v, c)
            step(&v, d)
            return mixed(UnsafeRawBufferPointer(rebasing: raw[(blocks * 32)...]), into: v)
        }
    }

    /// A number as a tag byte and its eight bytes: apart from any string (tagged 0xFD) and cheap,
    /// where its decimal text cost a formatting and an allocation, 240,000 times a build for the
    /// dates of a 100,000-comment site.
    package mutating func combine(_ number: Double) { combine(bits: number.bitPattern) }

    package mutating func combine(bits: UInt64) {
        var v = value
        v ^= 0xFE
        v &*= 0x0000_0100_0000_01B3
        for shift in stride(from: 0, to: 64, by: 8) {
            v ^= (bits >> UInt64(shift)) & 0xFF
            v &*= 0x0000_0100_0000_01B3
        }
        value = v
    }

    /// A key for a large file's bytes (a page, a content file), eight bytes per step: several
    /// times faster than `of(_:)` on the 165 MB of a 32,000-page site, and as stable. Not equal to
    /// `of(_:)` for the same bytes; use one or the other for a given record.
    package static func ofContent(_ bytes: [UInt8]) -> UInt64 { ofContent(bytes[...]) }

    /// `ofContent` of a slice, without copying it.
    package static func ofContent(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in mixed(raw, into: 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)) }
    }

    package static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = StableHash()
        hash.combine(bytes)
        return hash.value
    }

    /// Sixteen lowercase hex digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
