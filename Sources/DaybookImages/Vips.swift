import CVipsLoader

/// libvips, started once per process.
///
/// `VIPS_INIT` must run once before any other call; a `static let` is initialised lazily and
/// exactly once (Swift guards it with `swift_once`), so every thread can call `Vips.start()`.
enum Vips {
    private static let started: Bool = dbvips_start() == 0

    static func start() -> Bool { started }

    /// The libvips version, e.g. "8.14.1".
    static var version: String { start() ? String(cString: dbvips_version_string()) : "" }

    /// The loader libvips would pick for these bytes (e.g. `VipsForeignLoadHeifBuffer`), or `nil`.
    static func loader(for bytes: [UInt8]) -> String? {
        guard start() else { return nil }
        return bytes.withUnsafeBytes { buffer in
            dbvips_foreign_find_load_buffer(buffer.baseAddress, buffer.count).map { String(cString: $0) }
        }
    }

    /// The text libvips left for the last error, cleared; one line, without its trailing newline.
    static func takeError() -> String {
        if let unavailable = dbvips_unavailable() { return String(cString: unavailable) }
        guard let copy = dbvips_error_buffer_copy() else { return "unknown libvips error" }
        defer { dbvips_g_free(copy) }
        let text = String(cString: copy).split(separator: "\n").first.map(String.init) ?? ""
        return text.isEmpty ? "unknown libvips error" : text
    }
}

/// Encoded bytes at an address that stays put while any image made from them lives.
///
/// libvips reads a buffer source lazily and does not copy it, so the bytes must outlive the
/// `withUnsafeBytes` call that hands them over; every image made from them keeps this alive.
final class StableBytes {
    let buffer: UnsafeMutableRawBufferPointer

    init(_ bytes: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        self.buffer = buffer
        count = bytes.count
    }

    let count: Int

    deinit { buffer.deallocate() }
}

/// One reference to a `VipsImage`, released when it goes; used by one thread at a time.
final class VipsImageRef {
    let pointer: OpaquePointer
    /// The encoded source this image may still read from.
    private let source: StableBytes?

    init(_ pointer: OpaquePointer, source: StableBytes? = nil) {
        self.pointer = pointer
        self.source = source
    }

    deinit { dbvips_unref(pointer) }

    var width: Int { Int(dbvips_width(pointer)) }
    var height: Int { Int(dbvips_height(pointer)) }
    var bands: Int { Int(dbvips_bands(pointer)) }

    /// The header of encoded bytes (nothing decoded yet); `nil` with libvips' error text otherwise.
    static func header(_ bytes: StableBytes) -> Result<VipsImageRef, VipsFailure> {
        // Every image comes from here or `thumbnail`: libvips is started before either is asked.
        guard Vips.start(), let image = dbvips_header(bytes.buffer.baseAddress, bytes.count) else { return .failure(VipsFailure()) }
        return .success(VipsImageRef(image, source: bytes))
    }

    /// `true` when the image carries an ICC profile.
    var hasColourProfile: Bool { dbvips_get_typeof(pointer, "icc-profile-data") != 0 }

    /// The EXIF orientation libvips read (1 when there is none).
    var orientation: Int { Int(dbvips_orientation(pointer)) }

    /// Decodes with shrink-on-load to `width` × `height`, upright, converted to sRGB when profiled.
    static func thumbnail(_ bytes: StableBytes, width: Int, height: Int, exact: Bool, toSRGB: Bool) -> Result<VipsImageRef, VipsFailure> {
        decoded(bytes, width: width, height: height, size: exact ? DBVIPS_SIZE_FORCE : DBVIPS_SIZE_DOWN, crop: DBVIPS_INTERESTING_NONE, toSRGB: toSRGB)
    }

    /// Decodes the centre square of the image, `side` pixels wide, scaled up or down (a site
    /// icon, which browsers and phones ask for at fixed sizes), converted to sRGB when profiled.
    static func square(_ bytes: StableBytes, side: Int, toSRGB: Bool) -> Result<VipsImageRef, VipsFailure> {
        decoded(bytes, width: side, height: side, size: DBVIPS_SIZE_BOTH, crop: DBVIPS_INTERESTING_CENTRE, toSRGB: toSRGB)
    }

    /// libvips' thumbnail of encoded bytes: `size` a `DBVIPS_SIZE_*`, `crop` a `DBVIPS_INTERESTING_*`.
    private static func decoded(
        _ bytes: StableBytes, width: Int, height: Int, size: Int, crop: Int, toSRGB: Bool
    ) -> Result<VipsImageRef, VipsFailure> {
        var out: OpaquePointer?
        guard Vips.start(), dbvips_thumbnail_buffer(
                bytes.buffer.baseAddress, bytes.count, &out, Int32(width), Int32(height), Int32(size), Int32(crop), toSRGB ? 1 : 0) == 0,
            let out
        else { return .failure(VipsFailure()) }
        return .success(VipsImageRef(out, source: bytes))
    }

