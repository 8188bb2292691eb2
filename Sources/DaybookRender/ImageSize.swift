/// The pixel size of an image, read from its header.
///
/// Written by hand because reading a size needs only a few header bytes per format, and no
/// package on the mirror reads PNG, JPEG, GIF and WebP headers without decoding the image.
package struct ImageSize: Sendable, Hashable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size stored in a PNG, JPEG, GIF or WebP file; `nil` for anything else or a damaged header.
    package init?(reading bytes: [UInt8]) {
        guard let size = Self.png(bytes) ?? Self.gif(bytes) ?? Self.webp(bytes) ?? Self.jpeg(bytes),
            size.width > 0, size.height > 0
        else { return nil }
        self = size
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }

    private static func png(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            b[12...15].elementsEqual(Array("IHDR".utf8))
        else { return nil }
        return ImageSize(width: be16(b, 16) << 16 | be16(b, 18), height: be16(b, 20) << 16 | be16(b, 22))
    }

    private static func gif(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 10, b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) else { return nil }
        return ImageSize(width: le16(b, 6), height: le16(b, 8))
    }

    private static func webp(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 30, b.starts(with: Array("RIFF".utf8)), b[8...11].elementsEqual(Array("WEBP".utf8)) else { return nil }
        switch String(decoding: b[12...15], as: UTF8.self) {
        case "VP8 ":
            // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return ImageSize(width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each.
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ImageSize(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageSize(width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        default:
            return nil
        }
    }

    /// Walks the JPEG segments to the first start-of-frame, skipping EXIF and any other segment before it.
    private static func jpeg(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            var marker = b[i + 1]
            i += 1
            while marker == 0xFF, i + 1 < b.count {  // fill bytes
                i += 1
                marker = b[i]
            }
            i += 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard i + 1 < b.count else { return nil }
            let length = be16(b, i)
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard i + 6 < b.count else { return nil }
                return ImageSize(width: be16(b, i + 5), height: be16(b, i + 3))
            }
            guard length >= 2 else { return nil }
            i += length
        }
        return nil
    }
}
