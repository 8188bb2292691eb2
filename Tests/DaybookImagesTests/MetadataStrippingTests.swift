@testable import DaybookImages
import Testing

/// Originals published at their own path (CONTRACT §7): same pixels, no metadata but orientation.
@Suite("Stripped originals")
struct MetadataStrippingTests {
    /// What must never be in a published file.
    static func expectNoPrivateMetadata(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in ["SecretCam", "http://ns.adobe.com/xap/1.0/", "xmpmeta", "Photoshop 3.0", "8BIM", "taken at home", "tIME"] {
            #expect(!Fixtures.contains(bytes, secret), "found \(secret)", sourceLocation: sourceLocation)
        }
        let fields = Fixtures.decoded(bytes).metadataFieldNames
        #expect(!fields.contains { $0.hasPrefix("exif-ifd3") || $0.hasPrefix("xmp") || $0.hasPrefix("iptc") }, "\(fields)", sourceLocation: sourceLocation)
    }

    @Test("JPEG: APP1, APP13 and COM go; a minimal APP1 keeps orientation 6; pixels equal")
    func jpeg() throws {
        let source = Fixtures.jpegWithMetadata(width: 120, height: 80, orientation: 6)
        let stripped = try #require(MetadataStripping.strippedOriginal(source))
        #expect(Fixtures.rawPixels(stripped) == Fixtures.rawPixels(source))
        #expect(ImageOrientation(reading: stripped).value == 6)
        #expect(JPEGSegments.exifTIFF(in: stripped).map(Array.init) == TIFFOrientation.minimal(ImageOrientation(6)!))
        #expect(Fixtures.decoded(stripped).orientation == 6)  // libvips reads the minimal tag too
        Self.expectNoPrivateMetadata(stripped)
        #expect(stripped.count < source.count)
    }

    @Test("JPEG without an orientation: no EXIF at all; a JFIF header stays first, before the orientation")
    func jpegUpright() throws {
        let source = Fixtures.jpegWithMetadata(width: 120, height: 80, orientation: nil)
        let stripped = try #require(MetadataStripping.strippedOriginal(source))
        #expect(!Fixtures.contains(stripped, "Exif"))
        // libvips writes no JFIF segment with `strip`, so add one to see it kept in front.
        let jfif: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let rotated = Fixtures.jpegWithMetadata(width: 40, height: 30, orientation: 6)
        let withJFIF = try #require(MetadataStripping.strippedOriginal(Array(rotated[0..<2]) + jfif + Array(rotated[2...])))
        #expect(Array(withJFIF[2..<20]) == jfif)
        #expect(Array(withJFIF[20..<24]) == [0xFF, 0xE1, 0x00, 0x22])
        #expect(Fixtures.rawPixels(stripped) == Fixtures.rawPixels(source))
    }

    @Test("JPEG: bytes after EOI (appended depth or gain maps) go")
    func jpegTrailer() throws {
        let source = Fixtures.jpegWithMetadata(width: 40, height: 30, orientation: nil) + Fixtures.jpegWithMetadata(width: 8, height: 8, orientation: 6)
        let stripped = try #require(MetadataStripping.strippedOriginal(source))
        #expect(!Fixtures.contains(stripped, "SecretCam"))
        #expect(Array(stripped.suffix(2)) == [0xFF, 0xD9])
    }

    @Test("PNG: eXIf, tEXt, iTXt (XMP) and tIME go; a minimal eXIf keeps orientation 8; pixels equal")
    func png() throws {
        let source = Fixtures.pngWithMetadata(width: 120, height: 80, orientation: 8)
        let stripped = try #require(MetadataStripping.strippedOriginal(source))
        #expect(Fixtures.rawPixels(stripped) == Fixtures.rawPixels(source))
        #expect(ImageOrientation(reading: stripped).value == 8)
        let types = PNGChunks.chunks(stripped)!.map(\.type)
        #expect(types.filter { $0 != "IDAT" } == ["IHDR", "pHYs", "eXIf", "IEND"])
        #expect(types.firstIndex(of: "eXIf")! < types.firstIndex(of: "IDAT")!)
        Self.expectNoPrivateMetadata(stripped)
    }

    @Test("WebP: EXIF and XMP chunks go, VP8X flags and RIFF size follow; orientation 6 kept; pixels equal")
    func webp() throws {
        let source = Fixtures.webpWithMetadata(width: 120, height: 80, orientation: 6)
        let stripped = try #require(MetadataStripping.strippedOriginal(source))
        #expect(Fixtures.rawPixels(stripped) == Fixtures.rawPixels(source))
        let chunks = try #require(RIFFChunks.chunks(stripped))
        #expect(chunks.map(\.fourCC) == ["VP8X", "VP8 ", "EXIF"])
        #expect(stripped[20] == 0x08)  // VP8X flags: EXIF only, no XMP
        let riffSize = Int(stripped[4]) | Int(stripped[5]) << 8 | Int(stripped[6]) << 16 | Int(stripped[7]) << 24
        #expect(riffSize == stripped.count - 8)
        #expect(ImageOrientation(reading: stripped).value == 6)
        Self.expectNoPrivateMetadata(stripped)
    }

    @Test("WebP without orientation: no EXIF chunk, and the flagless VP8X header goes")
    func webpUpright() throws {
        let source = Fixtures.webpWithMetadata(width: 40, height: 30, orientation: nil)
        let stripped = try #require(MetadataStripping.strippedOriginal(source))
        #expect(RIFFChunks.chunks(stripped)!.map(\.fourCC) == ["VP8 "])
        #expect(Fixtures.rawPixels(stripped) == Fixtures.rawPixels(source))
    }

    @Test("damaged containers are refused, GIF and SVG are kept as they are")
    func damaged() {
        #expect(MetadataStripping.strippedOriginal([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF]) == nil)
        #expect(MetadataStripping.strippedOriginal(Array(Fixtures.image(width: 8, height: 8, as: .png).prefix(40))) == nil)
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        #expect(MetadataStripping.strippedOriginal(gif) == gif)
    }
}
