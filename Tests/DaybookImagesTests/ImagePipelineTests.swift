import CVips
@testable import DaybookImages
import DaybookTestSupport
import Foundation
import Testing

@Suite("Image pipeline")
struct ImagePipelineTests {
    func pipeline(_ settings: ImageSettings = ImageSettings()) throws -> ImagePipeline {
        try ImagePipeline(settings: settings, cacheFolder: Fixtures.cacheFolder())
    }

    func sizes(_ image: ProcessedImage) -> [String] { image.copies.map { "\($0.width)x\($0.height)" } }

    func bytes(_ file: ImageFile) throws -> [UInt8] { Array(try Data(contentsOf: file.cacheFile)) }

    /// Each file's real size, decoded, is what the result says.
    func expectTrueSizes(_ image: ProcessedImage) throws {
        for file in image.copies + [image.thumbnail!] {
            let decoded = Fixtures.decoded(try bytes(file))
            #expect("\(decoded.width)x\(decoded.height)" == "\(file.width)x\(file.height)", "\(file.outputPath)")
        }
    }

    @Test("landscape 2000×1500: 480, 960, 1600 and a 320 square, as WebP")
    func landscape() throws {
        let image = try pipeline().process(source: Fixtures.image(width: 2000, height: 1500, as: .jpeg), path: "images/photo.jpg")
        #expect(image.uprightSize == PixelSize(width: 2000, height: 1500))
        #expect(sizes(image) == ["480x360", "960x720", "1600x1200"])
        #expect(image.copies.map(\.outputPath) == ["images/photo.480.webp", "images/photo.960.webp", "images/photo.1600.webp"])
        #expect(image.thumbnail?.outputPath == "images/photo.320x320.webp")
        #expect(image.original?.outputPath == "images/photo.jpg")
        #expect(image.treatment == .responsive)
        #expect(image.wasEncoded)
        try expectTrueSizes(image)
        for file in image.copies { #expect(ImageFormat(sniffing: try bytes(file)) == .webp) }
    }

    @Test("portrait 1500×2000: 480, 960 and its own 1500")
    func portrait() throws {
        let image = try pipeline().process(source: Fixtures.image(width: 1500, height: 2000, as: .png), path: "p.png")
        #expect(sizes(image) == ["480x640", "960x1280", "1500x2000"])
        #expect(image.uprightSize?.isPortrait == true)
        try expectTrueSizes(image)
    }

    @Test("EXIF orientation 6: stored 1200×900, upright 900×1200, copies turned and untagged")
    func orientation6() throws {
        let source = Fixtures.jpegWithMetadata(width: 1200, height: 900, orientation: 6)
        let image = try pipeline().process(source: source, path: "images/phone.jpg")
        #expect(image.uprightSize == PixelSize(width: 900, height: 1200))
        #expect(image.orientation.value == 6)
        #expect(sizes(image) == ["480x640", "900x1200"])
        try expectTrueSizes(image)
        // The red band on the stored image's left is at the top once turned clockwise.
        let copy = try bytes(image.copies[0])
        let top = Fixtures.pixel(copy, x: 240, y: 10), bottom = Fixtures.pixel(copy, x: 240, y: 630)
        #expect(top.0 > 180 && top.1 < 80, "\(top)")
        #expect(bottom.0 < 100, "\(bottom)")
        #expect(Fixtures.decoded(copy).orientation == 1)
        #expect(ImageOrientation(reading: copy) == .upright)
    }

    @Test("a photo 1,200 px wide or more whose candidates are all narrower gets a 1,200 px copy for link previews, outside the srcset (CONTRACT §12)")
    func linkPreviewCopy() throws {
        let narrow = try pipeline(ImageSettings(widths: [480, 960])).process(source: Fixtures.image(width: 1500, height: 1000, as: .jpeg), path: "images/wide.jpg")
        #expect(sizes(narrow) == ["480x320", "960x640"])
        let share = try #require(narrow.share)
        #expect("\(share.outputPath) \(share.width)x\(share.height)" == "images/wide.1200.webp 1200x800")
        let decoded = Fixtures.decoded(try bytes(share))
        #expect("\(decoded.width)x\(decoded.height)" == "1200x800")
        #expect(!Fixtures.contains(try bytes(share), "Exif"))

        // Exactly as wide as the widest of the default widths: no candidate at that width (§7), so a share copy.
        let exact = try pipeline().process(source: Fixtures.image(width: 1600, height: 1200, as: .png), path: "exact.png")
        #expect(sizes(exact) == ["480x360", "960x720"])
        #expect(exact.share.map { "\($0.outputPath) \($0.width)x\($0.height)" } == "exact.1200.webp 1200x900")

        // A candidate wide enough, or a photo too narrow for one: no share copy.
        #expect(try pipeline().process(source: Fixtures.image(width: 2000, height: 1500, as: .jpeg), path: "a.jpg").share == nil)
        #expect(try pipeline().process(source: Fixtures.image(width: 1300, height: 900, as: .jpeg), path: "b.jpg").share == nil)
        #expect(try pipeline(ImageSettings(widths: [480, 960])).process(source: Fixtures.image(width: 1199, height: 900, as: .jpeg), path: "c.jpg").share == nil)
    }

    @Test("a cache entry made before link-preview copies, for a photo that needs one, is made again; others are reused")
    func entryWithoutShareCopy() throws {
        let folder = Fixtures.cacheFolder()
        let pipeline = try ImagePipeline(settings: ImageSettings(widths: [480, 960]), cacheFolder: folder)
        let wide = Fixtures.image(width: 1500, height: 1000, as: .jpeg), narrow = Fixtures.image(width: 900, height: 600, as: .jpeg)
        for source in [wide, narrow] {
            _ = try pipeline.process(source: source, path: "x.jpg")
            // What an older build wrote: the manifest without its share copy.
            let manifest = folder.appending(path: pipeline.cacheKey(for: source) + "/manifest.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
            object["share"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: manifest)
        }
        #expect(try pipeline.process(source: wide, path: "x.jpg").wasEncoded)
        #expect(try pipeline.process(source: wide, path: "x.jpg").wasEncoded == false)
        #expect(try pipeline.process(source: narrow, path: "x.jpg").wasEncoded == false)
    }

    @Test("a site icon is the centre square of its source, as PNG at 32, 180 and 192 px, scaled up when small; then read from the cache")
    func icon() throws {
        // Left third red, middle green, right third blue: the centre square is all green.
        var rgb: [UInt8] = []
        for _ in 0..<100 { for x in 0..<300 { rgb += x < 100 ? [220, 20, 20] : x < 200 ? [20, 200, 20] : [20, 20, 220] } }
        let source = Fixtures.encode(rgb, width: 300, height: 100, as: .png)
        let pipeline = try pipeline()
        let icon = try pipeline.icon(source: source, path: "icon.png") { "icon.\($0).png" }
        #expect(icon.files.map { "\($0.outputPath) \($0.width)x\($0.height)" } == ["icon.32.png 32x32", "icon.180.png 180x180", "icon.192.png 192x192"])
        #expect(icon.sourceSize == PixelSize(width: 300, height: 100))
        #expect(icon.wasEncoded)
        for file in icon.files {
            let png = try bytes(file)
            #expect(ImageFormat(sniffing: png) == .png)
            let decoded = Fixtures.decoded(png)
            #expect("\(decoded.width)x\(decoded.height)" == "\(file.width)x\(file.height)")
            for (x, y) in [(1, 1), (file.width - 2, file.height - 2), (file.width / 2, file.height / 2)] {
                let pixel = Fixtures.pixel(png, x: x, y: y)
                #expect(pixel.1 > 150 && pixel.0 < 80 && pixel.2 < 80, "\(file.outputPath) at \(x),\(y): \(pixel)")
            }
        }
        let again = try pipeline.icon(source: source, path: "icon.png") { "icon.\($0).png" }
        #expect(!again.wasEncoded)
        #expect(again.files == icon.files)
    }

    @Test("odd sizes round to the nearest pixel; nothing is upscaled")
    func rounding() throws {
        let odd = try pipeline().process(source: Fixtures.image(width: 1201, height: 799, as: .jpeg), path: "odd.jpg")
        #expect(sizes(odd) == ["480x319", "960x639", "1201x799"])
        try expectTrueSizes(odd)
        let small = try pipeline().process(source: Fixtures.image(width: 400, height: 300, as: .webp), path: "small.webp")
        #expect(sizes(small) == ["400x300"])
        #expect(small.thumbnail.map { "\($0.width)x\($0.height)" } == "300x300")
        try expectTrueSizes(small)
    }

    /// Debian's libvips 8.14.1 ignores `strip` when saving WebP; the pipeline removes the fields itself.
    @Test("WebP copies of a JPEG with EXIF GPS, XMP and IPTC carry no metadata chunks and no orientation")
    func webpCopiesHaveNoMetadata() throws {
        let source = Fixtures.jpegWithMetadata(width: 1000, height: 800, orientation: 6)
        let image = try pipeline().process(source: source, path: "gps.jpg")
        for file in image.copies + [image.thumbnail!] {
            let webp = try bytes(file)
            let chunks = try #require(RIFFChunks.chunks(webp))
            #expect(chunks.map(\.fourCC) == ["VP8 "])
            MetadataStrippingTests.expectNoPrivateMetadata(webp)
            #expect(!Fixtures.contains(webp, "Exif"))
            #expect(ImageOrientation(reading: webp) == .upright)
            #expect(Fixtures.decoded(webp).metadataFieldNames.filter { $0.hasPrefix("exif") || $0 == "orientation" } == [])
        }
    }

    /// Shows the libvips bug the pipeline works around, so the workaround can go when it is fixed.
    @Test("libvips 8.14.1 webpsave writes EXIF despite strip, even with every field removed; the byte pass drops it")
    func libvipsStripBug() throws {
        try #require(Vips.start())
        let source = Fixtures.jpegWithMetadata(width: 200, height: 100, orientation: 6)
        guard case .success(let kept) = Fixtures.decoded(source).encoded(.webp, quality: 80) else { Issue.record("encode failed"); return }
        if Vips.version == "8.14.1" {
            #expect(RIFFChunks.chunks(kept)!.contains { $0.fourCC == "EXIF" })
            #expect(Fixtures.contains(kept, "SecretCam"), "the source's EXIF, GPS included, is copied")
        }
        let decoded = Fixtures.decoded(source)  // sequential access: one read per decode
        decoded.removeAllMetadata()
        guard case .success(let generated) = decoded.encoded(.webp, quality: 80) else { Issue.record("encode failed"); return }
        #expect(!Fixtures.contains(generated, "SecretCam"))
        if Vips.version == "8.14.1" {
            #expect(RIFFChunks.chunks(generated)!.map(\.fourCC) == ["VP8X", "VP8 ", "EXIF"], "an EXIF block of its own")
        }
        let again = Fixtures.decoded(source)
        again.removeAllMetadata()
        guard case .success(let clean) = again.encodedWithoutMetadata(.webp, quality: 80) else { Issue.record("encode failed"); return }
        #expect(RIFFChunks.chunks(clean)!.map(\.fourCC) == ["VP8 "])
    }

    @Test("images.format jpeg: JPEG copies with no APP1, APP13 or COM")
    func jpegCopies() throws {
        let source = Fixtures.jpegWithMetadata(width: 1000, height: 800, orientation: 6)
        let image = try pipeline(ImageSettings(format: .jpeg)).process(source: source, path: "a/b.jpeg")
        #expect(image.copies.map(\.outputPath) == ["a/b.480.jpg", "a/b.800.jpg"])
        for file in image.copies + [image.thumbnail!] {
            let jpeg = try bytes(file)
            #expect(ImageFormat(sniffing: jpeg) == .jpeg)
            #expect(!Fixtures.contains(jpeg, "Exif") && !Fixtures.contains(jpeg, "taken at home"))
            MetadataStrippingTests.expectNoPrivateMetadata(jpeg)
        }
        try expectTrueSizes(image)
    }

    @Test("the published original is stripped, pixel-identical and keeps orientation")
    func original() throws {
        let source = Fixtures.jpegWithMetadata(width: 300, height: 200, orientation: 6)
        let image = try pipeline().process(source: source, path: "images/phone.jpg")
        let original = try bytes(try #require(image.original))
        #expect(Fixtures.rawPixels(original) == Fixtures.rawPixels(source))
        #expect(ImageOrientation(reading: original).value == 6)
        MetadataStrippingTests.expectNoPrivateMetadata(original)
        #expect(image.original?.width == 200 && image.original?.height == 300)
    }

    @Test("dominant colour of a solid photo is that colour")
    func colour() throws {
        let rgb = Fixtures.solid(width: 500, height: 300, 200, 30, 30)
        let image = try pipeline().process(source: Fixtures.encode(rgb, width: 500, height: 300, as: .png), path: "red.png")
        #expect(image.dominantColor == "#c81e1e")
    }

    @Test("a second run with the same bytes and settings encodes nothing; other settings miss")
    func cacheReuse() throws {
        let folder = Fixtures.cacheFolder()
        let sources = [
            ImageSource.bytes(Fixtures.image(width: 1200, height: 900, as: .jpeg), path: "images/a.jpg"),
            .bytes(Fixtures.jpegWithMetadata(width: 900, height: 600, orientation: 6), path: "images/b.jpg"),
            .bytes(Fixtures.image(width: 700, height: 500, as: .png), path: "images/c.png"),
            .bytes(Array("GIF89a".utf8) + [2, 0, 1, 0, 0, 0, 0, 0x3B], path: "images/d.gif"),
        ]
        let first = try ImagePipeline(cacheFolder: folder).process(sources)
        #expect(first.summary == "images 3 encoded, 0 reused")
        let second = try ImagePipeline(cacheFolder: folder).process(sources)
        #expect(second.summary == "images 0 encoded, 3 reused")
        #expect(try first.results.map { try $0.get() }.map(\.copies) == second.results.map { try $0.get() }.map(\.copies))
        #expect(try second.results.map { try $0.get().path } == ["images/a.jpg", "images/b.jpg", "images/c.png", "images/d.gif"])

        let other = try ImagePipeline(settings: ImageSettings(quality: 70), cacheFolder: folder).process(sources)
        #expect(other.summary == "images 3 encoded, 0 reused")
    }

    @Test("a damaged cache entry is made again; no temporary folders are left")
    func damagedCache() throws {
        let folder = Fixtures.cacheFolder()
        let pipeline = try ImagePipeline(cacheFolder: folder)
        let source = Fixtures.image(width: 600, height: 400, as: .jpeg)
        let first = try pipeline.process(source: source, path: "x.jpg")
        try FileManager.default.removeItem(at: first.copies[0].cacheFile)
        let again = try pipeline.process(source: source, path: "x.jpg")
        #expect(again.wasEncoded)
        #expect(try pipeline.process(source: source, path: "x.jpg").wasEncoded == false)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names == [pipeline.cacheKey(for: source)])
    }

    @Test("a cache folder that is a symbolic link is refused")
    func symlinkedCache() throws {
        let folder = Fixtures.cacheFolder()
        let elsewhere = SiteFixture.temporaryFolder("elsewhere")
        try FileManager.default.createSymbolicLink(at: folder.deletingLastPathComponent(), withDestinationURL: elsewhere)
        #expect(throws: ImageError.self) { try ImagePipeline(cacheFolder: folder) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [])
    }

    @Test("bytes that are no image: an error that says what to do")
    func unknownBytes() throws {
        let error = #expect(throws: ImageError.self) {
            try pipeline().process(source: Array("hello, this is text".utf8), path: "images/notes.jpg")
        }
        #expect(error?.description == "images/notes.jpg: is not a JPEG, PNG, WebP, HEIC, GIF or SVG image; export it as JPEG, PNG or WebP")
    }

    @Test("a damaged JPEG: an undecodable error at its path")
    func damagedJPEG() throws {
        let source = Array(Fixtures.image(width: 600, height: 400, as: .jpeg).prefix(20))
        let error = #expect(throws: ImageError.self) { try pipeline().process(source: source, path: "images/cut.jpg") }
        guard case .undecodable = error?.reason else { Issue.record("\(String(describing: error))"); return }
        #expect(error?.description.hasPrefix("images/cut.jpg: cannot be decoded (") == true)
        #expect(error?.description.hasSuffix("); the file may be truncated or damaged: open it in an image editor and export it again as JPEG, PNG or WebP") == true)
    }

    @Test("a JPEG cut off halfway, which libvips would finish in grey: an undecodable error, not half-grey copies")
    func truncatedJPEG() throws {
        let whole = Fixtures.image(width: 600, height: 400, as: .jpeg)
        let source = Array(whole.prefix(whole.count / 2))
        let error = #expect(throws: ImageError.self) { try pipeline().process(source: source, path: "images/half.jpg") }
        guard case .undecodable = error?.reason else { Issue.record("\(String(describing: error))"); return }
    }

    @Test("GIF and SVG pass through with no copies")
    func passThrough() throws {
        let gif = try pipeline().process(source: Array("GIF89a".utf8) + [3, 0, 2, 0, 0, 0, 0, 0x3B], path: "anim.gif")
        #expect(gif.treatment == .passThrough && gif.copies.isEmpty && gif.thumbnail == nil && gif.original == nil)
        #expect(gif.uprightSize == PixelSize(width: 3, height: 2))
        let svg = try pipeline().process(source: Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), path: "logo.svg")
        #expect(svg.treatment == .passThrough && svg.format == .svg && svg.uprightSize == nil)
    }

    @Test("HEIC is read when this libvips has libheif, without a published original")
    func heic() throws {
        let capabilities = ImagePipeline.capabilities
        #expect(capabilities.libvipsVersion.hasPrefix("8."))
        guard capabilities.readsHEIC else { return }
        // A HEIC made by libvips itself (heifsave), 800×600.
        let rgb = Fixtures.pixels(width: 800, height: 600)
        let image = rgb.withUnsafeBytes { vips_image_new_from_memory_copy($0.baseAddress, $0.count, 800, 600, 3, VIPS_FORMAT_UCHAR)! }
        defer { g_object_unref(image) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard daybook_vips_heifsave(image, &buffer, &length) == 0, let buffer else {
            Issue.record("heifsave failed: \(Vips.takeError())")
            return
        }
        let heic = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        g_free(buffer)
        let result = try pipeline().process(source: heic, path: "images/phone.heic")
        #expect(result.format == .heic)
        #expect(sizes(result) == ["480x360", "800x600"])
        #expect(result.original == nil)
    }
}
