/// The settings that decide the bytes of every copy, and so take part in the cache key.
package struct ImageSettings: Sendable, Hashable {
    /// `images.widths` (CONTRACT §1): widths of the responsive copies, in pixels.
    package var widths: [Int]
    /// `images.format`: the format of the copies.
    package var format: CopyFormat
    /// Encoder quality, 1–100 (libvips' `Q`).
    package var quality: Int
    /// The side of the square thumbnail for grids, in pixels.
    package var thumbnailSize: Int

    /// Bumped whenever the pipeline makes different bytes from the same settings, so old cache
    /// entries stop matching instead of being served.
    package static let pipelineVersion = 2  // 2: libvips without Orc, which rounds some pixels differently

    package static let defaultWidths = [480, 960, 1600]

    /// The narrowest copy a link preview wants (CONTRACT §12: `og:image` at least 1,200 px wide
    /// when the photo is): a photo that wide gets a copy at it when no `srcset` candidate is.
    package static let linkPreviewWidth = 1200

    package init(widths: [Int] = ImageSettings.defaultWidths, format: CopyFormat = .webp, quality: Int = 80, thumbnailSize: Int = 320) {
        self.widths = widths
        self.format = format
        self.quality = quality
        self.thumbnailSize = thumbnailSize
    }

    /// Everything that changes the output, as text; widths sorted, since their order changes nothing.
    var fingerprint: String {
        let sorted = Set(widths).sorted().map(String.init).joined(separator: ",")
        return "v\(Self.pipelineVersion);w=\(sorted);f=\(format.rawValue);q=\(quality);t=\(thumbnailSize)"
    }
}

/// The format of the responsive copies and thumbnails.
package enum CopyFormat: String, Sendable, Hashable, CaseIterable {
    /// Smaller than JPEG at the same quality; every current browser shows it.
    case webp
    case jpeg

    package var fileExtension: String {
        switch self {
        case .webp: "webp"
        case .jpeg: "jpg"
        }
    }

    package var mediaType: String { "image/\(rawValue)" }
}

/// The `srcset` candidate widths of CONTRACT §7.
package enum ResponsiveWidths {
    /// Each configured width narrower than the upright image, plus the image's own width when it
    /// is narrower than the widest configured width; ascending, no copy wider than its source.
    ///
    /// A source exactly as wide as the widest configured width gets no copy at that width: the
    /// contract asks for widths *narrower* than the image, and for the own width only when it is
    /// narrower than the widest.
    package static func candidates(uprightWidth: Int, configured widths: [Int]) -> [Int] {
        let configured = Set(widths.filter { $0 > 0 }).sorted()
        guard let widest = configured.last, uprightWidth > 0 else { return [] }
        var result = configured.filter { $0 < uprightWidth }
        if uprightWidth < widest { result.append(uprightWidth) }
        return result
    }

    /// The height of a copy `width` pixels wide, keeping the aspect ratio to the nearest pixel
    /// (halves round up), and at least one pixel.
    package static func height(forWidth width: Int, uprightWidth: Int, uprightHeight: Int) -> Int {
        max(1, (2 * uprightHeight * width + uprightWidth) / (2 * uprightWidth))
    }
}
