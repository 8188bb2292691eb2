/// Why an image could not be published, with the path of the source and what to do about it.
package struct ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Reason: Sendable, Hashable {
        /// The bytes are not JPEG, PNG, WebP, HEIC, GIF or SVG.
        case unknownFormat
        /// The format is known but this libvips cannot read it (HEIC without libheif).
        case unsupportedFormat(ImageFormat)
        /// The decoder rejected the file: truncated, damaged, or not what its header says.
        case undecodable(detail: String)
        /// Encoding a copy failed (out of memory, or a libvips error).
        case encodingFailed(detail: String)
        /// The cache folder could not be used: not a real folder, or a write failed.
        case cache(detail: String)
        /// The caller's reader could not supply the bytes.
        case unreadable(detail: String)
        /// A site icon in a format published as it is (GIF, SVG), from which no PNG can be made.
        case iconNotRaster(ImageFormat)
    }

    /// The source's path relative to the site, as the field that names it says.
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// One sentence that says what is wrong and what to do, without the `path:` prefix.
    package var message: String {
        switch reason {
        case .unknownFormat:
            "is not a JPEG, PNG, WebP, HEIC, GIF or SVG image; export it as JPEG, PNG or WebP"
        case .unsupportedFormat(let format):
            "is a \(format.rawValue.uppercased()) image, which this system's libvips cannot read; export it as JPEG, PNG or WebP"
        case .undecodable(let detail):
            "cannot be decoded (\(detail)); the file may be truncated or damaged: open it in an image editor and export it again as JPEG, PNG or WebP"
        case .encodingFailed(let detail):
            "could not be resized (\(detail)); try again, or export it again as JPEG, PNG or WebP"
        case .cache(let detail):
            "could not be cached (\(detail)); delete the .daybook-cache folder and build again"
        case .unreadable(let detail):
            "could not be read (\(detail))"
        case .iconNotRaster(let format):
            "is a \(format.rawValue.uppercased()) image, from which Daybook cannot make the PNG icons browsers and phones ask for; give 'icon' a JPEG, PNG or WebP image, at least 192 px square"
        }
    }

    package var description: String { "\(path): \(message)" }
}
