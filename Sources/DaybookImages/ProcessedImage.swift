import Foundation

/// What the pipeline made of one source image: its upright size and colour, and the files to publish.
package struct ProcessedImage: Sendable, Hashable {
    /// The source's path relative to the site (`images/photo.jpg`).
    package var path: String
    package var format: ImageFormat
    package var treatment: ImageTreatment
    /// Width and height as shown (EXIF orientation applied); `nil` for SVG, which has no pixel size.
    package var uprightSize: PixelSize?
    package var orientation: ImageOrientation
    /// `#rrggbb`, for the placeholder background; `nil` for GIF and SVG.
    package var dominantColor: String?
    /// The `srcset` candidates (CONTRACT §7), narrowest first; empty for GIF and SVG.
    package var copies: [ImageFile]
    /// The square grid thumbnail; `nil` for GIF and SVG.
    package var thumbnail: ImageFile?
    /// The original to publish at its own path, without metadata but its orientation. `nil` for
    /// pass-through formats (publish the source's bytes as they are) and for HEIC (its EXIF lives
    /// in the `meta` box, which cannot be cut out without rewriting item offsets; no browser but
    /// Safari shows HEIC anyway, so link the widest copy instead).
    package var original: ImageFile?
    /// The copy for link previews when no `srcset` candidate is wide enough for one (CONTRACT §12).
    package var share: ImageFile?
    /// `true` when this call encoded the copies; `false` when they came from the cache (or there are none).
    package var wasEncoded: Bool
    /// The cache entry the files are in, to remember for the next build (`SourceIndex`).
    package var cached: CachedEntry?

    package init(
        path: String, format: ImageFormat, treatment: ImageTreatment, uprightSize: PixelSize?, orientation: ImageOrientation,
        dominantColor: String?, copies: [ImageFile], thumbnail: ImageFile?, original: ImageFile?, wasEncoded: Bool
    ) {
        self.path = path
        self.format = format
        self.treatment = treatment
        self.uprightSize = uprightSize
        self.orientation = orientation
        self.dominantColor = dominantColor
        self.copies = copies
        self.thumbnail = thumbnail
        self.original = original
        self.wasEncoded = wasEncoded
    }

    /// The copy a `src` attribute should name: the widest.
    package var largestCopy: ImageFile? { copies.last }
}

/// A width and a height in pixels.
package struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package var isPortrait: Bool { height > width }
    package var description: String { "\(width)×\(height)" }
}

/// One file to publish: where it goes in the output, and where its bytes are in the cache.
package struct ImageFile: Sendable, Hashable {
    /// Relative to the output folder, e.g. `images/photo.480.webp`.
    package var outputPath: String
    /// Where the bytes are in the cache folder, as a path: a URL per file cost more than the rest
    /// of a no-change rebuild's photo work. Copy or hard-link them, never edit them in place.
    package var cachePath: String
    package var cacheFile: URL { URL(filePath: cachePath) }
    package var width: Int
    package var height: Int
    package var byteCount: Int
    /// `StableHash.of` the bytes when the cache knows it (see `ImageCache.Manifest.File`).
    package var contentHash: UInt64?
}

/// A cache entry as the next build needs it to skip reading an unchanged source: its key and manifest.
package struct CachedEntry: Sendable, Hashable, Codable {
    package var key: String
    var manifest: ImageCache.Manifest
}

/// A source for the batch API: its path, and how to get its bytes when a worker is ready for it,
/// so a batch holds only the images being encoded in memory.
package struct ImageSource: Sendable {
    package var path: String
    package var read: @Sendable () throws(ImageError) -> [UInt8]

    package init(path: String, read: @escaping @Sendable () throws(ImageError) -> [UInt8]) {
        self.path = path
        self.read = read
    }

    /// A source whose bytes are already in memory.
    package static func bytes(_ bytes: [UInt8], path: String) -> ImageSource {
        ImageSource(path: path) { () throws(ImageError) in bytes }
    }

    /// A source read from a file when its turn comes.
    package static func file(_ url: URL, path: String) -> ImageSource {
        ImageSource(path: path) { () throws(ImageError) in
            do { return Array(try Data(contentsOf: url)) } catch {
                throw ImageError(path: path, reason: .unreadable(detail: error.localizedDescription))
            }
        }
    }
}

/// The results of a batch, in the order of its sources, and the counts for the build's summary.
package struct ImageBatch: Sendable {
    package var results: [Result<ProcessedImage, ImageError>]

    package var encoded: Int { results.count { (try? $0.get())?.wasEncoded == true } }
    package var reused: Int { results.count { (try? $0.get()).map { !$0.wasEncoded && $0.treatment == .responsive } ?? false } }

    /// CONTRACT §7's summary words: `images E encoded, R reused`.
    package var summary: String { "images \(encoded) encoded, \(reused) reused" }
}

extension ProcessedImage {
    /// This image with its copies and thumbnail named by the source's whole name
    /// (`images/x.png.480.webp`), not its stem (`images/x.480.webp`): for two sources that differ
    /// only by extension (`x.png`, `x.jpg`), whose copies would otherwise share names.
    package func namingCopiesByWholeName() -> ProcessedImage {
        let stem = ImagePipeline.stem(path)
        func renamed(_ file: ImageFile) -> ImageFile {
            guard file.outputPath.hasPrefix(stem + ".") else { return file }
            var named = file
            named.outputPath = path + file.outputPath.dropFirst(stem.count)
            return named
        }
        var image = self
        image.copies = copies.map(renamed)
        image.thumbnail = thumbnail.map(renamed)
        image.share = share.map(renamed)
        return image
    }
}
