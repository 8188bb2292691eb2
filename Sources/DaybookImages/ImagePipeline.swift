import DaybookModel
import DaybookParallel
import Foundation

/// Turns source photos into what CONTRACT §7 publishes: upright responsive copies, a square
/// thumbnail, a dominant colour and a stripped original, each made once and then read from the cache.
///
/// Create one per build; it is a value and safe to use from any thread.
///
/// ```swift
/// let pipeline = try ImagePipeline(settings: ImageSettings(widths: config.widths),
///                                  cacheFolder: site.appending(path: ".daybook-cache/images"))
/// let batch = pipeline.process(sources)   // all cores, bounded memory
/// print(batch.summary)                    // "images 3 encoded, 197 reused"
/// ```
package struct ImagePipeline: Sendable {
    package let settings: ImageSettings
    package let cache: ImageCache

    package init(settings: ImageSettings = ImageSettings(), cacheFolder: URL, faults: WriteFaults = .none) throws(ImageError) {
        self.settings = settings
        self.cache = try ImageCache(folder: cacheFolder, faults: faults)
    }

    /// What this system's libvips can do (HEIC depends on Debian's libheif module being there).
    package static var capabilities: ImageCapabilities { ImageCapabilities.current }

    /// The cache key of `bytes` under these settings: 32 hex digits.
    package func cacheKey(for bytes: [UInt8]) -> String {
        StableHash.hex(SourceDigest.xxh64(bytes)) + cacheKeySuffix
    }

    /// Processes one image: from the cache when its bytes and the settings were seen before,
    /// otherwise by decoding it once and encoding every copy.
    ///
    /// - Parameters:
    ///   - bytes: the source file's bytes.
    ///   - path: its path relative to the site, used for the output paths and in errors.
    package func process(source bytes: [UInt8], path: String) throws(ImageError) -> ProcessedImage {
        guard let format = ImageFormat(sniffing: bytes) else { throw ImageError(path: path, reason: .unknownFormat) }
        let orientation = ImageOrientation(reading: bytes)
        if format.treatment == .passThrough {
            return ProcessedImage(
                path: path, format: format, treatment: .passThrough, uprightSize: format == .gif ? Self.gifSize(bytes) : nil,
                orientation: .upright, dominantColor: nil, copies: [], thumbnail: nil, original: nil, wasEncoded: false)
        }
        let key = cacheKey(for: bytes)
        if let manifest = cache.entry(key) {
            return result(path: path, format: format, key: key, manifest: manifest, wasEncoded: false)
        }
        let made = try encode(bytes, format: format, orientation: orientation, path: path)
        try cache.store(key, files: made.files, manifest: made.manifest)
        return result(path: path, format: format, key: key, manifest: made.manifest, wasEncoded: true)
    }

    /// Processes many images on all cores, one image per core at a time, so memory stays near
    /// (cores × one decoded image) whatever the batch size. Results keep the sources' order.
    package func process(_ sources: [ImageSource]) -> ImageBatch {
        let slots = ParallelSlots<Result<ProcessedImage, ImageError>>(count: sources.count)
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            let source = sources[index]
            let result = Result { () throws(ImageError) -> ProcessedImage in
                try process(source: try source.read(), path: source.path)
            }
            slots.set(index, result)
        }
        return ImageBatch(results: slots.values)
    }

    // MARK: - Encoding

    private struct Made {
        var files: [(name: String, bytes: [UInt8])]
        var manifest: ImageCache.Manifest
    }

    /// Decodes once (shrink-on-load, upright, sRGB) at the widest size needed, holds that in
    /// memory without metadata, and makes every copy, the thumbnail and the colour from it.
    private func encode(_ bytes: [UInt8], format: ImageFormat, orientation: ImageOrientation, path: String) throws(ImageError) -> Made {
        func undecodable(_ detail: String) -> ImageError { ImageError(path: path, reason: .undecodable(detail: detail)) }
        func failed(_ failure: VipsFailure) -> ImageError { ImageError(path: path, reason: .encodingFailed(detail: failure.detail)) }
        guard Vips.start() else { throw ImageError(path: path, reason: .encodingFailed(detail: "libvips did not start: \(Vips.takeError())")) }
        guard let loader = Vips.loader(for: bytes) else {
            if format == .heic { throw ImageError(path: path, reason: .unsupportedFormat(.heic)) }
            throw undecodable("no decoder recognises its bytes as \(format.rawValue.uppercased())")
        }
        guard Self.expectedLoaders[format] == loader else {
            throw undecodable("its bytes look like \(format.rawValue.uppercased()) but libvips reads them with \(loader)")
        }
        let stable = StableBytes(bytes)
        let header: VipsImageRef
        switch VipsImageRef.header(stable) {
        case .success(let image): header = image
        case .failure(let failure): throw undecodable(failure.detail)
        }
        let stored = PixelSize(width: header.width, height: header.height)
        // libvips reads the orientation of HEIC too; for the rest it agrees with `orientation`.
        let vipsOrientation = ImageOrientation(header.orientation) ?? orientation
        let upright = vipsOrientation.upright(width: stored.width, height: stored.height)
        let widths = ResponsiveWidths.candidates(uprightWidth: upright.width, configured: settings.widths)
        func height(_ width: Int) -> Int {
            ResponsiveWidths.height(forWidth: width, uprightWidth: upright.width, uprightHeight: upright.height)
        }
        let shareWidth = ImageSettings.linkPreviewWidth
        let needsShareCopy = upright.width >= shareWidth && !widths.contains { $0 >= shareWidth }
        let baseWidth = max(widths.last ?? 0, needsShareCopy ? shareWidth : 0, min(upright.width, settings.thumbnailSize))

        let base: VipsImageRef
        switch VipsImageRef.thumbnail(stable, width: baseWidth, height: height(baseWidth), exact: true, toSRGB: header.hasColourProfile)
            .flatMap({ $0.inMemory() })
        {
        case .success(let image): base = image
        case .failure(let failure): throw undecodable(failure.detail)
        }
        base.removeAllMetadata()

        let ext = settings.format.fileExtension
        var files: [(name: String, bytes: [UInt8])] = []
        var copies: [ImageCache.Manifest.File] = []
        var share: ImageCache.Manifest.File?
        for width in widths + (needsShareCopy ? [shareWidth] : []) {
            let copy: VipsImageRef
            if width == base.width {
                copy = base
            } else {
                switch base.resized(width: width, height: height(width)) {
                case .success(let image): copy = image
                case .failure(let failure): throw failed(failure)
                }
            }
            let name = "\(width).\(ext)"
            switch copy.encodedWithoutMetadata(settings.format, quality: settings.quality) {
            case .success(let encoded):
                files.append((name, encoded))
                let file = ImageCache.Manifest.File(
                    name: name, width: copy.width, height: copy.height, byteCount: encoded.count, contentHash: StableHash.of(encoded))
                if needsShareCopy && width == shareWidth { share = file } else { copies.append(file) }
            case .failure(let failure): throw failed(failure)
            }
        }

        let side = min(settings.thumbnailSize, base.width, base.height)
        let thumbnail: ImageCache.Manifest.File
        switch base.resized(width: side, height: side, attention: true).flatMap({ image in
            image.encodedWithoutMetadata(settings.format, quality: settings.quality).map { (image, $0) }
        }) {
        case .success(let (image, encoded)):
            let name = "thumbnail.\(ext)"
            files.append((name, encoded))
            thumbnail = .init(
                name: name, width: image.width, height: image.height, byteCount: encoded.count, contentHash: StableHash.of(encoded))
        case .failure(let failure): throw failed(failure)
        }

        let colour: String
        let small = min(32, base.width)
        switch base.resized(width: small, height: max(1, base.height * small / base.width)).flatMap({ $0.srgbPixels() }) {
        case .success(let pixels): colour = DominantColor.of(rgb: pixels) ?? "#808080"
        case .failure(let failure): throw failed(failure)
        }

        var original: ImageCache.Manifest.File?
        if format != .heic {
            guard let stripped = MetadataStripping.strippedOriginal(bytes) else {
                throw undecodable("its \(format.rawValue.uppercased()) structure is damaged")
            }
            let name = "original.\(format.rawValue)"
            files.append((name, stripped))
            original = .init(
                name: name, width: upright.width, height: upright.height, byteCount: stripped.count, contentHash: StableHash.of(stripped))
        }

        let manifest = ImageCache.Manifest(
            uprightWidth: upright.width, uprightHeight: upright.height, orientation: vipsOrientation.value,
            dominantColor: colour, copies: copies, thumbnail: thumbnail, original: original, share: share)
        return Made(files: files, manifest: manifest)
    }

    /// The libvips loader each format must go to; anything else (ImageMagick for odd bytes) is refused.
    private static let expectedLoaders: [ImageFormat: String] = [
        .jpeg: "VipsForeignLoadJpegBuffer", .png: "VipsForeignLoadPngBuffer", .webp: "VipsForeignLoadWebpBuffer",
        .heic: "VipsForeignLoadHeifBuffer",
    ]

    // MARK: - Results

    private func result(path: String, format: ImageFormat, key: String, manifest: ImageCache.Manifest, wasEncoded: Bool) -> ProcessedImage {
        let entry = cache.entryPath(key)
        let stem = Self.stem(path)
        let ext = settings.format.fileExtension
        func file(_ f: ImageCache.Manifest.File, _ outputPath: String) -> ImageFile {
            ImageFile(
                outputPath: outputPath, cachePath: entry + "/" + f.name, width: f.width, height: f.height,
                byteCount: f.byteCount, contentHash: f.contentHash)
        }
        var processed = ProcessedImage(
            path: path, format: format, treatment: .responsive,
            uprightSize: PixelSize(width: manifest.uprightWidth, height: manifest.uprightHeight),
            orientation: ImageOrientation(manifest.orientation) ?? .upright,
            dominantColor: manifest.dominantColor,
            copies: manifest.copies.map { file($0, "\(stem).\($0.width).\(ext)") },
            thumbnail: file(manifest.thumbnail, "\(stem).\(manifest.thumbnail.width)x\(manifest.thumbnail.height).\(ext)"),
            original: manifest.original.map { file($0, path) },
            wasEncoded: wasEncoded)
        processed.share = manifest.share.map { file($0, "\(stem).\($0.width).\(ext)") }
        processed.cached = CachedEntry(key: key, manifest: manifest)
        return processed
    }

    /// The result for a source the caller knows unchanged (same path and file status as when the
    /// cache entry `entry` was made from it), without reading its bytes. `nil` when the entry is
    /// gone or was made by other settings; the caller then reads the source.
    package func processed(path: String, format: ImageFormat, entry: CachedEntry) -> ProcessedImage? {
        guard entry.key.hasSuffix(cacheKeySuffix), ImageCache.isSafeName(entry.key), entry.manifest.isCurrent,
            ImageCache.isRealFolder(cache.entryPath(entry.key))
        else { return nil }
        return result(path: path, format: format, key: entry.key, manifest: entry.manifest, wasEncoded: false)
    }

    /// The settings' half of every cache key.
    var cacheKeySuffix: String {
        var settingsHash = StableHash()
        settingsHash.combine(settings.fingerprint)
        return StableHash.hex(settingsHash.value)
    }

    /// The path without its extension: `images/photo.jpg` → `images/photo`.
    package static func stem(_ path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[slash...].lastIndex(of: "."), dot > slash else { return path }
        return String(path[..<dot])
    }

    private static func gifSize(_ b: [UInt8]) -> PixelSize? {
        guard b.count >= 10 else { return nil }
        return PixelSize(width: Int(b[6]) | Int(b[7]) << 8, height: Int(b[8]) | Int(b[9]) << 8)
    }
}

/// What this system's libvips reads, for the build's diagnostics and the README.
package struct ImageCapabilities: Sendable, Hashable {
    package var libvipsVersion: String
    package var readsHEIC: Bool

    static let current: ImageCapabilities = {
        guard Vips.start() else { return ImageCapabilities(libvipsVersion: "unavailable", readsHEIC: false) }
        return ImageCapabilities(libvipsVersion: Vips.version, readsHEIC: Vips.loader(for: tinyHEIC) == "VipsForeignLoadHeifBuffer")
    }()

    /// The `ftyp` box of a HEIC file, enough for libvips' `is_a_buffer` probe.
    private static let tinyHEIC: [UInt8] =
        [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
}
