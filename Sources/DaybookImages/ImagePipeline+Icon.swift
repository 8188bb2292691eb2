import DaybookModel

/// The site's icon (`icon` in site.yml, issue 41): square PNGs at the sizes browsers and phones
/// ask for, made once from the source and then read from the cache as the photos' copies are.
package struct ProcessedIcon: Sendable, Hashable {
    /// One file per side of `ImagePipeline.iconSides`, in that order.
    package var files: [ImageFile]
    /// The source's upright size, for the warning when it is too small to stay sharp.
    package var sourceSize: PixelSize
    package var wasEncoded: Bool
}

extension ImagePipeline {
    /// The sides of `SiteIcon.sizes`, in its order.
    package static let iconSides = SiteIcon.sizes.map(\.side)

    /// What the cache keeps of an icon: the source's size and its files.
    struct IconManifest: ImageCache.EntryManifest, Hashable {
        var width: Int
        var height: Int
        var files: [ImageCache.Manifest.File]
        /// Every size this build links.
        var isCurrent: Bool { files.map(\.width) == ImagePipeline.iconSides }
    }

    /// Makes the icon's files from `bytes`, or takes them from the cache.
    ///
    /// The centre square is taken: an icon is shown square, and a wide photo cut at its centre
    /// is what a reader expects of an avatar too. A source smaller than a side is scaled up, so
    /// every size exists and the pages can name them without knowing the source.
    ///
    /// - Parameters:
    ///   - path: the source's path relative to the site's `content/`, for errors.
    ///   - outputPath: where the file of each side is published.
    package func icon(source bytes: [UInt8], path: String, outputPath: (Int) -> String) throws(ImageError) -> ProcessedIcon {
        guard let format = ImageFormat(sniffing: bytes) else { throw ImageError(path: path, reason: .unknownFormat) }
        guard format.treatment == .responsive else { throw ImageError(path: path, reason: .iconNotRaster(format)) }
        let key = StableHash.hex(SourceDigest.xxh64(bytes)) + Self.iconKeySuffix
        var wasEncoded = false
        let manifest: IconManifest
        if let cached = cache.entry(key, as: IconManifest.self) {
            manifest = cached
        } else {
            let made = try encodeIcon(bytes, format: format, path: path)
            try cache.store(key, files: made.files, manifest: made.manifest)
            (manifest, wasEncoded) = (made.manifest, true)
        }
        let entry = cache.entryPath(key)
        let files = zip(Self.iconSides, manifest.files).map { side, file in
            ImageFile(
                outputPath: outputPath(side), cachePath: entry + "/" + file.name, width: file.width, height: file.height,
                byteCount: file.byteCount, contentHash: file.contentHash)
        }
        return ProcessedIcon(files: files, sourceSize: PixelSize(width: manifest.width, height: manifest.height), wasEncoded: wasEncoded)
    }

    /// The icon's half of its cache key: no photo setting changes an icon.
    private static let iconKeySuffix: String = {
        var hash = StableHash()
        hash.combine("icon-2;sides=" + iconSides.map(String.init).joined(separator: ","))
        return StableHash.hex(hash.value)
    }()

    private func encodeIcon(_ bytes: [UInt8], format: ImageFormat, path: String) throws(ImageError) -> (files: [(name: String, bytes: [UInt8])], manifest: IconManifest) {
        func failed(_ failure: VipsFailure) -> ImageError { ImageError(path: path, reason: .undecodable(detail: failure.detail)) }
        guard Vips.start() else { throw ImageError(path: path, reason: .encodingFailed(detail: "libvips did not start: \(Vips.takeError())")) }
        let stable = StableBytes(bytes)
        let header: VipsImageRef
        switch VipsImageRef.header(stable) {
        case .success(let image): header = image
        case .failure(let failure): throw failed(failure)
        }
        let orientation = ImageOrientation(header.orientation) ?? ImageOrientation(reading: bytes)
        let upright = orientation.upright(width: header.width, height: header.height)
        // Decoded once, at the largest side, and every smaller side made from that, as a photo's
        // copies are made from its one decoded base.
        let largest = Self.iconSides.max() ?? 0
        let base: VipsImageRef
        switch VipsImageRef.square(stable, side: largest, toSRGB: header.hasColourProfile).flatMap({ $0.inMemory() }) {
        case .success(let image): base = image
        case .failure(let failure): throw failed(failure)
        }
        base.removeAllMetadata()
        var files: [(name: String, bytes: [UInt8])] = []
        var manifest = IconManifest(width: upright.width, height: upright.height, files: [])
        for side in Self.iconSides {
            let resized = side == largest ? .success(base) : base.resized(width: side, height: side)
            let encoded = resized.flatMap { $0.pngWithoutMetadata() }
            switch encoded {
            case .success(let png):
                let name = "icon-\(side).png"
                files.append((name, png))
                manifest.files.append(.init(name: name, width: side, height: side, byteCount: png.count, contentHash: StableHash.of(png)))
            case .failure(let failure): throw failed(failure)
            }
        }
        return (files, manifest)
    }
}
