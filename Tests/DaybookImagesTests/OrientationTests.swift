@testable import DaybookImages
import Testing

@Suite("EXIF orientation from bytes")
struct OrientationTests {
    @Test("JPEG APP1", arguments: [1, 3, 6, 8])
    func jpeg(value: Int) {
        let bytes = Fixtures.jpegWithMetadata(width: 64, height: 48, orientation: value)
        #expect(ImageOrientation(reading: bytes).value == value)
    }

    @Test("WebP EXIF chunk and PNG eXIf chunk")
    func webpAndPNG() {
        #expect(ImageOrientation(reading: Fixtures.webpWithMetadata(width: 64, height: 48, orientation: 6)).value == 6)
        #expect(ImageOrientation(reading: Fixtures.pngWithMetadata(width: 64, height: 48, orientation: 8)).value == 8)
    }

    @Test("upright when there is no tag, no EXIF, or the format has none")
    func missing() {
        #expect(ImageOrientation(reading: Fixtures.jpegWithMetadata(width: 64, height: 48, orientation: nil)) == .upright)
        #expect(ImageOrientation(reading: Fixtures.image(width: 64, height: 48, as: .jpeg)) == .upright)
        #expect(ImageOrientation(reading: Array("GIF89a".utf8) + [1, 0, 1, 0]) == .upright)
        #expect(ImageOrientation(reading: [0xFF, 0xD8, 0xFF, 0xE1, 0x00]) == .upright)  // cut short
    }

    @Test("5–8 swap width and height")
    func upright() {
        #expect(ImageOrientation(6)!.upright(width: 640, height: 480) == (480, 640))
        #expect(ImageOrientation(3)!.upright(width: 640, height: 480) == (640, 480))
        #expect(ImageOrientation(9) == nil)
    }

    @Test("the minimal EXIF reads back")
    func minimal() {
        for value in 1...8 {
            #expect(TIFFOrientation.read(TIFFOrientation.minimal(ImageOrientation(value)!)[...])?.value == value)
        }
    }
}
