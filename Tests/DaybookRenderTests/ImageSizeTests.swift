import DaybookRender
import Foundation
import Testing

/// Sizes read from real files made with ImageMagick and cwebp (see Images/).
@Suite("Image sizes")
struct ImageSizeTests {
    func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Images/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    @Test("each format's header", arguments: [
        ("png.png", 3, 2),
        ("gif.gif", 9, 4),
        ("jpeg-baseline.jpg", 5, 7),
        ("jpeg-progressive.jpg", 6, 4),
        ("jpeg-exif.jpg", 5, 7),
        ("webp-lossy.webp", 10, 6),
        ("webp-lossless.webp", 11, 5),
        ("webp-extended.webp", 12, 7),
    ])
    func sizes(name: String, width: Int, height: Int) throws {
        #expect(ImageSize(reading: try bytes(name)) == ImageSize(width: width, height: height))
    }

    @Test("the EXIF fixture really has its EXIF segment before the frame")
    func exifComesFirst() throws {
        let data = try bytes("jpeg-exif.jpg")
        let exif = try #require(data.firstRange(of: Array("Exif".utf8)))
        let frame = try #require(data.firstRange(of: [0xFF, 0xC0]))
        #expect(exif.lowerBound < frame.lowerBound)
    }

    @Test("not an image, or a cut-off header, gives no size")
    func garbage() throws {
        #expect(ImageSize(reading: Array("not really a png".utf8)) == nil)
        #expect(ImageSize(reading: []) == nil)
        #expect(ImageSize(reading: Array(try bytes("png.png").prefix(20))) == nil)
        #expect(ImageSize(reading: Array(try bytes("jpeg-exif.jpg").prefix(100))) == nil)
    }
}
