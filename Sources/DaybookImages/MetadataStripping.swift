/// Originals published at their own path, without metadata but an orientation tag (CONTRACT §7).
///
/// Done on the container's bytes, not with libexif or by re-encoding: re-encoding would change the
/// pixels; libexif edits only EXIF and knows nothing of XMP, IPTC, PNG text chunks or WebP chunks,
/// and keeping its EXIF writer would still leave maker notes to trust. Walking segments and chunks
/// with an allowlist drops everything not needed to show the pixels, including metadata nobody
/// listed, and the image data is copied byte for byte, so it decodes to the same pixels.
package enum MetadataStripping {
    /// The file without metadata, keeping an orientation tag other than 1; the bytes as they are for
    /// GIF and SVG; `nil` for HEIC, unknown bytes, or a damaged container.
    package static func strippedOriginal(_ bytes: [UInt8]) -> [UInt8]? {
        let orientation = ImageOrientation(reading: bytes)
        switch ImageFormat(sniffing: bytes) {
        case .jpeg: return JPEGSegments.strip(bytes, keeping: orientation)
        case .png: return PNGChunks.strip(bytes, keeping: orientation)
        case .webp: return RIFFChunks.strip(bytes, keeping: orientation)
        case .gif, .svg: return bytes
        case .heic, nil: return nil
        }
    }
}
