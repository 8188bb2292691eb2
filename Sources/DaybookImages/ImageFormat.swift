/// The file formats Daybook tells apart by their first bytes, not by their names.
///
/// The extension of a file says what its author meant; the bytes say what a decoder will see, so
/// every decision (copies or not, how to strip metadata) is made from the bytes.
package enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case jpeg, png, webp, heic, gif, svg

    /// The format of an encoded image; `nil` for bytes Daybook does not know.
    package init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if Self.isHEIF(bytes) {
            self = .heic
        } else if Self.isSVG(bytes) {
            self = .svg
        } else {
            return nil
        }
    }

    /// How a file in this format is published (CONTRACT §7): GIF and SVG as they are, the others as copies.
    package var treatment: ImageTreatment {
        switch self {
        case .jpeg, .png, .webp, .heic: .responsive
        case .gif, .svg: .passThrough
        }
    }

    /// An ISO-BMFF `ftyp` box whose brand is one of HEIF's (`heic`, `heix`, `mif1`, …).
    private static func isHEIF(_ b: [UInt8]) -> Bool {
        guard b.count >= 12, b[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let brand = String(decoding: b[8..<12], as: UTF8.self)
        return ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand)
    }

    /// Text whose first element (after a BOM, an XML declaration, comments or a doctype) is `<svg`.
    private static func isSVG(_ b: [UInt8]) -> Bool {
        let head = String(decoding: b.prefix(4096), as: UTF8.self)
        guard let start = head.firstRange(of: "<svg") else { return false }
        let before = head[..<start.lowerBound]
        return !before.contains("<html") && before.trimmingPrefix("\u{FEFF}").first.map { $0 == "<" || $0.isWhitespace } ?? true
    }
}

/// What the pipeline does with a source image, decided by its format (CONTRACT §7).
package enum ImageTreatment: String, Sendable, Hashable {
    /// Decoded, made upright, and published as responsive copies and a square thumbnail.
    case responsive
    /// Published as it is, with no copies: GIF (animation would be lost) and SVG (already any size).
    case passThrough
}
