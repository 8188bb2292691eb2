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
/// Kept in `<site>/.daybook-cache/images/sources.json`. The file is untrusted like the rest of the
/// site folder: it is bounded, and one that does not decode is ignored, never fatal.
public struct SourceIndex: Sendable, Codable, Equatable {
    /// A file's status as `stat(2)` gives it.
    public struct Status: Sendable, Codable, Hashable {
        public var size: Int64
        public var modified: Int64
        public var changed: Int64
        public var inode: UInt64
        public var device: UInt64
    }

    public struct Entry: Sendable, Codable, Hashable {
        public var status: Status
        public var format: ImageFormat
        public var cached: CachedEntry

        public init(status: Status, format: ImageFormat, cached: CachedEntry) {
            self.status = status
            self.format = format
            self.cached = cached
        }
    }

    /// By the source's path relative to `content/`.
    public var entries: [String: Entry] = [:]

    public init() {}

    static let fileName = "sources.json"
    /// Far above what 100,000 photos need (about 600 bytes each).
    static let maxBytes = 256 << 20

    /// The index the last build saved, or an empty one when there is none or it is damaged.
    public static func load(from cache: ImageCache) -> SourceIndex {
        let path = cache.folder.appendingPathComponent(fileName).path
        guard let size = ImageCache.regularFileSize(path), size <= maxBytes, let bytes = ImageCache.readFile(path),
            let index = try? JSONDecoder().decode(SourceIndex.self, from: Data(bytes))
        else { return SourceIndex() }
        return index
    }

    /// Saves the index when it differs from `previous`, through a temporary file renamed into
    /// place, so a killed build leaves the old index or the new one. Failing to save only costs
    /// the next build its quick path, so errors are ignored.
    public func save(to cache: ImageCache, previous: SourceIndex) {
        guard self != previous, let json = try? JSONEncoder().encode(self) else { return }
        let final = cache.folder.appendingPathComponent(Self.fileName).path
        let temporary = final + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do { try ImageCache.writeNew(temporary, Array(json)) } catch { return }
        if rename(temporary, final) != 0 { unlink(temporary) }
    }

    /// The status of the file at `path`, following links (the caller has checked that they stay
    /// inside the site); `nil` when it is not a regular file.
    public static func status(of path: String) -> Status? {
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
