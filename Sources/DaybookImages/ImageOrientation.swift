/// The EXIF orientation of an image (1–8), read from its bytes without decoding it.
///
/// Cameras store pixels as the sensor saw them and write an orientation tag saying how to turn
/// them; browsers apply the tag, so the render layer's sizes must too. Values 5–8 turn the image
/// a quarter, which swaps its width and height.
///
/// Pure and self-contained (no libvips), so the render layer can use it as it is.
package struct ImageOrientation: Sendable, Hashable, CustomStringConvertible {
    /// The TIFF tag value: 1 is upright, 6 needs a quarter turn clockwise, 8 anticlockwise, 3 a half turn.
    package let value: Int

    package static let upright = ImageOrientation(unchecked: 1)

    /// `nil` for values outside 1–8, which readers treat as upright.
    package init?(_ value: Int) {
        guard (1...8).contains(value) else { return nil }
        self.value = value
    }

    private init(unchecked value: Int) { self.value = value }

    /// Whether showing the image upright swaps its stored width and height.
    package var swapsAxes: Bool { value >= 5 }

    /// The upright width and height of an image stored `width` × `height` pixels.
    package func upright(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    package var description: String { "orientation \(value)" }

    /// The orientation stored in a JPEG (APP1 `Exif`), WebP (`EXIF` chunk) or PNG (`eXIf` chunk);
    /// upright when there is none, or it is damaged, or the format has no EXIF.
    package init(reading bytes: [UInt8]) {
        let tiff: ArraySlice<UInt8>? =
            switch ImageFormat(sniffing: bytes) {
            case .jpeg: JPEGSegments.exifTIFF(in: bytes)
            case .webp: RIFFChunks.exifTIFF(in: bytes)
            case .png: PNGChunks.exifTIFF(in: bytes)
            default: nil
            }
        self = tiff.flatMap(TIFFOrientation.read) ?? .upright
    }
}

/// Reads and writes the one TIFF tag Daybook keeps: orientation (0x0112) in IFD0.
enum TIFFOrientation {
    static func read(_ tiff: ArraySlice<UInt8>) -> ImageOrientation? {
        let t = Array(tiff)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= t.count else { return nil }
            return little ? Int(t[i]) | Int(t[i + 1]) << 8 : Int(t[i]) << 8 | Int(t[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard u16(at + 2) == 3, let value = u16(at + 8) else { return nil }  // SHORT, value in place
                return ImageOrientation(value)
            }
        }
        return nil
    }

    /// The smallest TIFF structure that holds an orientation: a big-endian header and one IFD entry.
    static func minimal(_ orientation: ImageOrientation) -> [UInt8] {
        [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // orientation, SHORT, count 1
            0x00, UInt8(orientation.value), 0x00, 0x00,  // the value, padded
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
    }
}
