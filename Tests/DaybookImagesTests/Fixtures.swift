import CVips
import CVipsLoader
@testable import DaybookImages
import DaybookTestSupport
import Foundation

/// Test images made at run time with libvips, and metadata spliced in by hand, so no binary
/// fixtures are committed and every byte a test depends on is visible here.
enum Fixtures {
    /// A `width` × `height` picture: red in the leftmost tenth, a gradient elsewhere; so a test can
    /// tell which way up a copy is.
    static func pixels(width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = 3 * (y * width + x)
                if x < width / 10 {
                    rgb[i] = 230; rgb[i + 1] = 20; rgb[i + 2] = 20
                } else {
                    rgb[i] = 40; rgb[i + 1] = UInt8(40 + 150 * x / width); rgb[i + 2] = UInt8(60 + 150 * y / height)
                }
            }
        }
        return rgb
    }

    static func solid(width: Int, height: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) -> [UInt8] {
        Array([[UInt8]](repeating: [r, g, b], count: width * height).joined())
    }

    enum Kind { case jpeg, png, webp }

    static func encode(_ rgb: [UInt8], width: Int, height: Int, as kind: Kind) -> [UInt8] {
        precondition(Vips.start())
        let image = rgb.withUnsafeBytes { vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)! }
        defer { g_object_unref(image) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32 =
            switch kind {
            case .jpeg: dbvips_jpegsave(OpaquePointer(image), &buffer, &length, 90)
            case .png: daybook_vips_pngsave(image, &buffer, &length)
            case .webp: dbvips_webpsave(OpaquePointer(image), &buffer, &length, 90)
            }
        precondition(status == 0, Vips.takeError())
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    static func image(width: Int, height: Int, as kind: Kind) -> [UInt8] {
        encode(pixels(width: width, height: height), width: width, height: height, as: kind)
    }

    // MARK: - Metadata

    static let xmp = Array(
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N"/></rdf:RDF></x:xmpmeta>
        """.utf8)

    /// A big-endian TIFF with IFD0 {Make "SecretCam", Orientation, GPS pointer} and a GPS IFD
    /// {GPSLatitudeRef "N", GPSLatitude 48/1 51/1 30/1}.
    static func exifTIFF(orientation: Int?) -> [UInt8] {
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            be16(tag) + be16(type) + be32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let ifd0Count = orientation == nil ? 2 : 3
        let ifd0Size = 2 + 12 * ifd0Count + 4
        let makeAt = 8 + ifd0Size  // "SecretCam\0" (10 bytes)
        let gpsAt = makeAt + 10
        let gpsSize = 2 + 12 * 2 + 4
        let rationalAt = gpsAt + gpsSize
        var ifd0 = be16(ifd0Count) + entry(0x010F, 2, 10, be32(makeAt))
        if let orientation { ifd0 += entry(0x0112, 3, 1, be16(orientation)) }
        ifd0 += entry(0x8825, 4, 1, be32(gpsAt)) + be32(0)
        let gps = be16(2) + entry(0x0001, 2, 2, Array("N".utf8) + [0]) + entry(0x0002, 5, 3, be32(rationalAt)) + be32(0)
        let rationals = [48, 1, 51, 1, 30, 1].flatMap(be32)
        return Array("MM".utf8) + [0, 42] + be32(8) + ifd0 + Array("SecretCam".utf8) + [0] + gps + rationals
    }

    /// A JPEG with EXIF (GPS, and `orientation` when given), XMP, IPTC and a comment after SOI.
    static func jpegWithMetadata(width: Int, height: Int, orientation: Int?) -> [UInt8] {
        let plain = image(width: width, height: height, as: .jpeg)
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            let n = payload.count + 2
            return [0xFF, marker, UInt8(n >> 8), UInt8(n & 0xFF)] + payload
        }
        let exif = segment(0xE1, JPEGSegments.exifPrefix + exifTIFF(orientation: orientation))
        let xmpSegment = segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp)
        let iptc = segment(0xED, Array("Photoshop 3.0".utf8) + [0] + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 8, 0x1C, 0x02, 0x78, 0, 3] + Array("Bob".utf8))
        let comment = segment(0xFE, Array("taken at home".utf8))
        return Array(plain[0..<2]) + exif + xmpSegment + iptc + comment + Array(plain[2...])
    }

    /// A PNG with eXIf (GPS and orientation), tEXt, iTXt XMP and tIME before its image data.
    static func pngWithMetadata(width: Int, height: Int, orientation: Int?) -> [UInt8] {
        let plain = image(width: width, height: height, as: .png)
        let chunks = PNGChunks.chunks(plain)!
        let idat = chunks.first { $0.type == "IDAT" }!.whole.lowerBound
        let extra = PNGChunks.chunk("eXIf", exifTIFF(orientation: orientation))
            + PNGChunks.chunk("tEXt", Array("Comment".utf8) + [0] + Array("taken at home".utf8))
            + PNGChunks.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp)
            + PNGChunks.chunk("tIME", [0x07, 0xEA, 1, 2, 3, 4, 5])
        return Array(plain[..<idat]) + extra + Array(plain[idat...])
    }

    /// A WebP in the extended format (VP8X) with EXIF and XMP chunks, as cameras' apps write them.
    static func webpWithMetadata(width: Int, height: Int, orientation: Int?) -> [UInt8] {
        let plain = image(width: width, height: height, as: .webp)
        let frameChunk = RIFFChunks.chunks(plain)!.first { $0.fourCC == "VP8 " || $0.fourCC == "VP8L" }!
        let frame = Array(plain[frameChunk.whole])
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le24(v) + [UInt8(v >> 24 & 0xFF)] }
        func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
            Array(fourCC.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        let vp8x = chunk("VP8X", [0x08 | 0x04, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        let body = Array("WEBP".utf8) + vp8x + frame + chunk("EXIF", exifTIFF(orientation: orientation)) + chunk("XMP ", xmp)
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    // MARK: - Reading outputs

    static func decoded(_ bytes: [UInt8]) -> VipsImageRef {
        guard case .success(let image) = VipsImageRef.header(StableBytes(bytes)) else { fatalError(Vips.takeError()) }
        return image
    }

    static func rawPixels(_ bytes: [UInt8]) -> [UInt8] {
        guard case .success(let pixels) = decoded(bytes).rawPixels() else { fatalError(Vips.takeError()) }
        return pixels
    }

    /// The RGB of one pixel of an encoded image.
    static func pixel(_ bytes: [UInt8], x: Int, y: Int) -> (Int, Int, Int) {
        let image = decoded(bytes)
        guard case .success(let rgb) = image.srgbPixels() else { fatalError() }
        let i = 3 * (y * image.width + x)
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// A fresh cache folder in a site folder of its own (`<site>/.daybook-cache/images`), removed
    /// with the test process's fixtures.
    static func cacheFolder() -> URL {
        SiteFixture.temporaryFolder("images").appendingPathComponent(".daybook-cache").appendingPathComponent("images")
    }
}
