import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the last build learnt of each source photo: the file's status when it was read, and the
/// cache entry made from it.
///
/// Reading and hashing a camera photo costs about 8 ms, so a site of 1,000 photos would spend
/// 8 s per rebuild proving that nothing changed. A build stats each source instead; when size,
/// modification and change times, inode and device all match, it takes the entry without reading
/// the source. Any difference (an edit, a `touch`, a file replaced by another) falls back to
/// reading and hashing, and the byte-keyed cache still spares the encoding.
///
/// Kept in the build's memo (`PhotoIndexStep`) as text, one line per photo. The memo is untrusted
/// like the rest of the site folder: a text that does not parse is ignored, never fatal. A line
/// format rather than JSON: the index is read on every build, and Foundation's JSONDecoder took
/// 35 ms over 1,000 photos, most of a rebuild's budget for images.
package struct SourceIndex: Sendable, Equatable {
    /// A file's status as `stat(2)` gives it: the one type the build's records and the check use too.
    package typealias Status = FileStatus

    package struct Entry: Sendable, Hashable {
        package var status: Status
        package var format: ImageFormat
        package var cached: CachedEntry

        package init(status: Status, format: ImageFormat, cached: CachedEntry) {
            self.status = status
            self.format = format
            self.cached = cached
        }
    }

    /// By the source's path relative to `content/`.
    package var entries: [String: Entry] = [:]

    package init() {}

    // MARK: - The line format

    /// `path TAB size modified changed inode device TAB format TAB key TAB width height orientation colour
    /// TAB copies TAB thumbnail TAB original TAB share`, each file `name,width,height,bytes,hash` (hash `-` when
    /// unknown), copies joined by spaces, original and share `-` when none. A path holding a tab or a line
    /// break is left out: that photo is read on every build.
    package var text: String {
        var lines: [String] = []
        for path in entries.keys.sorted() where !path.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            let entry = entries[path]!
            let status = entry.status
            let manifest = entry.cached.manifest
            func file(_ f: ImageCache.Manifest.File) -> String {
                "\(f.name),\(f.width),\(f.height),\(f.byteCount),\(f.contentHash.map(String.init) ?? "-")"
            }
            lines.append([
                path, "\(status.size) \(status.modified) \(status.changed) \(status.inode) \(status.device)", entry.format.rawValue,
                entry.cached.key,
                "\(manifest.uprightWidth) \(manifest.uprightHeight) \(manifest.orientation) \(manifest.dominantColor)",
                manifest.copies.map(file).joined(separator: " "), file(manifest.thumbnail), manifest.original.map(file) ?? "-",
                manifest.share.map(file) ?? "-",
            ].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    package init?(text: String) {
        // Split on bytes: the index is read on every build, and Character-wise splitting of
        // 1,000 lines took longer than the stats it saves.
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"))
        func number<T: FixedWidthInteger>(_ bytes: Substring.UTF8View.SubSequence) -> T? { T(Substring(bytes)) }
        func file(_ text: Substring.UTF8View.SubSequence) -> ImageCache.Manifest.File? {
            let parts = text.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard parts.count == 5 else { return nil }
            let name = String(Substring(parts[0]))
            guard ImageCache.isSafeName(name), let width: Int = number(parts[1]), let height: Int = number(parts[2]),
                let bytes: Int = number(parts[3])
            else { return nil }
            let unknown = parts[4].elementsEqual("-".utf8)
            let hash: UInt64? = unknown ? nil : number(parts[4])
            guard unknown || hash != nil else { return nil }
            return .init(name: name, width: width, height: height, byteCount: bytes, contentHash: hash)
        }
        for line in lines {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 9 else { return nil }
            let numbers = fields[1].split(separator: UInt8(ascii: " "))
            let shape = fields[4].split(separator: UInt8(ascii: " "))
            guard numbers.count == 5, let size: Int64 = number(numbers[0]), let modified: Int64 = number(numbers[1]),
                let changed: Int64 = number(numbers[2]), let inode: UInt64 = number(numbers[3]), let device: UInt64 = number(numbers[4]),
                let format = ImageFormat(rawValue: String(Substring(fields[2]))),
                shape.count == 4, let width: Int = number(shape[0]), let height: Int = number(shape[1]),
                let orientation: Int = number(shape[2]),
                // The colour lands in a style attribute: only `#rrggbb` is taken.
                shape[3].count == 7, shape[3].first == UInt8(ascii: "#"),
                shape[3].dropFirst().allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                let thumbnail = file(fields[6])
            else { return nil }
            var copies: [ImageCache.Manifest.File] = []
            for copy in fields[5].split(separator: UInt8(ascii: " ")) {
                guard let parsed = file(copy) else { return nil }
                copies.append(parsed)
            }
            var original: ImageCache.Manifest.File?
            if !fields[7].elementsEqual("-".utf8) {
                guard let parsed = file(fields[7]) else { return nil }
                original = parsed
            }
            var share: ImageCache.Manifest.File?
            if !fields[8].elementsEqual("-".utf8) {
                guard let parsed = file(fields[8]) else { return nil }
                share = parsed
            }
            let manifest = ImageCache.Manifest(
                uprightWidth: width, uprightHeight: height, orientation: orientation, dominantColor: String(Substring(shape[3])),
                copies: copies, thumbnail: thumbnail, original: original, share: share)
            entries[String(Substring(fields[0]))] = Entry(
                status: Status(size: size, modified: modified, changed: changed, inode: inode, device: device), format: format,
                cached: CachedEntry(key: String(Substring(fields[3])), manifest: manifest))
        }
    }

    /// The status of the file at `path`, following links (the caller has checked that they stay
    /// inside the site); `nil` when it is not a regular file.
    package static func status(of path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        return Status(
            size: Int64(info.st_size), modified: modified, changed: changed, inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}
