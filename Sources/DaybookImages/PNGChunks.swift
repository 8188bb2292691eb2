/// The chunks of a PNG file, walked without decoding.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The TIFF structure of the `eXIf` chunk.
    static func exifTIFF(in b: [UInt8]) -> ArraySlice<UInt8>? {
        guard let chunks = chunks(b) else { return nil }
        guard let exif = chunks.first(where: { $0.type == "eXIf" }) else { return nil }
        let data = b[exif.data]
        return data.starts(with: JPEGSegments.exifPrefix) ? data.dropFirst(JPEGSegments.exifPrefix.count) : data
    }

    /// Ancillary chunks that describe how to show the pixels, not who made them or where.
    /// Every other ancillary chunk goes: `eXIf`, `tEXt`, `zTXt`, `iTXt` (where XMP lives), `tIME`,
    /// and private chunks a decoder ignores anyway.
    static let keptAncillary: Set<String> = [
        "tRNS", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "cICP", "mDCv", "cLLi", "bKGD", "hIST", "pHYs", "sPLT",
        "acTL", "fcTL", "fdAT",
    ]

    /// The file without metadata chunks, with a minimal `eXIf` before the image data when
    /// `orientation` is not upright; `nil` when the chunks are damaged.
    static func strip(_ b: [UInt8], keeping orientation: ImageOrientation) -> [UInt8]? {
        guard let chunks = chunks(b), chunks.last?.type == "IEND" else { return nil }
        var out = signature
        out.reserveCapacity(b.count)
        var wroteOrientation = orientation == .upright
        for chunk in chunks {
            let critical = chunk.type.first?.isUppercase ?? false
            if !wroteOrientation, chunk.type == "IDAT" {
                out += Self.chunk("eXIf", TIFFOrientation.minimal(orientation))
                wroteOrientation = true
            }
            if critical || keptAncillary.contains(chunk.type) { out += b[chunk.whole] }
        }
        return out
    }

    struct Chunk {
        var type: String
        var data: Range<Int>
        var whole: Range<Int>
    }

    /// Every chunk up to IEND (bytes after it are dropped); `nil` if one runs past the end.
    static func chunks(_ b: [UInt8]) -> [Chunk]? {
        guard b.starts(with: signature) else { return nil }
        var i = signature.count
        var list: [Chunk] = []
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[i + 4..<i + 8], as: UTF8.self)
            guard length <= b.count - i - 12 else { return nil }
            list.append(Chunk(type: type, data: i + 8..<i + 8 + length, whole: i..<i + 12 + length))
            i += 12 + length
            if type == "IEND" { break }
        }
        return list
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = UInt32(data.count)
        let body = Array(type.utf8) + data
        let crc = CRC32.of(body)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}

/// The CRC-32 PNG puts after each chunk (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func of(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
