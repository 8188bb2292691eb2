/// The segments of a JPEG file, walked without decoding: enough to find EXIF and to strip metadata.
enum JPEGSegments {
    /// The TIFF structure of the first APP1 `Exif` segment before the image data.
    static func exifTIFF(in b: [UInt8]) -> ArraySlice<UInt8>? {
        var found: ArraySlice<UInt8>?
        _ = walk(b) { marker, segment in
            if found == nil, marker == 0xE1, let payload = payload(segment), payload.starts(with: exifPrefix) {
                found = payload.dropFirst(exifPrefix.count)
            }
            return marker != 0xDA  // the header ends where the image data starts
        }
        return found
    }

    /// The file with only the segments a decoder needs (and the colour profile), plus a minimal
    /// APP1 holding `orientation` when it is not upright; `nil` when the segments are damaged.
    ///
    /// Kept: frame, tables, scans, restart markers, APP0 `JFIF` (density), APP2 `ICC_PROFILE`
    /// (dropping it would change the colours a browser shows for wide-gamut phone photos) and
    /// APP14 `Adobe` (it says how to read CMYK/YCCK). Everything else goes: APP1 (EXIF, XMP and
    /// extended XMP), APP13 (IPTC and Photoshop), other APPn (maker notes, MPF, FlashPix), COM,
    /// and any bytes after EOI (phones append depth maps and gain maps there, with EXIF of their own).
    static func strip(_ b: [UInt8], keeping orientation: ImageOrientation) -> [UInt8]? {
        var kept: [ArraySlice<UInt8>] = []
        var leadingAPP0 = 0
        let complete = walk(b) { marker, segment in
            if keeps(marker, segment) {
                if marker == 0xE0, kept.count == leadingAPP0 { leadingAPP0 += 1 }
                kept.append(segment)
            }
            return true
        }
        guard complete else { return nil }
        if orientation != .upright {
            let tiff = TIFFOrientation.minimal(orientation)
            let length = 2 + exifPrefix.count + tiff.count
            let app1 = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exifPrefix + tiff
            kept.insert(app1[...], at: leadingAPP0)
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(b.count)
        for segment in kept { out += segment }
        return out
    }

    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    private static func keeps(_ marker: UInt8, _ segment: ArraySlice<UInt8>) -> Bool {
        func tagged(_ name: String) -> Bool { payload(segment)?.starts(with: Array(name.utf8)) ?? false }
        switch marker {
        case 0xE0: return tagged("JFIF\0") || tagged("JFXX\0")
        case 0xE2: return tagged("ICC_PROFILE\0")
        case 0xEE: return tagged("Adobe")
        case 0xE1...0xEF, 0xFE: return false
        default: return true
        }
    }

    /// The bytes after a segment's marker and length.
    private static func payload(_ segment: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        segment.count >= 4 ? segment.dropFirst(4) : nil
    }

    /// Calls `visit` with each marker after SOI and its whole segment (marker, length, payload, and
    /// for a scan its entropy-coded data), up to and including EOI. `visit` returns `false` to stop.
    /// Returns `false` when the bytes are not a well-formed run of segments.
    private static func walk(_ b: [UInt8], _ visit: (UInt8, ArraySlice<UInt8>) -> Bool) -> Bool {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return false }
        var i = 2
        while i < b.count {
            guard b[i] == 0xFF else { return false }
            while i + 1 < b.count, b[i + 1] == 0xFF { i += 1 }  // fill bytes
            guard i + 1 < b.count else { return false }
            let start = i
            let marker = b[i + 1]
            i += 2
            if marker == 0xD9 { return visit(marker, b[start..<i]) || true }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                guard visit(marker, b[start..<i]) else { return true }
                continue
            }
            guard i + 2 <= b.count else { return false }
            let length = Int(b[i]) << 8 | Int(b[i + 1])
            guard length >= 2, i + length <= b.count else { return false }
            i += length
            if marker == 0xDA {
                // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
                while i < b.count {
                    if b[i] == 0xFF, i + 1 < b.count {
                        let next = b[i + 1]
                        if next == 0x00 || (0xD0...0xD7).contains(next) {
                            i += 2
                            continue
                        }
                        if next != 0xFF { break }
                    }
                    i += 1
                }
            }
            guard visit(marker, b[start..<i]) else { return true }
        }
        // A file cut short after its last scan still shows; keep what there is.
        return true
    }
}
