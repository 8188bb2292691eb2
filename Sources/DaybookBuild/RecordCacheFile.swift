import DaybookContent
import Foundation

/// `<site>/.daybook-cache/records`: the decoded content of the previous build (`RecordCache`).
///
/// A cache only ever saves work: a file that cannot be read is an empty cache, and one that
/// cannot be written is skipped. Neither the folder nor the file is followed if it is a link.
enum RecordCacheFile {
    static let name = "records"

    /// No archive larger than this is read: four times the sources it encodes, and a margin.
    static func maxBytes(sources: Int) -> Int { 4 * sources + (1 << 20) }

    static func read(site: URL, sourceBytes: Int) -> RecordCache {
        let path = site.appending(path: ".daybook-cache/" + name).path
        guard isRealFolder(site.appending(path: ".daybook-cache").path) else { return RecordCache() }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return RecordCache() }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maxBytes(sources: sourceBytes) else {
            return RecordCache()
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            guard count > 0 else { return RecordCache() }
            done += count
        }
        return RecordCache(archive: bytes)
    }

    /// Replaces the archive through a temporary file, so a reader never sees half of one.
    static func save(_ cache: RecordCache, site: URL) {
        let folder = site.appending(path: ".daybook-cache").path
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST, isRealFolder(folder) else { return }
        let file = folder + "/" + name
        let temporary = file + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let bytes = cache.archive
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            guard count > 0 else { break }
            done += count
        }
        close(fd)
        if done != bytes.count || rename(temporary, file) != 0 { unlink(temporary) }
    }

    private static func isRealFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
