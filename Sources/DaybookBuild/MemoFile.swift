import DaybookIncremental
import DaybookModel
import Foundation

/// The incremental layer's memo in `<site>/.daybook-cache/memo`, open for reading by position:
/// a build reads the values its steps ask for (`MemoContainer`) and no others, where reading the
/// whole file was 60 MB copied on a medium site, and the old file in memory through a large
/// site's build. A save appends to it (`append`) rather than writing it again.
///
/// Saves take an exclusive `flock` on the file while they append, and opening takes a shared one
/// while it finds the end, so a build never takes a half-appended save for the end. What lies
/// below the end found on opening never changes: saves only append, or put a fresh file in its
/// place by rename, which leaves the open one as it was.
final class MemoFile: MemoStorage {
    /// The file's name in the cache folder: `memo`, or `check` (`CheckContainer`).
    let name: String
    private let descriptor: Int32
    /// Where the container starts in the file: after `CacheFile`'s identity line.
    private let start: Int
    /// The container's length when the file was opened.
    let count: Int
    private let device: UInt64
    private let inode: UInt64

    private init(name: String, descriptor: Int32, start: Int, count: Int, device: UInt64, inode: UInt64) {
        (self.name, self.descriptor, self.start, self.count, self.device, self.inode) = (name, descriptor, start, count, device, inode)
    }

    deinit { close(descriptor) }

    static func path(site: URL, name: String) -> String { CacheFile.folder(site) + "/" + name }

    /// The table the site's container `name` holds, its index alone read (`MemoTable(storage:)`);
    /// an empty table, not read (`isRead`), when there is none to open (`open`).
    static func table(site: URL, name: String = MemoPlace.cacheName, maxBytes: Int) -> MemoTable {
        open(site: site, name: name, maxBytes: maxBytes).map { MemoTable(storage: $0) } ?? MemoTable()
    }

    /// The site's container `name`, or `nil` when it is missing, not a plain file (a link is not
    /// followed), over `maxBytes`, written by another executable, or held by a save for longer
    /// than a second.
    static func open(site: URL, name: String = MemoPlace.cacheName, maxBytes: Int) -> MemoFile? {
        guard CacheFile.isRealFolder(CacheFile.folder(site)) else { return nil }
        let descriptor = Glibc.open(path(site: site, name: name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard lock(descriptor, LOCK_SH) else {
            close(descriptor)
            return nil
        }
        defer { flock(descriptor, LOCK_UN) }
        var info = stat()
        let start = CacheFile.identity.count
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= start, info.st_size <= maxBytes,
            FileInfo.read(descriptor, at: 0, count: start) == CacheFile.identity[...]
        else {
            close(descriptor)
            return nil
        }
        return MemoFile(
            name: name, descriptor: descriptor, start: start, count: Int(info.st_size) - start, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    func read(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        return FileInfo.read(descriptor, at: start + offset, count: length)
    }

    /// What an append came to.
    enum Appended {
        case appended
        /// The file is no longer the one read (a save put a fresh one in its place, or cut it),
        /// or a save held it too long: the caller writes a fresh file instead.
        case replaced
        case failed(Diagnostic)
    }

    /// Appends `prepared` (a save of the table read from this file) to the file, after whatever
    /// another save appended since. A write that fails cuts the file back to where it ended, so
    /// the save before stands.
    func append(_ prepared: MemoContainer.Prepared, site: URL, faults: WriteFaults) -> Appended {
        let descriptor = Glibc.open(Self.path(site: site, name: name), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .replaced }
        defer { close(descriptor) }
        guard Self.lock(descriptor, LOCK_EX) else { return .replaced }
        defer { flock(descriptor, LOCK_UN) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode,
            Int(info.st_size) >= start + count, lseek(descriptor, info.st_size, SEEK_SET) == info.st_size
        else { return .replaced }
        var writes = GatheredWrites(descriptor: descriptor)
        prepared.appended(at: Int(info.st_size) - start) { writes.put($0) }
        writes.flush()
        // An injected failure strikes after the bytes were written, as a disk filling up on the
        // last write does, so that what they leave is cut back too.
        guard let failed = writes.failed ?? faults.failure(at: .cache(name)) else {
            // What killed builds left (a large site's first build spills 300 MB) goes too.
            CacheFile.removeTemporaries(of: name, in: CacheFile.folder(site))
            return .appended
        }
        _ = ftruncate(descriptor, info.st_size)
        return .failed(CacheFile.failure(name, "write", failed))
    }

    /// Saves `container` as the site's container `name`: appended to the file it was read from,
    /// unless that is worth compacting or was replaced since, else written fresh beside it and
    /// renamed into place. The error when it could not be written.
    static func save(_ container: MemoContainer.Prepared, site: URL, name: String, faults: WriteFaults) -> Diagnostic? {
        if !container.isWorthCompacting, let file = container.base?.storage as? MemoFile, file.name == name {
            switch file.append(container, site: site, faults: faults) {
            case .appended: return nil
            case .failed(let failure): return failure
            case .replaced: break
            }
        }
        return CacheFile.save(site: site, name: name, faults: faults) { container.whole($0) }
    }

    /// Takes `operation` on the file, trying for a second: a save holds it for milliseconds, and
    /// a lock held longer (by anyone who can write the site folder) must not stall the build.
    private static func lock(_ descriptor: Int32, _ operation: Int32) -> Bool {
        for _ in 0..<200 {
            if flock(descriptor, operation | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR else { return false }
            usleep(5_000)
        }
        return false
    }
}