    /// A smaller copy of this (decoded) image: exactly `width` × `height`, or with `attention` the
    /// square (or box) of that size around the most interesting region.
    func resized(width: Int, height: Int, attention: Bool = false) -> Result<VipsImageRef, VipsFailure> {
        var out: OpaquePointer?
        let size = attention ? DBVIPS_SIZE_DOWN : DBVIPS_SIZE_FORCE
        guard dbvips_thumbnail_image(pointer, &out, Int32(width), Int32(height), Int32(size), attention ? 1 : 0) == 0,
            let out
        else { return .failure(VipsFailure()) }
        return .success(VipsImageRef(out, source: source))
    }

    /// Encodes, then removes at the byte level any metadata the encoder wrote anyway.
    ///
    /// Removing the fields is not enough on Debian's libvips 8.14.1: its WebP saver ignores
    /// `strip` and, with no `exif-data` left, writes an EXIF block of its own (orientation,
    /// resolution, pixel dimensions). Dropping the `EXIF` and `XMP ` chunks after encoding costs
    /// one pass over a few kilobytes and holds whatever the libvips version.
    func encodedWithoutMetadata(_ format: CopyFormat, quality: Int) -> Result<[UInt8], VipsFailure> {
        encoded(format, quality: quality).flatMap { bytes in
            let clean =
                switch format {
                case .webp: RIFFChunks.strip(bytes, keeping: .upright)
                case .jpeg: JPEGSegments.strip(bytes, keeping: .upright)
                }
            guard let clean else { return .failure(VipsFailure(detail: "libvips wrote a \(format.rawValue) file Daybook cannot read back")) }
            return .success(clean)
        }
    }

    /// The pixels computed now and held in memory, so several copies can be made from them.
    func inMemory() -> Result<VipsImageRef, VipsFailure> {
        guard let out = dbvips_copy_memory(pointer) else { return .failure(VipsFailure()) }
        return .success(VipsImageRef(out))
    }

    /// Removes every metadata field: EXIF (and its `exif-ifd*` entries), XMP, IPTC, the colour
    /// profile, the orientation, comments and loader notes. The pixel header (size, bands, format,
    /// interpretation, resolution) is not metadata and stays.
    ///
    /// Needed although the savers get `strip`: Debian's libvips 8.14.1 ignores `strip` when it
    /// writes WebP and copies EXIF and XMP into the file (fixed upstream in 8.14.2).
    func removeAllMetadata() {
        guard let fields = dbvips_get_fields(pointer) else { return }
        defer { dbvips_strfreev(fields) }
        var i = 0
        while let name = fields[i] {
            dbvips_remove(pointer, name)  // returns false for header fields, which are kept
            i += 1
        }
    }

    /// Names of the metadata fields left (for tests).
    var metadataFieldNames: [String] {
        guard let fields = dbvips_get_fields(pointer) else { return [] }
        defer { dbvips_strfreev(fields) }
        var names: [String] = []
        var i = 0
        while let name = fields[i] {
            if dbvips_get_typeof(pointer, name) != 0 { names.append(String(cString: name)) }
            i += 1
        }
        return names
    }

    /// Encodes as WebP or JPEG with `strip` (belt and braces: metadata is already removed).
    func encoded(_ format: CopyFormat, quality: Int) -> Result<[UInt8], VipsFailure> {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status =
            switch format {
            case .webp: dbvips_webpsave(pointer, &buffer, &length, Int32(quality))
            case .jpeg: dbvips_jpegsave(pointer, &buffer, &length, Int32(quality))
            }
        guard status == 0, let buffer else { return .failure(VipsFailure()) }
        defer { dbvips_g_free(buffer) }
        return .success(Array(UnsafeRawBufferPointer(start: buffer, count: length)))
    }

    /// Encodes as PNG (a site icon: Apple's touch icon is PNG only), then removes at the byte
    /// level any metadata chunk the encoder wrote anyway, as for the copies.
    func pngWithoutMetadata() -> Result<[UInt8], VipsFailure> {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard dbvips_pngsave(pointer, &buffer, &length) == 0, let buffer else { return .failure(VipsFailure()) }
        defer { dbvips_g_free(buffer) }
        guard let clean = PNGChunks.strip(Array(UnsafeRawBufferPointer(start: buffer, count: length)), keeping: .upright) else {
            return .failure(VipsFailure(detail: "libvips wrote a PNG file Daybook cannot read back"))
        }
        return .success(clean)
    }

    /// The decoded pixels as libvips stores them (no rotation, no conversion), to compare two files.
    func rawPixels() -> Result<[UInt8], VipsFailure> {
        var length = 0
        guard let memory = dbvips_write_to_memory(pointer, &length) else { return .failure(VipsFailure()) }
        defer { dbvips_g_free(memory) }
        return .success(Array(UnsafeRawBufferPointer(start: memory, count: length)))
    }

    /// The pixels as 8-bit sRGB, three bytes per pixel, row by row.
    func srgbPixels() -> Result<[UInt8], VipsFailure> {
        var out: OpaquePointer?
        guard dbvips_srgb8(pointer, &out) == 0, let out else { return .failure(VipsFailure()) }
        let rgb = VipsImageRef(out)
        var length = 0
        guard let memory = dbvips_write_to_memory(rgb.pointer, &length) else { return .failure(VipsFailure()) }
        defer { dbvips_g_free(memory) }
        return .success(Array(UnsafeRawBufferPointer(start: memory, count: length)))
    }
}

/// A libvips call failed; `detail` is its error text.
struct VipsFailure: Error {
    var detail: String = Vips.takeError()
}
