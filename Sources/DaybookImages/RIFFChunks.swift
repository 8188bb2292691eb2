/// The chunks of a WebP (RIFF) file, walked without decoding.
enum RIFFChunks {
    struct Chunk {
        var fourCC: String
        var data: Range<Int>
        /// Header, payload and the pad byte that keeps chunks at even offsets.
        var whole: Range<Int>
    }

    /// The TIFF structure of the `EXIF` chunk (some writers put JPEG's `Exif\0\0` before it).
    static func exifTIFF(in b: [UInt8]) -> ArraySlice<UInt8>? {
        guard let exif = chunks(b)?.first(where: { $0.fourCC == "EXIF" }) else { return nil }
        let data = b[exif.data]
        return data.starts(with: JPEGSegments.exifPrefix) ? data.dropFirst(JPEGSegments.exifPrefix.count) : data
    }

    /// Chunks that hold pixels, animation or the colour profile; `EXIF`, `XMP ` and unknown chunks go.
    static let kept: Set<String> = ["VP8X", "ICCP", "ANIM", "ANMF", "ALPH", "VP8 ", "VP8L"]

    /// The file without metadata chunks, with a minimal `EXIF` chunk when `orientation` is not
    /// upright; the VP8X flags and the RIFF size are rewritten to match, and a VP8X left with no
    /// flag is dropped (the simple format holds the same frame). `nil` when damaged.
    static func strip(_ b: [UInt8], keeping orientation: ImageOrientation) -> [UInt8]? {
        guard let chunks = chunks(b) else { return nil }
        var out = Array(b[0..<12])
        out.reserveCapacity(b.count)
        var extendedHeader: Int?
        for chunk in chunks where kept.contains(chunk.fourCC) {
            if chunk.fourCC == "VP8X" { extendedHeader = out.count }
            out += b[chunk.whole]
        }
        if let at = extendedHeader, chunks.first(where: { $0.fourCC == "VP8X" })?.data.count ?? 0 >= 10 {
            out[at + 8] &= ~(0x08 | 0x04)  // no EXIF, no XMP
            if orientation != .upright {
                out[at + 8] |= 0x08
                let tiff = TIFFOrientation.minimal(orientation)
                out += Array("EXIF".utf8) + le32(tiff.count) + tiff
                if tiff.count % 2 == 1 { out.append(0) }
            }
        }
        // With no flag left, the extended header says nothing the frame does not: use the simple format.
        if let at = extendedHeader, out[at + 8] == 0, out.count >= at + 18 {
            out.removeSubrange(at..<at + 18)
        }
        out.replaceSubrange(4..<8, with: le32(out.count - 8))
        return out
    }

    /// Every chunk inside the RIFF size; `nil` if the header is wrong or a chunk runs past the end.
    static func chunks(_ b: [UInt8]) -> [Chunk]? {
        guard b.count >= 12, b.starts(with: Array("RIFF".utf8)), b[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        let end = min(b.count, 8 + readLE32(b, 4))
        var i = 12
        var list: [Chunk] = []
        while i + 8 <= end {
            let size = readLE32(b, i + 4)
            guard size <= end - i - 8 else { return nil }
            let padded = min(end, i + 8 + size + size % 2)
            list.append(Chunk(fourCC: String(decoding: b[i..<i + 4], as: UTF8.self), data: i + 8..<i + 8 + size, whole: i..<padded))
            i = padded
        }
        return list.isEmpty ? nil : list
    }

    private static func readLE32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }

    private static func le32(_ n: Int) -> [UInt8] {
        [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)]
    }
}
